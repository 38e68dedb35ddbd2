import { Option, Redacted } from "effect"
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { startBenchService } from "../support/benchService.ts"
import { CHROME, paths, seedLinks, startBenchMeili } from "../support/redirectFixture.ts"
const meili = await startBenchMeili("data/var/diag-meili")
const service = await startBenchService("diag", { meiliUrl: Option.some(meili.url), meiliMasterKey: Option.some(Redacted.make(meili.key)) })
await service.run(seedLinks)
const p0 = process.cpuUsage(); const t0 = process.threadCpuUsage()
const out = (await promisify(execFile)("wrk", ["-t1", "-c50", "-d8s", "-H", `User-Agent: ${CHROME}`, `${service.url}${paths[0]}`])).stdout
const p = process.cpuUsage(p0); const t = process.threadCpuUsage(t0)
const total = Number(/(\d+) requests in/.exec(out)![1])
console.log("requests", total, "rps", /Requests\/sec:\s+(\S+)/.exec(out)![1], "process µs/req", ((p.user + p.system) / total).toFixed(1), "main µs/req", ((t.user + t.system) / total).toFixed(1))
const m = await (await fetch(`${service.url}/metrics`)).text()
console.log(m.split("\n").filter((l) => /^click|^clicks/.test(l)).join("\n"))
await new Promise((r) => setTimeout(r, 3000))
const m2 = await (await fetch(`${service.url}/metrics`)).text()
console.log(m2.split("\n").filter((l) => /^clicks_written|^click_flush_seconds|^click_queue_depth/.test(l)).join("\n"))
await service.close(); service.remove(); await meili.close()
