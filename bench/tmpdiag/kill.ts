import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { startClickTrail } from "../../test/support/clickTrail.ts"
import { startServerProcess } from "../../test/support/serverProcess.ts"
const dir = process.argv[2]
const server = await startServerProcess({ DATA_DIR: dir, MEILI_URL: "http://127.0.0.1:1", MEILI_MASTER_KEY: "x" })
const trail = startClickTrail({ url: server.url, path: `/t/CRASHLINK001`, connections: 16, userAgent: "Mozilla/5.0 Chrome" })
await new Promise((r) => setTimeout(r, 1500))
const killedAt = Date.now()
server.child.kill("SIGKILL")
await server.exited
await trail.stop()
const answered = trail.answeredAt.flatMap((at, n) => at === undefined ? [] : [n])
console.log("answered", answered.length, "sent", trail.sent())
const files = readdirSync(join(dir, "click-journal"))
const nums = new Set<number>()
for (const f of files) for (const line of readFileSync(join(dir, "click-journal", f), "utf8").split("\n")) if (line) nums.add(Number(JSON.parse(line).r.split("/").pop()))
console.log("files", files, "journal rows", nums.size)
const missing = answered.filter((n) => !nums.has(n))
console.log("missing from journal", missing.length, missing.slice(0, 10), missing.slice(-5), "ages", missing.slice(0,5).map(n => killedAt - trail.answeredAt[n]))
console.log(server.output().slice(0, 2000))
