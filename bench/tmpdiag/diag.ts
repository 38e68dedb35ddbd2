import { Effect } from "effect"
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks"
import { Session } from "node:inspector/promises"
import { writeFileSync } from "node:fs"
import { Database } from "../../infra/Database.ts"
import { startBenchService } from "../support/benchService.ts"
import { runLoad, runPaced } from "../support/runLoad.ts"

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
const HEADERS = { "user-agent": CHROME, accept: "text/html" }
const ids = Array.from({ length: 1000 }, (_, i) => `bench${String(i).padStart(7, "0")}`)
const service = await startBenchService("diag")
await service.run(Effect.gen(function*() {
  const db = yield* Database
  for (const [i, id] of ids.entries()) {
    yield* db.run(`INSERT INTO tracking_links VALUES ($1, NULL, 'bench', 'x', $1, 'x', $2, NULL, NULL, NULL, 'match', now())`, [id, `https://shop.example/p/${i}`])
  }
}))
const paths = ids.map((id) => `/t/${id}`)
await runLoad({ url: service.url, paths, connections: 50, seconds: 5, headers: HEADERS })
const gcs: Array<number> = []
const obs = new PerformanceObserver((list) => { for (const e of list.getEntries()) gcs.push(e.duration) })
obs.observe({ entryTypes: ["gc"] })
const h = monitorEventLoopDelay({ resolution: 1 })
const session = new Session(); session.connect()
const mode = process.env.DIAG_MODE ?? "eld"
if (mode === "prof") { await session.post("Profiler.enable"); await session.post("Profiler.start") }
h.enable()
const r = await runPaced({ url: service.url, paths, connections: 50, seconds: 8, rate: Number(process.env.RATE ?? 20000), headers: HEADERS })
h.disable()
obs.disconnect()
if (mode === "prof") { const { profile } = await session.post("Profiler.stop"); writeFileSync("/tmp/i12-paced.cpuprofile", JSON.stringify(profile)) }
console.log("paced", r)
const ms = (n: number) => (n / 1e6).toFixed(2)
console.log(`ELD ms: p50 ${ms(h.percentile(50))} p99 ${ms(h.percentile(99))} p99.9 ${ms(h.percentile(99.9))} max ${ms(h.max)} count ${h.count}`)
gcs.sort((a, b) => b - a)
console.log(`GC: n ${gcs.length} total ${gcs.reduce((a, b) => a + b, 0).toFixed(1)} ms, top ${gcs.slice(0, 8).map((x) => x.toFixed(1)).join(", ")}`)
await service.close(); service.remove()
