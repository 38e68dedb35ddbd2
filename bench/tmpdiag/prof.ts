import { readFileSync } from "node:fs"
const p = JSON.parse(readFileSync(process.argv[2], "utf8"))
const byId = new Map<number, any>(p.nodes.map((n: any) => [n.id, n]))
const parent = new Map<number, number>()
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const name = (n: any) => `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber}`
const self = new Map<string, number>()
let total = 0
p.samples.forEach((s: number, i: number) => { const dt = p.timeDeltas[i] ?? 0; total += dt; const k = name(byId.get(s)); self.set(k, (self.get(k) ?? 0) + dt) })
console.log("total ms", (total / 1000).toFixed(0))
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / 1000).toFixed(1).padStart(8), k)
// long busy stretches: consecutive non-idle samples
let start = -1, acc = 0, stacks = new Map<string, number>()
const stretches: Array<[number, Map<string, number>]> = []
p.samples.forEach((s: number, i: number) => {
  const n = byId.get(s); const idle = n.callFrame.functionName === "(idle)"
  const dt = p.timeDeltas[i] ?? 0
  if (!idle) { acc += dt; // attribute to a "interesting" ancestor frame
    let cur = n; const chain: string[] = []
    while (cur) { chain.push(cur.callFrame.functionName || "(anon)"); cur = byId.get(parent.get(cur.id)!) }
    const key = chain.slice(0, 4).join(" < ")
    stacks.set(key, (stacks.get(key) ?? 0) + dt)
  } else { if (acc > 8000) stretches.push([acc, stacks]); acc = 0; stacks = new Map() }
})
stretches.sort((a, b) => b[0] - a[0])
for (const [ms, st] of stretches.slice(0, 6)) { console.log("--- busy", (ms / 1000).toFixed(1), "ms"); for (const [k, v] of [...st].sort((a, b) => b[1] - a[1]).slice(0, 6)) console.log("   ", (v / 1000).toFixed(1), k) }
