import { Effect, Option, Redacted } from "effect"
import { Session } from "node:inspector/promises"
import { writeFileSync } from "node:fs"
import { startBenchService } from "../support/benchService.ts"
import { HEADERS, paths, seedLinks, startBare, startBenchMeili } from "../support/redirectFixture.ts"
import { runLoad } from "../support/runLoad.ts"
const meili = await startBenchMeili("data/var/diag-meili")
const bare = await startBare()
const service = await startBenchService("diag", { meiliUrl: Option.some(meili.url), meiliMasterKey: Option.some(Redacted.make(meili.key)) })
await service.run(seedLinks)
await runLoad({ url: service.url, paths, connections: 50, seconds: 3, headers: HEADERS })
const session = new Session(); session.connect()
for (const [label, url] of [["bare", bare.url], ["ours", service.url], ["bare", bare.url], ["ours", service.url]]) {
  if (process.env.PROF && label === "ours") { await session.post("Profiler.enable"); await session.post("Profiler.start") }
  const p0 = process.cpuUsage(); const t0 = process.threadCpuUsage()
  const r = await runLoad({ url, paths, connections: 50, seconds: 5, headers: HEADERS })
  const p = process.cpuUsage(p0); const t = process.threadCpuUsage(t0)
  if (process.env.PROF && label === "ours") { const { profile } = await session.post("Profiler.stop"); writeFileSync("/tmp/i12-peak.cpuprofile", JSON.stringify(profile)) }
  console.log(label, Math.round(r.requestsPerSecond), "process µs/req", ((p.user + p.system) / r.total).toFixed(1), "main thread µs/req", ((t.user + t.system) / r.total).toFixed(1))
}
await service.close(); service.remove(); bare.server.close(); await meili.close()
