import { parseArgs } from "node:util"
import { machineLoad, stealMs, stealSince } from "./machineLoad.ts"
import { HEADERS, median, paths as barePaths, startBare } from "./redirectFixture.ts"
import { type LoadResult, runPaced } from "./runLoad.ts"
import { matchLinks, type ShippedOptions, startShippedService } from "./shippedService.ts"

// What bench:redirect and bench:redirect:wrk share: `npm start`'s entry point
// (shippedService) beside a bare node:http server answering the same 302 from
// a Map, links made through the API, the loads' visitors spread over
// X-Forwarded-For; the half-peak latency trials, the targets and the
// "k of N runs PASS" tally.

export const TARGET_RATIO = 0.8
export const TARGET_P99_MS = 5
export const verdict = (ok: boolean) => (ok ? "PASS" : "MISSED")

/** `--runs N` (default 1): how many times the whole measurement is repeated on the same service. */
export const runsOption = () => {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "1" } } })
  const runs = Number(values.runs)
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${values.runs}`)
  return runs
}

export interface LoadTarget {
  readonly url: string
  readonly paths: ReadonlyArray<string>
  readonly headers: Record<string, string>
  readonly spreadForwardedFor: true
}

export const startRedirectPair = async (links: number, options: ShippedOptions = {}) => {
  const bare = await startBare()
  const service = await startShippedService({}, 600_000, options)
  console.log(
    `service ready in ${service.readySeconds.toFixed(1)} s (fresh DATA_DIR, sample catalog ingested); ${machineLoad()}`
  )
  try {
    const paths = await matchLinks(service.url, links)
    console.log(`${paths.length} links made through the API`)
    const ours: LoadTarget = { url: service.url, paths, headers: HEADERS, spreadForwardedFor: true }
    const theirs: LoadTarget = { url: bare.url, paths: barePaths, headers: HEADERS, spreadForwardedFor: true }
    return {
      service,
      ours,
      theirs,
      stop: async () => {
        bare.server.close()
        await service.stop()
      }
    }
  } catch (error) {
    bare.server.close()
    await service.stop()
    throw error
  }
}

export const printLoad = (label: string, r: LoadResult, extra = "") =>
  console.log(
    `${label.padEnd(34)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${String(r.p50).padStart(5)} ms  ` +
      `p99 ${String(r.p99).padStart(6)} ms  p99.9 ${String(r.p999).padStart(6)} ms  302: ${r.s3xx}  other: ${r.s2xx + r.s4xx + r.s5xx}  ` +
      `errors: ${r.errors + r.timeouts}${extra}  (${machineLoad()})`
  )

/**
 * p99 at `rate` req/s (half our peak), an evenly paced open-loop load,
 * `trials` times on each server, alternating; the medians and the 302s we answered.
 */
export const halfPeakTrials = async (args: {
  readonly ours: LoadTarget
  readonly theirs: LoadTarget
  readonly rate: number
  readonly trials: number
  readonly seconds: number
  readonly connections: number
}) => {
  const p99s: Array<number> = []
  const bareP99s: Array<number> = []
  let answered = 0
  for (let trial = 1; trial <= args.trials; trial++) {
    const b = await runPaced({ ...args.theirs, connections: args.connections, seconds: args.seconds, rate: args.rate })
    bareP99s.push(b.p99)
    printLoad(`bare paced ${args.rate}/s (trial ${trial})`, b)
    const o = await runPaced({ ...args.ours, connections: args.connections, seconds: args.seconds, rate: args.rate })
    answered += o.s3xx
    p99s.push(o.p99)
    printLoad(`ours paced ${args.rate}/s (trial ${trial})`, o)
  }
  const p99 = median(p99s)
  console.log(
    `half peak (${args.rate}/s): p99 ours ${p99.toFixed(2)} ms (each ${p99s.join(", ")}), bare ${median(bareP99s).toFixed(2)} ms ` +
      `(target < ${TARGET_P99_MS} ms) ${verdict(p99 < TARGET_P99_MS)}`
  )
  return { pass: p99 < TARGET_P99_MS, answered }
}

/** How long the journal's background applies may take to catch up after a run. */
const CATCH_UP_MS = 10_000

/**
 * clicks_written_total once every click the service accepted is written (its
 * queue and journal backlog both empty), or after CATCH_UP_MS. Read before a
 * run, so the clicks of the warm-up or of the previous run that the journal's
 * background applies had not stored yet are not counted as this run's (read
 * at once, run 1 counted ~100k warm-up clicks: a loss in it would not show).
 */
export const settledWrittenClicks = async (service: { readonly metric: (name: string) => Promise<number> }) => {
  const started = performance.now()
  const pending = async () =>
    (await service.metric("click_queue_depth")) + (await service.metric("click_journal_backlog"))
  while ((await pending()) > 0 && performance.now() - started < CATCH_UP_MS) {
    await new Promise((done) => setTimeout(done, 250))
  }
  return service.metric("clicks_written_total")
}

/**
 * Every 302 answered since `before` (settledWrittenClicks) is written. The
 * count is read once the service has stored what it accepted: a fixed 2 s
 * wait once read a run 5,198 clicks short, and the next run as many over.
 * Written may exceed answered by the requests each load had in flight when
 * it stopped (answered by the service, not counted by the client).
 */
export const clicksWritten = async (
  service: { readonly metric: (name: string) => Promise<number> },
  before: number,
  answered: number
) => {
  const started = performance.now()
  const written = (await settledWrittenClicks(service)) - before
  const waited = ((performance.now() - started) / 1000).toFixed(1)
  console.log(
    `clicks: ${answered} redirects answered, ${written} written (${written - answered >= 0 ? "+" : ""}${written - answered}; ` +
      `settled after ${waited} s) ${verdict(written >= answered)}`
  )
  return written >= answered
}

/**
 * Runs `once` `runs` times and prints how many met every target, with the
 * hypervisor's steal in each run (a run that missed may have lost its CPUs).
 */
export const tallyRuns = async (runs: number, once: (run: number) => Promise<boolean>) => {
  let passed = 0
  const steals: Array<string> = []
  for (let run = 1; run <= runs; run++) {
    if (runs > 1) console.log(`\nrun ${run} of ${runs} (${machineLoad()})`)
    const stealBefore = stealMs()
    const ok = await once(run)
    if (ok) passed++
    const stolen = stealSince(stealBefore)
    if (stolen !== undefined) steals.push(`${stolen} ms (${ok ? "PASS" : "MISSED"})`)
  }
  console.log(`\n${passed} of ${runs} runs PASS (${machineLoad()})`)
  if (steals.length > 0) console.log(`the hypervisor's steal of this machine's CPU in each run: ${steals.join(", ")}`)
  return passed
}
