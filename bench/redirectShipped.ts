// npm run bench:redirect
// The redirect as users run it: `npm start`'s entry point in a child process
// (bench/support/shippedService.ts: the sample catalog ingested through the
// pipelines on its first start, links made through POST /api/v1/links/match,
// TRUST_PROXY with the load's visitors spread over X-Forwarded-For), against
// a bare node:http server answering the same 302 from a Map, measured in the
// same run, alternating. Prints with the machine load:
// - peak req/s of each (autocannon, BENCH_ROUNDS alternating rounds, median)
//   and the ratio (target >= 0.8x), with the service's CPU per request
//   (robust to the machine's load, unlike req/s);
// - p50/p99/p99.9 at half our peak (an evenly paced open-loop load), BENCH_TRIALS
//   trials of each server (target p99 < 5 ms);
// - every click answered is written (the service's clicks_written_total).
// BENCH_SECONDS (6) per phase, BENCH_CONNECTIONS (50), BENCH_LINKS (200).
// The crash phases (SIGTERM, SIGKILL under load) are bench:redirect:crash.
import { CHROME, HEADERS, median, paths as barePaths, startBare } from "./support/redirectFixture.ts"
import { machineLoad } from "./support/machineLoad.ts"
import { type LoadResult, runLoad, runPaced } from "./support/runLoad.ts"
import { matchLinks, processCpuSeconds, startShippedService } from "./support/shippedService.ts"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6)
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3))
const TRIALS = Math.max(1, Number(process.env.BENCH_TRIALS ?? 3))
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const LINKS = Number(process.env.BENCH_LINKS ?? 200)
const TARGET_RATIO = 0.8
const TARGET_P99_MS = 5

console.log(`bench:redirect on the shipped entry point; ${machineLoad()}; user agent ${CHROME.slice(0, 40)}...`)
const bare = await startBare()
const service = await startShippedService()
console.log(
  `service ready in ${service.readySeconds.toFixed(1)} s (fresh DATA_DIR, sample catalog ingested); ${machineLoad()}`
)
const metric = async (name: string) => {
  const text = await (
    await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${service.adminToken}` } })
  ).text()
  return Number(new RegExp(`^${name} ([\\d.e+-]+)$`, "m").exec(text)?.[1] ?? "NaN")
}
const line = (label: string, r: LoadResult, extra = "") =>
  console.log(
    `${label.padEnd(34)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${String(r.p50).padStart(5)} ms  ` +
      `p99 ${String(r.p99).padStart(6)} ms  p99.9 ${String(r.p999).padStart(6)} ms  302: ${r.s3xx}  other: ${r.s2xx + r.s4xx + r.s5xx}  ` +
      `errors: ${r.errors + r.timeouts}${extra}  (${machineLoad()})`
  )
const verdict = (ok: boolean) => (ok ? "PASS" : "MISSED")

try {
  const paths = await matchLinks(service.url, LINKS)
  console.log(`${paths.length} links made through the API; ${CONNECTIONS} connections, ${SECONDS} s per phase`)
  const ours = { url: service.url, paths, headers: HEADERS, spreadForwardedFor: true }
  const theirs = { url: bare.url, paths: barePaths, headers: HEADERS, spreadForwardedFor: true }
  // Warm-up: JIT, the link cache, sockets.
  await runLoad({ ...theirs, connections: CONNECTIONS, seconds: 2 })
  await runLoad({ ...ours, connections: CONNECTIONS, seconds: 3 })

  const clicksBefore = await metric("clicks_written_total")
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
    line(`bare node:http peak (round ${round})`, b, `  bare CPU ${bareUs.toFixed(0)} µs/req`)
    const cpuBefore = processCpuSeconds(service.pid)
    const o = await runLoad({ ...ours, connections: CONNECTIONS, seconds: SECONDS })
    const cpu = ((processCpuSeconds(service.pid) - cpuBefore) * 1e6) / Math.max(1, o.total)
    cpuPerRequestUs.push(cpu)
    answered += o.s3xx
    oursRps.push(o.requestsPerSecond)
    line(`GET /t/{id} peak (round ${round})`, o, `  service CPU ${cpu.toFixed(0)} µs/req`)
  }
  const ratio = median(oursRps) / median(bareRps)
  const rate = Math.max(1, Math.round(median(oursRps) / 2))
  const p99s: Array<number> = []
  const bareP99s: Array<number> = []
  for (let trial = 1; trial <= TRIALS; trial++) {
    const b = await runPaced({ ...theirs, connections: CONNECTIONS, seconds: SECONDS, rate })
    bareP99s.push(b.p99)
    line(`bare paced ${rate}/s (trial ${trial})`, b)
    const o = await runPaced({ ...ours, connections: CONNECTIONS, seconds: SECONDS, rate })
    answered += o.s3xx
    p99s.push(o.p99)
    line(`ours paced ${rate}/s (trial ${trial})`, o)
  }
  // The journal applies in the background: give it a moment to catch up before counting.
  await new Promise((done) => setTimeout(done, 2_000))
  const written = (await metric("clicks_written_total")) - clicksBefore
  console.log("")
  console.log(`summary (${machineLoad()})`)
  console.log(
    `peak: bare ${median(bareRps).toFixed(0)} req/s, ours ${median(oursRps).toFixed(0)} req/s, ratio ${ratio.toFixed(2)}x ` +
      `(target >= ${TARGET_RATIO}x) ${verdict(ratio >= TARGET_RATIO)}; CPU per request: service ${median(cpuPerRequestUs).toFixed(0)} µs, ` +
      `bare ${median(bareCpuPerRequestUs).toFixed(0)} µs (bare/service ${(median(bareCpuPerRequestUs) / median(cpuPerRequestUs)).toFixed(2)}x, ` +
      `the throughput ratio a core each would give, whatever the load)`
  )
  console.log(
    `half peak (${rate}/s): p99 ours ${median(p99s)} ms (each ${p99s.join(", ")}), bare ${median(bareP99s)} ms ` +
      `(target < ${TARGET_P99_MS} ms) ${verdict(median(p99s) < TARGET_P99_MS)}`
  )
  console.log(`clicks: ${answered} redirects answered, ${written} written ${verdict(written >= answered)}`)
} finally {
  bare.server.close()
  await service.stop()
}
