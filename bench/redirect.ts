// npm run bench:redirect:in-process (bench:redirect runs the shipped entry point: redirectShipped.ts)
// Side by side on loopback, in one run: a bare node:http server answering the
// same 302 from a Map, and our GET /t/{id} with click logging on. Prints, with
// PASS/FAIL against the targets:
// - peak req/s of each (median of BENCH_ROUNDS alternating rounds) and the
//   ratio (target >= 0.8x), plus server CPU per request (robust to load);
// - p50, p99 (target < 5 ms) and p99.9 at half of our peak rate (an evenly
//   paced open-loop load, every request awaited) in BENCH_TRIALS trials per
//   server, ours and bare alternating, each trial printed with where the time
//   went (phaseProbe: CPU per thread, GC, event-loop delay, time runnable
//   without a core, the machine's busiest processes; the load generator's own
//   CPU and waiting); medians, and the p99 ratio of each back-to-back pair;
// - every click answered is in DuckDB (peak and paced phases, no drops);
// - SIGTERM under load: `npm start` in a child process, 0 clicks lost;
// - SIGKILL under load: every click answered more than CRASH_WINDOW_MS before
//   the kill is stored (journal replay), and the measured loss.
// BENCH_SECONDS (default 6) sets each phase's length; BENCH_CONNECTIONS (50) the concurrency;
// BENCH_TRIALS (3) the paced trials of each server; BENCH_CRASH=0 skips the
// crash phases while iterating (the run then fails: they are part of the verdict).
import { Effect, Option, Redacted } from "effect"
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
import { describeProfile, type PhaseProfile, startProbe } from "./support/phaseProbe.ts"
import { type LoadResult, runLoad, runPaced } from "./support/runLoad.ts"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6)
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3))
const TRIALS = Math.max(1, Number(process.env.BENCH_TRIALS ?? 3))
const CRASH = process.env.BENCH_CRASH !== "0"
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
interface PacedTrial {
  readonly result: LoadResult
  readonly profile: PhaseProfile
  /** Seconds DuckDB spent applying journal segments during the trial, and how many applies. */
  readonly applySeconds: number
  readonly applies: number
}
const metric = (text: string, name: string) =>
  Number(new RegExp(`^${name} ([\\d.e+-]+)$`, "m").exec(text)?.[1] ?? "NaN")
const metricsText = async () =>
  (await fetch(`${service.url}/metrics`, { headers: { authorization: "Bearer test-admin-token" } })).text()
const paced = async (label: string, url: string, rate: number): Promise<PacedTrial> => {
  const metricsBefore = await metricsText()
  const probe = startProbe()
  const result = await runPaced({ url, paths, connections: CONNECTIONS, seconds: SECONDS, rate, headers: HEADERS })
  const profile = probe.stop()
  const metricsAfter = await metricsText()
  const delta = (name: string) => metric(metricsAfter, name) - metric(metricsBefore, name)
  const trial = {
    result,
    profile,
    applySeconds: delta("click_flush_seconds_total"),
    applies: delta("click_flushes_total")
  }
  report(label, result)
  console.log(
    `  ${describeProfile(profile)}; journal applies ${trial.applies} taking ${(trial.applySeconds * 1000).toFixed(0)} ms; ` +
      `load generator ${result.clientCores?.toFixed(2)} cores (${result.clientCpuPerRequestUs?.toFixed(1)} µs per request), ` +
      `its sends late by p50 ${result.sendLagP50Ms} ms, p99 ${result.sendLagP99Ms} ms, its event-loop delay p99 ${result.clientLoopP99Ms?.toFixed(1)} ms, ` +
      `max ${result.clientLoopMaxMs?.toFixed(1)} ms, it waited for a core ${result.clientRunQueueMs?.toFixed(0)} ms; ${load()}`
  )
  return trial
}
/** Medians over the trials. */
const summarize = (trials: ReadonlyArray<PacedTrial>) => ({
  p50: median(trials.map((t) => t.result.p50)),
  p99: median(trials.map((t) => t.result.p99)),
  p999: median(trials.map((t) => t.result.p999)),
  each: trials.map((t) => `${t.result.p99}/${t.result.p999}`).join(", ")
})
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
  // Paced trials at half our peak, ours and bare alternating (which goes
  // first alternates too), each with the same probe of this process.
  const oursTrials: Array<PacedTrial> = []
  const bareTrials: Array<PacedTrial> = []
  for (let trial = 1; trial <= TRIALS; trial++) {
    const runOurs = async () =>
      oursTrials.push(await paced(`GET /t/{id} at ${half} req/s (trial ${trial})`, service.url, half))
    const runBare = async () =>
      bareTrials.push(await paced(`bare node:http at ${half} req/s (trial ${trial})`, bare.url, half))
    if (trial % 2 === 1) {
      await runOurs()
      await runBare()
    } else {
      await runBare()
      await runOurs()
    }
  }
  const oursHalf = summarize(oursTrials)
  const bareHalf = summarize(bareTrials)
  // The paced phases await every request: their clicks must match exactly.
  const afterPaced = await storedClicks()
  const pacedRows = afterPaced.n - afterPeak.n
  const pacedAnswered = oursTrials.reduce((n, t) => n + t.result.s3xx, 0)
  const pacedTotal = oursTrials.reduce((n, t) => n + t.result.total, 0)

  const dropped = metric(await metricsText(), "clicks_dropped_total")
  await service.close()
  service.remove()

  console.log(
    "crash phases: `npm start` in a child process under a click load, then a signal; restarted on the same DATA_DIR ..."
  )
  const term = CRASH ? await crashUnderLoad({ signal: "SIGTERM", seconds: 3, windowMs: 0, meili }) : undefined
  const kill = CRASH
    ? await crashUnderLoad({ signal: "SIGKILL", seconds: 3, windowMs: CRASH_WINDOW_MS, meili })
    : undefined

  const ratio = oursRps / bareRps
  const clicksOk =
    afterPeak.n >= answered &&
    pacedRows === pacedAnswered &&
    pacedAnswered === pacedTotal &&
    afterPaced.bots === 0 &&
    dropped === 0
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
    `p99 at half of our peak (${half} req/s, median of ${TRIALS} trials): ${oursHalf.p99} ms (target < ${TARGET_P99_MS} ms) ` +
      `${verdict(oursHalf.p99 < TARGET_P99_MS)}; p50 ${oursHalf.p50} ms, p99.9 ${oursHalf.p999} ms (p99/p99.9 per trial: ${oursHalf.each}); ` +
      `bare node:http at the same rate: p50 ${bareHalf.p50} ms, p99 ${bareHalf.p99} ms, p99.9 ${bareHalf.p999} ms (${bareHalf.each})`
  )
  // Each trial pair ran back to back, so their ratio cancels most of what
  // other processes did to the machine at the time.
  const pairRatios = oursTrials.map((t, i) => t.result.p99 / bareTrials[i].result.p99)
  const waitPerSecond = (trials: ReadonlyArray<PacedTrial>) =>
    median(trials.map((t) => t.profile.loopRunQueueMs / t.profile.seconds)).toFixed(0)
  console.log(
    `p99 ours/bare per trial pair: ${pairRatios.map((r) => r.toFixed(2)).join(", ")} (median ${median(pairRatios).toFixed(2)}); ` +
      `event loop waiting for a core (median ms per s): ours ${waitPerSecond(oursTrials)}, bare ${waitPerSecond(bareTrials)}`
  )
  console.log(
    `clicks: peak phases ${answered} answers counted by the client, ${afterPeak.n} rows; paced phases ${pacedAnswered} redirects, ` +
      `${pacedRows} new rows; bots ${afterPaced.bots}; dropped ${dropped}: ${verdict(clicksOk)}`
  )
  const termOk = term !== undefined && term.answered > 0 && term.lost === 0 && term.duplicates === 0
  const killOk = kill !== undefined && kill.answered > 0 && kill.lostBeforeWindow === 0 && kill.duplicates === 0
  if (term === undefined || kill === undefined) console.log("crash phases skipped (BENCH_CRASH=0): FAIL")
  else {
    console.log(
      `SIGTERM under load: ${term.answered} clicks answered, ${term.lost} lost, ${term.duplicates} stored twice (target 0 lost) ${verdict(termOk)}`
    )
    console.log(
      `SIGKILL under load: N = ${CRASH_WINDOW_MS} ms; ${kill.answered} clicks answered, ${kill.lost} lost ` +
        `(all answered within the last ${kill.oldestLostMs} ms before the kill), ${kill.lostBeforeWindow} lost older than N, ` +
        `${kill.duplicates} stored twice ${verdict(killOk)}`
    )
  }
  if (ratio < TARGET_RATIO || oursHalf.p99 >= TARGET_P99_MS || !clicksOk || !termOk || !killOk) process.exitCode = 1
} finally {
  bare.server.close()
  await service.close().catch(() => undefined)
  service.remove()
  await meili.close()
}
