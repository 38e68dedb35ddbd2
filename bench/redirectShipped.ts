// npm run bench:redirect [-- --runs N]
// The redirect as users run it: `npm start`'s entry point in a child process
// (bench/support/shippedService.ts: the sample catalog ingested through the
// pipelines on its first start, links made through POST /api/v1/links/match,
// TRUST_PROXY with the load's visitors spread over X-Forwarded-For), against
// a bare node:http server answering the same 302 from a Map, measured in the
// same run, alternating. Prints with the machine load:
// - peak req/s of each (autocannon, BENCH_ROUNDS alternating rounds, median)
//   and the ratio (target >= 0.8x), with the service's CPU per request
//   (robust to the machine's load, unlike req/s) in all and by thread;
// - p50/p99/p99.9 at half our peak (an evenly paced open-loop load), BENCH_TRIALS
//   trials of each server (target p99 < 5 ms);
// - every click answered is written (the service's clicks_written_total).
// --runs N repeats all of it on the same service and prints "k of N runs PASS".
// BENCH_SECONDS (6) per phase, BENCH_CONNECTIONS (50), BENCH_LINKS (200).
// The crash phases (SIGTERM, SIGKILL under load) are bench:redirect:in-process.
import { CHROME, median } from "./support/redirectFixture.ts"
import { machineLoad } from "./support/machineLoad.ts"
import { runLoad } from "./support/runLoad.ts"
import {
  clicksWritten,
  halfPeakTrials,
  printLoad,
  runsOption,
  settledWrittenClicks,
  startRedirectPair,
  tallyRuns,
  TARGET_RATIO,
  verdict
} from "./support/redirectPair.ts"
import { processCpuSeconds } from "./support/shippedService.ts"
import { perRequestUs, threadCpuSeconds } from "./support/threadCpu.ts"

const RUNS = runsOption()
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6)
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3))
const TRIALS = Math.max(1, Number(process.env.BENCH_TRIALS ?? 3))
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const LINKS = Number(process.env.BENCH_LINKS ?? 200)

console.log(`bench:redirect on the shipped entry point; ${machineLoad()}; user agent ${CHROME.slice(0, 40)}...`)
const { service, ours, theirs, stop } = await startRedirectPair(LINKS)

try {
  console.log(`${CONNECTIONS} connections, ${SECONDS} s per phase`)
  // Warm-up: JIT, the link cache, sockets.
  await runLoad({ ...theirs, connections: CONNECTIONS, seconds: 2 })
  await runLoad({ ...ours, connections: CONNECTIONS, seconds: 3 })

  const passed = await tallyRuns(RUNS, async () => {
    const clicksBefore = await settledWrittenClicks(service)
    let answered = 0
    const bareRps: Array<number> = []
    const oursRps: Array<number> = []
    const cpuPerRequestUs: Array<number> = []
    const bareCpuPerRequestUs: Array<number> = []
    for (let round = 1; round <= ROUNDS; round++) {
      // the bare server runs in this process (the load generators in children): its CPU is ours here
      const bareCpuBefore = process.cpuUsage()
      const b = await runLoad({ ...theirs, connections: CONNECTIONS, seconds: SECONDS })
      const bareCpu = process.cpuUsage(bareCpuBefore)
      const bareUs = (bareCpu.user + bareCpu.system) / Math.max(1, b.total)
      bareCpuPerRequestUs.push(bareUs)
      bareRps.push(b.requestsPerSecond)
      printLoad(`bare node:http peak (round ${round})`, b, `  bare CPU ${bareUs.toFixed(0)} µs/req`)
      const cpuBefore = processCpuSeconds(service.pid)
      const threadsBefore = threadCpuSeconds(service.pid)
      const o = await runLoad({ ...ours, connections: CONNECTIONS, seconds: SECONDS })
      const cpu = ((processCpuSeconds(service.pid) - cpuBefore) * 1e6) / Math.max(1, o.total)
      const byThread = perRequestUs(threadsBefore, threadCpuSeconds(service.pid), o.total)
      cpuPerRequestUs.push(cpu)
      answered += o.s3xx
      oursRps.push(o.requestsPerSecond)
      printLoad(`GET /t/{id} peak (round ${round})`, o, `  service CPU ${cpu.toFixed(0)} µs/req (${byThread})`)
    }
    const ratio = median(oursRps) / median(bareRps)
    const rate = Math.max(1, Math.round(median(oursRps) / 2))
    console.log(
      `peak: bare ${median(bareRps).toFixed(0)} req/s, ours ${median(oursRps).toFixed(0)} req/s, ratio ${ratio.toFixed(3)}x ` +
        `(target >= ${TARGET_RATIO}x) ${verdict(ratio >= TARGET_RATIO)}; CPU per request: service ${median(cpuPerRequestUs).toFixed(0)} µs, ` +
        `bare ${median(bareCpuPerRequestUs).toFixed(0)} µs (bare/service ${(median(bareCpuPerRequestUs) / median(cpuPerRequestUs)).toFixed(2)}x, ` +
        `the throughput ratio a core each would give, whatever the load)`
    )
    const halfPeak = await halfPeakTrials({
      ours,
      theirs,
      rate,
      trials: TRIALS,
      seconds: SECONDS,
      connections: CONNECTIONS
    })
    const clicksOk = await clicksWritten(service, clicksBefore, answered + halfPeak.answered)
    return ratio >= TARGET_RATIO && halfPeak.pass && clicksOk
  })
  if (passed < RUNS) process.exitCode = 1
} finally {
  await stop()
}
