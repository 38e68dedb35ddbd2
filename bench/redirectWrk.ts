// npm run bench:redirect:wrk
// The same 302 under Debian's `wrk` (a C load generator, much cheaper than
// autocannon, so the server is the limit sooner): bare node:http vs our
// GET /t/{id} with click logging, side by side in one run, alternating
// BENCH_ROUNDS (2) rounds of `wrk -t1 -c50 -d{BENCH_SECONDS:-10}s` on one link.
// Target: ours >= 0.7x of bare (median of the rounds). Needs `wrk` on the
// PATH (bench only: `apt-get install -y wrk`).
import { Effect, Option, Redacted } from "effect"
import { execFile, spawnSync } from "node:child_process"
import { loadavg } from "node:os"
import { ClickRecorder } from "../clicks/ClickRecorder.ts"
import { Database } from "../infra/Database.ts"
import { startBenchService } from "./support/benchService.ts"
import { CHROME, median, paths, seedLinks, startBare, startBenchMeili } from "./support/redirectFixture.ts"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2))
const TARGET_RATIO = 0.7

if (spawnSync("wrk", ["--version"]).error !== undefined) {
  console.error("wrk is not installed: `apt-get install -y wrk` (Debian; bench only)")
  process.exit(1)
}

interface WrkResult {
  readonly requestsPerSecond: number
  readonly requests: number
  readonly latency: string
  readonly errors: string
}

const wrk = (url: string, seconds: number) =>
  new Promise<WrkResult>((resolve, reject) => {
    const args = [
      "-t1",
      "-c50",
      `-d${seconds}s`,
      "--latency",
      "-H",
      `User-Agent: ${CHROME}`,
      "-H",
      "Accept: text/html",
      url
    ]
    execFile("wrk", args, (error, stdout) => {
      if (error) return reject(error)
      resolve({
        requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? "NaN"),
        requests: Number(/(\d+) requests in/.exec(stdout)?.[1] ?? "NaN"),
        latency: /Latency\s+(\S+)/.exec(stdout)?.[1] ?? "?",
        errors: /Socket errors:.*|Non-2xx or 3xx responses:.*/.exec(stdout)?.[0] ?? "none"
      })
    })
  })

const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`
console.log(`machine: ${load()}`)
const bare = await startBare()
const meili = await startBenchMeili("bench-redirect-wrk-meili")
const service = await startBenchService("redirect-wrk", {
  meiliUrl: Option.some(meili.url),
  meiliMasterKey: Option.some(Redacted.make(meili.key))
})
try {
  await service.run(seedLinks)
  const bareUrl = `${bare.url}${paths[0]}`
  const oursUrl = `${service.url}${paths[0]}`
  await wrk(bareUrl, 2)
  let oursRequests = (await wrk(oursUrl, 2)).requests
  const bareRps: Array<number> = []
  const oursRps: Array<number> = []
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [label, url, into] of [
      ["bare node:http", bareUrl, bareRps],
      ["GET /t/{id} + clicks", oursUrl, oursRps]
    ] as const) {
      const result = await wrk(url, SECONDS)
      into.push(result.requestsPerSecond)
      if (into === oursRps) oursRequests += result.requests
      console.log(
        `${`${label} (round ${round})`.padEnd(32)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s  mean latency ${result.latency}  errors: ${result.errors}`
      )
    }
  }
  const stored = await service.run(
    Effect.gen(function* () {
      yield* (yield* ClickRecorder).flush
      return (yield* (yield* Database).query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM clicks"))[0].n
    })
  )
  const ratio = median(oursRps) / median(bareRps)
  const clicksOk = stored >= oursRequests
  console.log("")
  console.log(`machine: ${load()}`)
  console.log(
    `wrk -t1 -c50 -d${SECONDS}s (median of ${ROUNDS}): bare ${median(bareRps).toFixed(0)} req/s, ours ${median(oursRps).toFixed(0)} req/s, ` +
      `ratio ${ratio.toFixed(2)}x (target >= ${TARGET_RATIO}x) ${ratio >= TARGET_RATIO ? "PASS" : "FAIL"}`
  )
  console.log(`clicks: ${oursRequests} answers counted by wrk, ${stored} rows stored ${clicksOk ? "PASS" : "FAIL"}`)
  if (ratio < TARGET_RATIO || !clicksOk) process.exitCode = 1
} finally {
  bare.server.close()
  await service.close()
  service.remove()
  await meili.close()
}
