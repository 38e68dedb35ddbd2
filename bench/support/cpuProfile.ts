// node bench/support/cpuProfile.ts FILE.cpuprofile [TOP] [FROM_S] [TO_S]
// Self time per function (and per file) of a V8 CPU profile, heaviest first:
// where one request's CPU goes when the service ran under --cpu-prof.
// FROM_S/TO_S keep the samples of that window (seconds from the profile's
// start): the load phases only, without the start-up's ingest.
import { readFileSync } from "node:fs"

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly hitCount?: number
  readonly children?: ReadonlyArray<number>
}
interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly startTime: number
  readonly endTime: number
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

const [file, topArg, fromArg, toArg] = process.argv.slice(2)
if (file === undefined) throw new Error("usage: cpuProfile.ts FILE.cpuprofile [TOP]")
const top = Number(topArg ?? 30)
const whole = JSON.parse(readFileSync(file, "utf8")) as Profile
const from = Number(fromArg ?? 0) * 1e6
const to = toArg === undefined ? Number.POSITIVE_INFINITY : Number(toArg) * 1e6
let at = 0
const kept = whole.samples.filter((_, i) => {
  at += whole.timeDeltas[i]
  return at >= from && at <= to
})
const profile: Profile = {
  ...whole,
  samples: kept,
  startTime: whole.startTime + Math.min(from, at),
  endTime: Math.min(whole.endTime, whole.startTime + to)
}
const byNode = new Map(profile.nodes.map((node) => [node.id, node]))
const counts = new Map<number, number>()
for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1)
// shares of busy time: idle samples (waiting on Meilisearch or the client) are left out
const idleIds = new Set(profile.nodes.filter((node) => node.callFrame.functionName === "(idle)").map((node) => node.id))
const total = profile.samples.filter((id) => !idleIds.has(id)).length
const perFunction = new Map<string, number>()
const perFile = new Map<string, number>()
for (const [id, n] of counts) {
  if (idleIds.has(id)) continue
  const frame = byNode.get(id)!.callFrame
  const where = frame.url.replace(/^.*\/node_modules\//, "npm:").replace(/^file:\/\/.*?\/(?=[a-z]+\/)/, "")
  const name = `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`
  perFunction.set(name, (perFunction.get(name) ?? 0) + n)
  const module = where === "" ? frame.functionName : where.replace(/^(npm:(@[^/]+\/)?[^/]+).*$/, "$1")
  perFile.set(module, (perFile.get(module) ?? 0) + n)
}
// Inclusive time: a sample counts once for every distinct function on its stack.
const parentOf = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id)
const nameOf = (node: ProfileNode) => {
  const frame = node.callFrame
  const where = frame.url.replace(/^.*\/node_modules\//, "npm:").replace(/^file:\/\/.*?\/(?=[a-z]+\/)/, "")
  return `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`
}
const inclusive = new Map<string, number>()
for (const [id, n] of counts) {
  if (idleIds.has(id)) continue
  const seen = new Set<string>()
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) seen.add(nameOf(byNode.get(at)!))
  for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + n)
}
const print = (title: string, rows: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`)
  for (const [name, n] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(`${((100 * n) / total).toFixed(1).padStart(5)}%  ${name}\n`)
}
process.stdout.write(
  `${total} busy of ${profile.samples.length} samples over ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s\n`
)
print("self time by module", perFile)
print("self time by function", perFunction)
print(
  "inclusive time by function (own code and the HTTP layers)",
  new Map([...inclusive].filter(([name]) => !name.startsWith("(") && !/^(runLoop|evaluate|(anonymous)) /.test(name)))
)
