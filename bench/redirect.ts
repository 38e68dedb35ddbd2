// npm run bench:redirect
// Side by side on loopback, in one run: a bare node:http server answering the
// same 302 from a Map, and our GET /t/{id} with click logging on. Reports
// peak req/s of each and the ratio (target >= 0.6x), p99 latency at half of
// our peak rate (target < 5 ms; an evenly paced open-loop load, every request
// awaited), and checks that every click sent to us is in DuckDB afterwards. BENCH_SECONDS (default 10) sets each phase's length;
// BENCH_CONNECTIONS (default 50) the concurrency.
import { Effect } from "effect"
import { createServer } from "node:http"
import { ClickRecorder } from "../clicks/ClickRecorder.ts"
import { Database } from "../infra/Database.ts"
import { startBenchService } from "./support/benchService.ts"
import { type LoadResult, runLoad, runPaced } from "./support/runLoad.ts"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6)
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3))
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const LINKS = 1_000
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
const HEADERS = { "user-agent": CHROME, accept: "text/html" }

const ids = Array.from({ length: LINKS }, (_, i) => `bench${String(i).padStart(7, "0")}`)
const destination = (id: string, i: number) =>
  `https://www.awin1.com/cread.php?awinmid=1001&awinaffid=111111&clickref=${id}&ued=${encodeURIComponent(`https://shop.example/p/${i}`)}`

// ---- the baseline: node:http and a Map --------------------------------------
const table = new Map(ids.map((id, i) => [id, destination(id, i)]))
const bare = createServer((req, res) => {
  const id = (req.url ?? "").split("?", 1)[0].slice(3)
  const location = table.get(id)
  if (location === undefined) {
    res.writeHead(404).end()
    return
  }
  res.writeHead(302, { location, "cache-control": "private, no-store", "x-robots-tag": "noindex" }).end()
})
await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve))
const bareAddress = bare.address()
const bareUrl = `http://127.0.0.1:${typeof bareAddress === "object" && bareAddress !== null ? bareAddress.port : 0}`

// ---- ours: the whole service, links stored in DuckDB -------------------------
console.log("starting the service (DuckDB + Meilisearch) ...")
const service = await startBenchService("redirect")
await service.run(Effect.gen(function*() {
  const db = yield* Database
  yield* db.transaction((tx) =>
    tx.append("tracking_links", (appender) => {
      const now = Date.now()
      ids.forEach((id, i) => {
        appender.appendVarchar(id)
        appender.appendNull()
        appender.appendVarchar("bench")
        appender.appendVarchar(`https://shop.example/p/${i}`)
        appender.appendVarchar(`https://shop.example/p/${i}`)
        appender.appendVarchar(`https://shop.example/p/${i}`)
        appender.appendVarchar(destination(id, i))
        appender.appendVarchar("awin:1001")
        appender.appendVarchar("awin")
        appender.appendNull()
        appender.appendVarchar("match")
        appender.appendVarchar(new Date(now).toISOString())
        appender.endRow()
      })
    })
  )
}))

const paths = ids.map((id) => `/t/${id}`)
// Server CPU per answered request (this process: event loop plus DuckDB's
// threads), which unlike req/s does not depend on how much of the machine the
// load generator and other processes take.
const peak = async (label: string, url: string) => {
  const before = process.cpuUsage()
  const result = await runLoad({ url, paths, connections: CONNECTIONS, seconds: SECONDS, headers: HEADERS })
  const used = process.cpuUsage(before)
  const cpu = (used.user + used.system) / Math.max(1, result.total)
  report(`${label}`, result, cpu)
  return { ...result, cpu }
}
const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2
}
const paced = async (label: string, url: string, rate: number) => {
  const result = await runPaced({ url, paths, connections: CONNECTIONS, seconds: SECONDS, rate, headers: HEADERS })
  report(label, result)
  return result
}
const storedClicks = () =>
  service.run(Effect.gen(function*() {
    yield* (yield* ClickRecorder).flush
    const rows = yield* (yield* Database).query<{ n: number; bots: number }>(
      "SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE is_bot)::INTEGER AS bots FROM clicks"
    )
    return rows[0]
  }))
const report = (label: string, r: LoadResult, cpu?: number) =>
  console.log(
    `${label.padEnd(36)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${String(r.p50).padStart(5)} ms  p99 ${
      String(r.p99).padStart(6)
    } ms  302: ${r.s3xx}  other: ${r.s2xx + r.s4xx + r.s5xx}  errors: ${r.errors + r.timeouts}${
      cpu === undefined ? "" : `  server CPU ${cpu.toFixed(0)} µs/req`
    }`
  )

try {
  console.log(`${LINKS} links, ${CONNECTIONS} connections, ${SECONDS} s per phase, load generators in child processes`)
  // Warm-up: JIT, the link cache (first click per id reads DuckDB), sockets.
  await runLoad({ url: bareUrl, paths, connections: CONNECTIONS, seconds: 2, headers: HEADERS })
  // Ours gets longer: Effect's fiber machinery needs more calls before the JIT settles.
  const warm = await runLoad({ url: service.url, paths, connections: CONNECTIONS, seconds: 5, headers: HEADERS })

  const bareRuns: Array<Awaited<ReturnType<typeof peak>>> = []
  const oursRuns: Array<Awaited<ReturnType<typeof peak>>> = []
  for (let round = 1; round <= ROUNDS; round++) {
    bareRuns.push(await peak(`bare node:http (peak, round ${round})`, bareUrl))
    oursRuns.push(await peak(`GET /t/{id} + clicks (peak, round ${round})`, service.url))
  }
  const bareRps = median(bareRuns.map((r) => r.requestsPerSecond))
  const oursRps = median(oursRuns.map((r) => r.requestsPerSecond))
  const bareCpu = median(bareRuns.map((r) => r.cpu))
  const oursCpu = median(oursRuns.map((r) => r.cpu))
  // autocannon may stop counting requests still in flight at the end of a
  // phase that the server did answer (and record): rows >= counted answers.
  const afterPeak = await storedClicks()
  const answered = warm.s3xx + oursRuns.reduce((n, r) => n + r.s3xx, 0)
  const half = Math.max(1, Math.round(oursRps / 2))
  const oursHalf = await paced(`GET /t/{id} at ${half} req/s (half)`, service.url, half)
  const bareHalf = await paced(`bare node:http at ${half} req/s`, bareUrl, half)
  // The paced phase awaits every request: its clicks must match exactly.
  const afterPaced = await storedClicks()
  const pacedRows = afterPaced.n - afterPeak.n

  const metrics = await (await fetch(`${service.url}/metrics`)).text()
  const dropped = Number(/clicks_dropped_total (\d+)/.exec(metrics)?.[1] ?? "NaN")

  const ratio = oursRps / bareRps
  const clicksOk = afterPeak.n >= answered && pacedRows === oursHalf.s3xx && oursHalf.s3xx === oursHalf.total &&
    afterPaced.bots === 0 && dropped === 0
  console.log("")
  console.log(
    `throughput (median of ${ROUNDS}): bare ${bareRps.toFixed(0)} req/s, ours ${oursRps.toFixed(0)} req/s, ratio ${ratio.toFixed(2)}x ` +
      `(target >= 0.6x) ${ratio >= 0.6 ? "PASS" : "FAIL"}`
  )
  console.log(
    `server CPU per request: bare ${bareCpu.toFixed(0)} µs, ours ${oursCpu.toFixed(0)} µs ` +
      `(bare/ours ${(bareCpu / oursCpu).toFixed(2)}x: the throughput ratio on a machine where the server, not the client, is the limit)`
  )
  console.log(
    `p99 at half of our peak (${half} req/s): ${oursHalf.p99} ms (target < 5 ms) ${oursHalf.p99 < 5 ? "PASS" : "FAIL"}; ` +
      `bare node:http at the same rate: ${bareHalf.p99} ms`
  )
  console.log(
    `clicks: peak phases ${answered} answers counted by the client, ${afterPeak.n} rows; paced phase ${oursHalf.s3xx} redirects, ` +
      `${pacedRows} new rows; bots ${afterPaced.bots}; dropped ${dropped}: ${clicksOk ? "PASS" : "FAIL"}`
  )
  if (ratio < 0.6 || oursHalf.p99 >= 5 || !clicksOk) process.exitCode = 1
} finally {
  bare.close()
  await service.close()
  service.remove()
}
