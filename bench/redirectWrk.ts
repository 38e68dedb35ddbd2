// npm run bench:redirect:wrk [-- --runs N]
// The redirect as users run it (`npm start`'s entry point in a child process,
// sample catalog ingested, links made through the API, TRUST_PROXY with the
// visitors spread over X-Forwarded-For: bench/support/redirectPair.ts) under
// Debian's `wrk`, a C load generator much cheaper than autocannon, so the
// server is the limit sooner. Against a bare node:http server answering the
// same 302, in the same run: BENCH_ROUNDS (3) alternating rounds of
// `wrk -t1 -c50 -d{BENCH_SECONDS:-10}s` after a 2 s warm-up of each; then p99
// at half our peak (the paced open-loop load of bench:redirect); every click
// answered must be written. Targets: >= 0.8x of bare, p99 < 5 ms at half peak.
// Needs `wrk` on the PATH (bench only: `apt-get install -y wrk`).
// BENCH_PROFILE=1 runs the service under --cpu-prof (the profile in
// data/var/bench-profile/, summarised by bench/support/cpuProfile.ts).
// BENCH_BASELINE_ROOT=<another checkout> also starts that checkout's main.ts
// (e.g. the code before a change; its node_modules beside it) and loads it in
// every round next to ours, in alternating order: its CPU per redirect by
// thread against ours in the same minutes, the comparison a loaded machine
// still allows (figures taken minutes apart differ more than most changes).
import { resolve } from "node:path"
import { machineLoad } from "./support/machineLoad.ts"
import { median } from "./support/redirectFixture.ts"
import {
  clicksWritten,
  halfPeakTrials,
  runsOption,
  settledWrittenClicks,
  startRedirectPair,
  tallyRuns,
  TARGET_RATIO,
  verdict
} from "./support/redirectPair.ts"
import { matchLinks, processCpuSeconds, startShippedService } from "./support/shippedService.ts"
import { perRequestUs, threadCpuSeconds } from "./support/threadCpu.ts"
import { runWrk, wrkInstalled } from "./support/wrk.ts"

const RUNS = runsOption()
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3))
const TRIALS = Math.max(1, Number(process.env.BENCH_TRIALS ?? 3))
const CONNECTIONS = 50
const LINKS = Number(process.env.BENCH_LINKS ?? 200)
const PROFILE_DIR = resolve("data/var/bench-profile")

if (!wrkInstalled()) {
  console.error("wrk is not installed: `apt-get install -y wrk` (Debian; bench only)")
  process.exit(1)
}

console.log(`bench:redirect:wrk on the shipped entry point; ${machineLoad()}`)
const nodeArgs = process.env.BENCH_PROFILE === "1" ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : []
const { service, ours, theirs, stop } = await startRedirectPair(LINKS, { nodeArgs })
const baselineRoot = process.env.BENCH_BASELINE_ROOT
let baseline: Awaited<ReturnType<typeof startShippedService>> | undefined
try {
  if (baselineRoot !== undefined) baseline = await startShippedService({}, 600_000, { root: resolve(baselineRoot) })
  const baselineTarget =
    baseline === undefined ? undefined : { ...ours, url: baseline.url, paths: await matchLinks(baseline.url, LINKS) }
  if (baseline !== undefined) console.log(`baseline service: ${baselineRoot}`)
  await runWrk({ ...theirs, connections: CONNECTIONS, seconds: 2 })
  await runWrk({ ...ours, connections: CONNECTIONS, seconds: 2 })
  if (baselineTarget !== undefined) await runWrk({ ...baselineTarget, connections: CONNECTIONS, seconds: 2 })
  /** One wrk round on a service: its req/s, CPU µs per redirect in all and by thread. */
  const serviceRound = async (pid: number, target: typeof ours) => {
    const cpuBefore = processCpuSeconds(pid)
    const threadsBefore = threadCpuSeconds(pid)
    const result = await runWrk({ ...target, connections: CONNECTIONS, seconds: SECONDS })
    const cpuUs = ((processCpuSeconds(pid) - cpuBefore) * 1e6) / Math.max(1, result.requests)
    return { result, cpuUs, threads: perRequestUs(threadsBefore, threadCpuSeconds(pid), result.requests) }
  }
  const passed = await tallyRuns(RUNS, async () => {
    const clicksBefore = await settledWrittenClicks(service)
    let answered = 0
    const bareRps: Array<number> = []
    const oursRps: Array<number> = []
    const cpuPerRequestUs: Array<number> = []
    const baselineCpuUs: Array<number> = []
    const bareCpuPerRequestUs: Array<number> = []
    /** Where the service's CPU per redirect went, per thread (µs), each round. */
    const threads: Array<string> = []
    for (let round = 1; round <= ROUNDS; round++) {
      // the bare server runs in this process (wrk in a child): its CPU is ours here
      const bareCpuBefore = process.cpuUsage()
      const b = await runWrk({ ...theirs, connections: CONNECTIONS, seconds: SECONDS })
      const bareCpu = process.cpuUsage(bareCpuBefore)
      const bareUs = (bareCpu.user + bareCpu.system) / Math.max(1, b.requests)
      bareCpuPerRequestUs.push(bareUs)
      bareRps.push(b.requestsPerSecond)
      const baselineRound = async () => {
        if (baseline === undefined || baselineTarget === undefined) return
        const r = await serviceRound(baseline.pid, baselineTarget)
        baselineCpuUs.push(r.cpuUs)
        console.log(
          `${`baseline (round ${round})`.padEnd(30)} ${r.result.requestsPerSecond.toFixed(0).padStart(7)} req/s  ` +
            `service CPU ${r.cpuUs.toFixed(1)} µs/req, by thread: ${r.threads}  (${machineLoad()})`
        )
      }
      if (round % 2 === 0) await baselineRound()
      const { result: o, cpuUs, threads: split } = await serviceRound(service.pid, ours)
      if (baseline !== undefined)
        console.log(`${`ours (round ${round})`.padEnd(30)} service CPU ${cpuUs.toFixed(1)} µs/req, by thread: ${split}`)
      if (round % 2 === 1) await baselineRound()
      threads.push(split)
      cpuPerRequestUs.push(cpuUs)
      oursRps.push(o.requestsPerSecond)
      answered += o.requests
      for (const [label, r, extra] of [
        ["bare node:http", b, `  bare CPU ${bareUs.toFixed(0)} µs/req`],
        ["GET /t/{id} + clicks", o, `  service CPU ${cpuUs.toFixed(0)} µs/req`]
      ] as const)
        console.log(
          `${`${label} (round ${round})`.padEnd(30)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  ` +
            `p50 ${r.p50Ms.toFixed(2)} ms  p99 ${r.p99Ms.toFixed(2)} ms  errors: ${r.errors}${extra}  (${machineLoad()})`
        )
    }
    const ratio = median(oursRps) / median(bareRps)
    console.log(
      `wrk -t1 -c${CONNECTIONS} -d${SECONDS}s (median of ${ROUNDS}): bare ${median(bareRps).toFixed(0)} req/s, ` +
        `ours ${median(oursRps).toFixed(0)} req/s, ratio ${ratio.toFixed(3)}x (target >= ${TARGET_RATIO}x) ` +
        `${verdict(ratio >= TARGET_RATIO)}; CPU per redirect: service ${median(cpuPerRequestUs).toFixed(0)} µs, ` +
        `bare ${median(bareCpuPerRequestUs).toFixed(0)} µs (bare/service ${(median(bareCpuPerRequestUs) / median(cpuPerRequestUs)).toFixed(2)}x, ` +
        `the throughput ratio a core each would give, whatever the load)`
    )
    threads.forEach((split, i) => console.log(`service CPU per redirect by thread (round ${i + 1}, µs): ${split}`))
    if (baselineCpuUs.length > 0)
      console.log(
        `CPU per redirect, same rounds: ours ${median(cpuPerRequestUs).toFixed(1)} µs, ` +
          `baseline ${median(baselineCpuUs).toFixed(1)} µs`
      )
    const rate = Math.max(1, Math.round(median(oursRps) / 2))
    const halfPeak = await halfPeakTrials({
      ours,
      theirs,
      rate,
      trials: TRIALS,
      seconds: SECONDS,
      connections: CONNECTIONS
    })
    // wrk counts every response it completed; the paced client only the 302s
    const clicksOk = await clicksWritten(service, clicksBefore, answered + halfPeak.answered)
    return ratio >= TARGET_RATIO && halfPeak.pass && clicksOk
  })
  if (passed < RUNS) process.exitCode = 1
} finally {
  await baseline?.stop()
  await stop()
  if (nodeArgs.length > 0) console.log(`CPU profile in ${PROFILE_DIR}: node bench/support/cpuProfile.ts <file>`)
}
