// npm run bench:redirect
// Side by side on loopback, in one run: a bare node:http server answering the
// same 302 from a Map, and our GET /t/{id} with click logging on. Prints, with
// PASS/FAIL against the targets:
// - peak req/s of each (median of BENCH_ROUNDS alternating rounds) and the
//   ratio (target >= 0.8x), plus server CPU per request (robust to load);
// - p99 (target < 5 ms) and p99.9 at half of our peak rate (an evenly paced
//   open-loop load, every request awaited), bare node at the same rate, and
//   this process's event-loop delay during our paced phase;
// - every click answered is in DuckDB (peak and paced phases, no drops);
// - SIGTERM under load: `npm start` in a child process, 0 clicks lost;
// - SIGKILL under load: every click answered more than CRASH_WINDOW_MS before
//   the kill is stored (journal replay), and the measured loss.
// BENCH_SECONDS (default 6) sets each phase's length; BENCH_CONNECTIONS (50) the concurrency.
import { Effect, Option, Redacted } from "effect"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { uptime, loadavg } from "node:os"
import { ClickRecorder, CRASH_WINDOW_MS } from "../clicks/ClickRecorder.ts"
import { Database } from "../infra/Database.ts"
import { startBenchService } from "./support/benchService.ts"
import {
  crashUnderLoad,
  HEADERS,
  LINKS,
  median,
  paths,
  seedLinks,
  startBare,
  startBenchMeili
} from "./support/redirectFixture.ts"
import { type LoadResult, runLoad, runPaced } from "./support/runLoad.ts"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6)
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3))
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const TARGET_RATIO = 0.8
const TARGET_P99_MS = 5

const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} (${Math.round(uptime() / 60)} min up)`
console.log(`machine: ${load()}`)
const bare = await startBare()
console.log("starting Meilisearch and the service (DuckDB) ...")
const meili = await startBenchMeili("bench-redirect-meili")
const service = await startBenchService("redirect", {
  meiliUrl: Option.some(meili.url),
  meiliMasterKey: Option.some(Redacted.make(meili.key))
})
await service.run(seedLinks)

// Server CPU per answered request (this process: event loop, click worker and
// DuckDB's threads), which unlike req/s does not depend on how much of the
// machine the load generator and other processes take.
const peak = async (label: string, url: string) => {
  const before = process.cpuUsage()
  const loopBefore = process.threadCpuUsage()
  const result = await runLoad({ url, paths, connections: CONNECTIONS, seconds: SECONDS, headers: HEADERS })
  const used = process.cpuUsage(before)
  const loopUsed = process.threadCpuUsage(loopBefore)
  const cpu = (used.user + used.system) / Math.max(1, result.total)
  const loopCpu = (loopUsed.user + loopUsed.system) / Math.max(1, result.total)
  report(label, result, cpu, loopCpu)
  return { ...result, cpu, loopCpu }
}
const paced = async (label: string, url: string, rate: number) => {
  const result = await runPaced({ url, paths, connections: CONNECTIONS, seconds: SECONDS, rate, headers: HEADERS })
  report(label, result)
  return result
}
const storedClicks = () =>
  service.run(
    Effect.gen(function* () {
      yield* (yield* ClickRecorder).flush
      const rows = yield* (yield* Database).query<{ n: number; bots: number }>(
        "SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE is_bot)::INTEGER AS bots FROM clicks"
      )
      return rows[0]
    })
  )
const report = (label: string, r: LoadResult, cpu?: number, loopCpu?: number) =>
  console.log(
    `${label.padEnd(36)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${String(r.p50).padStart(5)} ms  p99 ${String(
      r.p99
    ).padStart(
      6
    )} ms  p99.9 ${String(r.p999).padStart(6)} ms  302: ${r.s3xx}  other: ${r.s2xx + r.s4xx + r.s5xx}  errors: ${r.errors + r.timeouts}${
      cpu === undefined ? "" : `  server CPU ${cpu.toFixed(0)} µs/req (event loop ${loopCpu?.toFixed(0)})`
    }`
  )
const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL")

try {
  console.log(`${LINKS} links, ${CONNECTIONS} connections, ${SECONDS} s per phase, load generators in child processes`)
  // Warm-up: JIT, the link cache (first click per id reads DuckDB), sockets.
  await runLoad({ url: bare.url, paths, connections: CONNECTIONS, seconds: 2, headers: HEADERS })
  const warm = await runLoad({ url: service.url, paths, connections: CONNECTIONS, seconds: 3, headers: HEADERS })

  const bareRuns: Array<Awaited<ReturnType<typeof peak>>> = []
  const oursRuns: Array<Awaited<ReturnType<typeof peak>>> = []
  for (let round = 1; round <= ROUNDS; round++) {
    bareRuns.push(await peak(`bare node:http (peak, round ${round})`, bare.url))
    oursRuns.push(await peak(`GET /t/{id} + clicks (peak, round ${round})`, service.url))
  }
  const bareRps = median(bareRuns.map((r) => r.requestsPerSecond))
  const oursRps = median(oursRuns.map((r) => r.requestsPerSecond))
  const bareCpu = median(bareRuns.map((r) => r.cpu))
  const oursCpu = median(oursRuns.map((r) => r.cpu))
  const bareLoop = median(bareRuns.map((r) => r.loopCpu))
  const oursLoop = median(oursRuns.map((r) => r.loopCpu))
  // autocannon may stop counting requests still in flight at the end of a
  // phase that the server did answer (and record): rows >= counted answers.
  const afterPeak = await storedClicks()
  const answered = warm.s3xx + oursRuns.reduce((n, r) => n + r.s3xx, 0)
  const half = Math.max(1, Math.round(oursRps / 2))
  const delay = monitorEventLoopDelay({ resolution: 1 })
  delay.enable()
  const oursHalf = await paced(`GET /t/{id} at ${half} req/s (half)`, service.url, half)
  delay.disable()
  const bareHalf = await paced(`bare node:http at ${half} req/s`, bare.url, half)
  // The paced phase awaits every request: its clicks must match exactly.
  const afterPaced = await storedClicks()
  const pacedRows = afterPaced.n - afterPeak.n

  const metrics = await (await fetch(`${service.url}/metrics`)).text()
  const dropped = Number(/clicks_dropped_total (\d+)/.exec(metrics)?.[1] ?? "NaN")
  await service.close()
  service.remove()

  console.log(
    "crash phases: `npm start` in a child process under a click load, then a signal; restarted on the same DATA_DIR ..."
  )
  const term = await crashUnderLoad({ signal: "SIGTERM", seconds: 3, windowMs: 0, meili })
  const kill = await crashUnderLoad({ signal: "SIGKILL", seconds: 3, windowMs: CRASH_WINDOW_MS, meili })

  const ratio = oursRps / bareRps
  const clicksOk =
    afterPeak.n >= answered &&
    pacedRows === oursHalf.s3xx &&
    oursHalf.s3xx === oursHalf.total &&
    afterPaced.bots === 0 &&
    dropped === 0
  const ms = (ns: number) => (ns / 1e6).toFixed(1)
  console.log("")
  console.log(`machine: ${load()}`)
  console.log(
    `throughput (median of ${ROUNDS}): bare ${bareRps.toFixed(0)} req/s, ours ${oursRps.toFixed(0)} req/s, ratio ${ratio.toFixed(2)}x ` +
      `(target >= ${TARGET_RATIO}x) ${verdict(ratio >= TARGET_RATIO)}`
  )
  console.log(
    `server CPU per request: bare ${bareCpu.toFixed(0)} µs, ours ${oursCpu.toFixed(0)} µs ` +
      `(bare/ours ${(bareCpu / oursCpu).toFixed(2)}x: the throughput ratio on a machine where the server, not the client, is the limit); ` +
      `event loop alone: bare ${bareLoop.toFixed(1)} µs, ours ${oursLoop.toFixed(1)} µs (the rest of ours is the click worker and DuckDB)`
  )
  console.log(
    `p99 at half of our peak (${half} req/s): ${oursHalf.p99} ms (target < ${TARGET_P99_MS} ms) ${verdict(oursHalf.p99 < TARGET_P99_MS)}; ` +
      `p99.9 ${oursHalf.p999} ms; bare node:http at the same rate: p99 ${bareHalf.p99} ms, p99.9 ${bareHalf.p999} ms`
  )
  console.log(
    `event-loop delay during our paced phase: p50 ${ms(delay.percentile(50))} ms, p99 ${ms(delay.percentile(99))} ms, ` +
      `p99.9 ${ms(delay.percentile(99.9))} ms, max ${ms(delay.max)} ms`
  )
  console.log(
    `clicks: peak phases ${answered} answers counted by the client, ${afterPeak.n} rows; paced phase ${oursHalf.s3xx} redirects, ` +
      `${pacedRows} new rows; bots ${afterPaced.bots}; dropped ${dropped}: ${verdict(clicksOk)}`
  )
  const termOk = term.answered > 0 && term.lost === 0 && term.duplicates === 0
  console.log(
    `SIGTERM under load: ${term.answered} clicks answered, ${term.lost} lost, ${term.duplicates} stored twice (target 0 lost) ${verdict(termOk)}`
  )
  const killOk = kill.answered > 0 && kill.lostBeforeWindow === 0 && kill.duplicates === 0
  console.log(
    `SIGKILL under load: N = ${CRASH_WINDOW_MS} ms; ${kill.answered} clicks answered, ${kill.lost} lost ` +
      `(all answered within the last ${kill.oldestLostMs} ms before the kill), ${kill.lostBeforeWindow} lost older than N, ` +
      `${kill.duplicates} stored twice ${verdict(killOk)}`
  )
  if (ratio < TARGET_RATIO || oursHalf.p99 >= TARGET_P99_MS || !clicksOk || !termOk || !killOk) process.exitCode = 1
} finally {
  bare.server.close()
  await service.close().catch(() => undefined)
  service.remove()
  await meili.close()
}
