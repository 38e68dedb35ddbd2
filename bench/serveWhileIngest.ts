// npm run bench:serve-while-ingest -- [--products 1000000] [--window 5] [--pace 0.5] [--mix both|redirects]
//                                      [--rates REDIRECTS,SEARCHES] [--format gmc-tsv|gmc-xml] [--profile]
//
// A ROLE=all service as users run it (the shipped entry point in a child
// process, bench/support/shippedService.ts, DUCKDB_MEMORY_LIMIT=1GB) serves
// redirects and searches at half its peak (together: a quarter of each
// one's own peak, see `rates` below) while a large generated product
// feed (bench/support/pipelineCatalog.ts) ingests and syncs into its search
// index. In one run:
//   1. the peak of redirects and of /api/search, each alone (autocannon; the
//      best of 3 trials of 2 s, alternated, each printed);
//   2. two baseline windows at that pace, no feed running;
//   3. the feed's run (manual ingest through /admin/ingest) under the same
//      paced load, in back-to-back windows until the run is over.
// The baseline, in the same run: every other window (from the second
// baseline window on) sends its paced redirects to a bare node:http server
// answering the same 302 from a Map, in this process, instead of the service,
// at the same pace, while the service goes on searching and running the
// feed: its worst window is what this machine allows any 302 meanwhile.
// Measured on the service: event-loop lateness (its /metrics: the share of
// samples over 10 ms, and the largest), redirect p99 per window, 5xx and
// errors, and the peak RSS of the service process (/proc; Meilisearch is a
// process of its own, not counted: its peak RSS is printed beside), each
// window's with what the service's /metrics names of it (V8's heaps, DuckDB's
// accounting) and what it leaves unnamed. Prints PASS/MISSED against the targets,
// every figure with the machine's load and the catalog size. Each window
// also prints what explains its latencies: the share of it the event loop
// ran and waited for a core, the CPU of the service process and of its
// Meilisearch, and the hypervisor's steal.
// `--mix redirects` sends no searches at all (peaks and windows), the
// redirects at the same rate as in a mixed run: what the searches cost the
// redirects while a feed runs. `--rates 6000,110` paces the windows at those
// redirects and searches a second instead of a share of the peaks (which are
// still measured and printed): a machine whose speed swings from run to run
// sets another pace each run, and the serving load moves the RSS too, so
// runs that compare a change pin it. `--format gmc-xml` writes and runs the
// feed as a Google Merchant RSS file instead of TSV (its items are scanned by
// the service, where a TSV feed is read by DuckDB). `--profile` writes a V8
// CPU profile of the service (data/var/bench-serve-while-ingest/profile/) to
// find what held its event loop.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { HEADERS, paths as barePaths, startBare } from "./support/redirectFixture.ts"
import { machineLoad, stealMs, stealSince } from "./support/machineLoad.ts"
import { BENCH_FEED, benchFeedFile } from "./support/pipelineCatalog.ts"
import { onCpuNs, runQueueWaitNs } from "./support/phaseProbe.ts"
import { type LoadResult, runLoad, runPaced } from "./support/runLoad.ts"
import { statusBytes } from "../infra/ProcessInfo.ts"
import { matchLinks, processCpuSeconds, startShippedService } from "./support/shippedService.ts"

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "1000000" },
    window: { type: "string", default: "5" },
    connections: { type: "string", default: "32" },
    pace: { type: "string", default: "0.5" },
    mix: { type: "string", default: "both" },
    rates: { type: "string" },
    format: { type: "string", default: "gmc-tsv" },
    // a V8 CPU profile of the service (PROFILE_DIR/*.cpuprofile), written when it stops
    profile: { type: "boolean", default: false }
  }
})
const PRODUCTS = Number(values.products)
const FORMAT = values.format
if (FORMAT !== "gmc-tsv" && FORMAT !== "gmc-xml") throw new Error(`--format must be gmc-tsv or gmc-xml, got ${FORMAT}`)
const WINDOW_SECONDS = Number(values.window)
const CONNECTIONS = Number(values.connections)
/** The share of the machine both paced loads ask for together, split evenly between them. */
const PACE = Number(values.pace)
if (!(PACE > 0 && PACE <= 1)) throw new Error(`--pace must be a share of the machine in (0, 1], got ${values.pace}`)
if (values.mix !== "both" && values.mix !== "redirects")
  throw new Error(`--mix must be both or redirects, got ${values.mix}`)
/** Whether the service serves searches beside the redirects (--mix both). */
const WITH_SEARCHES = values.mix === "both"
/** The paced rates given (--rates), instead of shares of the peaks. */
const PINNED = values.rates?.split(",").map(Number)
if (PINNED !== undefined && !(PINNED.length === 2 && PINNED.every((rate) => Number.isInteger(rate) && rate >= 0)))
  throw new Error(`--rates must be two whole numbers, redirects and searches a second, got ${values.rates}`)
/** Each peak is the best of this many trials of PEAK_TRIAL_SECONDS (see 1. below). */
const PEAK_TRIALS = 3
const PEAK_TRIAL_SECONDS = 2
const SEARCHES = ["headphones", "laptop", "coffee machine", "monitor under 300", "vacuum", "phone case", "speaker"]
const TARGETS = { loopP99Ms: 10, loopMaxMs: 50, redirectP99Ms: 10, peakRssMb: 1536 }
const size = `${PRODUCTS.toLocaleString()} products (${FORMAT})`
const log = (line: string) => console.log(line)
const verdict = (ok: boolean) => (ok ? "PASS" : "MISSED")

/** The service's event-loop figures from its /metrics (infra/eventLoopDelay.ts). */
interface LoopScrape {
  readonly buckets: ReadonlyMap<string, number>
  readonly recentMaxMs: number
  /** The main thread's V8 heap (committed: its part of the RSS) and external memory (MB). */
  readonly nodeMb: number
  /** DuckDB's own accounting, all tags (MB; sampled by the service every few seconds, infra/MemoryGauges.ts). */
  readonly duckdbMb: number
  /** The V8 heaps of the worker threads, committed (MB; sampled likewise). */
  readonly workersMb: number
}
const scrapeLoop = async (url: string, token: string): Promise<LoopScrape | undefined> => {
  const text = await fetch(`${url}/metrics`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(10_000)
  })
    .then((response) => response.text())
    .catch(() => undefined)
  if (text === undefined) return undefined
  const buckets = new Map<string, number>()
  for (const match of text.matchAll(/^eventloop_delay_seconds_bucket\{le="([^"]+)"\} ([\d.e+-]+)$/gm))
    buckets.set(match[1], Number(match[2]))
  const recent = /^eventloop_delay_recent_max_seconds ([\d.e+-]+)$/m.exec(text)
  const bytes = (name: string) => Number(new RegExp(`^${name} ([\\d.e+-]+)$`, "m").exec(text)?.[1] ?? Number.NaN)
  /** The sum of a metric's samples over its labels. */
  const summed = (name: string) =>
    [...text.matchAll(new RegExp(`^${name}\\{[^}]*\\} ([\\d.e+-]+)$`, "gm"))].reduce((sum, [, v]) => sum + Number(v), 0)
  const mb = (value: number) => value / 1024 / 1024
  return {
    buckets,
    recentMaxMs: Number(recent?.[1] ?? Number.NaN) * 1000,
    nodeMb: mb(bytes("nodejs_heap_committed_bytes") + bytes("nodejs_external_bytes")),
    duckdbMb: mb(summed("duckdb_memory_bytes")),
    workersMb: mb(summed("nodejs_worker_heap_committed_bytes"))
  }
}
/** Share of loop samples over `boundSeconds` between two scrapes, and how many samples. */
const shareOver = (before: LoopScrape, after: LoopScrape, boundSeconds: string) => {
  const total = (after.buckets.get("+Inf") ?? 0) - (before.buckets.get("+Inf") ?? 0)
  const under = (after.buckets.get(boundSeconds) ?? 0) - (before.buckets.get(boundSeconds) ?? 0)
  return { samples: total, share: total === 0 ? 0 : (total - under) / total }
}

/** What the service's own accounting names of an RSS sample, and what it leaves unnamed (allocators' kept pages, code). */
const memoryParts = (rssMb: number, scrape: LoopScrape | undefined) =>
  scrape === undefined
    ? "no /metrics"
    : `main heap+external ${scrape.nodeMb.toFixed(0)}, worker heaps ${scrape.workersMb.toFixed(0)}, DuckDB ${scrape.duckdbMb.toFixed(0)}, ` +
      `unnamed ${(rssMb - scrape.nodeMb - scrape.workersMb - scrape.duckdbMb).toFixed(0)} MB`

const rssMb = (pid: number, field: "VmRSS" | "VmHWM") => (statusBytes(pid, field) ?? Number.NaN) / 1024 / 1024

/** The sample feeds with the generated one beside them, disabled: it runs only when the bench starts it. */
const feedsConfig = (feedFile: string) => {
  const config = JSON.parse(readFileSync(resolve(import.meta.dirname, "../config/feeds.json"), "utf8")) as {
    feeds: Array<Record<string, unknown>>
  }
  const dir = mkdtempSync(join(tmpdir(), "bench-serve-while-ingest-"))
  const path = join(dir, "feeds.json")
  config.feeds.push({
    name: BENCH_FEED,
    kind: "products",
    format: FORMAT,
    location: feedFile,
    enabled: false,
    options: { storeColumn: "custom_label_0" }
  })
  writeFileSync(path, JSON.stringify({ feeds: config.feeds }))
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

const PROFILE_DIR = resolve("data/var/bench-serve-while-ingest/profile")
log(`bench:serve-while-ingest, ${size}${WITH_SEARCHES ? "" : ", redirects only"}; ${machineLoad()}`)
const feedFile = await benchFeedFile(resolve("data/var/bench-search/feeds"), PRODUCTS, FORMAT)
const feeds = feedsConfig(feedFile)
const bare = await startBare()
const service = await startShippedService(
  {
    ROLE: "all",
    FEEDS_CONFIG: feeds.path,
    DUCKDB_MEMORY_LIMIT: "1GB",
    INGEST_ON_START: "true"
  },
  undefined,
  values.profile ? { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] } : {}
)
const admin = { authorization: `Bearer ${service.adminToken}` }
log(`service ready in ${service.readySeconds.toFixed(1)} s (sample catalog ingested); ${machineLoad()}`)

try {
  const redirects = await matchLinks(service.url, 200)
  const searches = SEARCHES.map((q) => `/api/search?q=${encodeURIComponent(q)}`)
  const redirectLoad = { url: service.url, paths: redirects, headers: HEADERS, spreadForwardedFor: true }
  const searchLoad = { url: service.url, paths: searches, headers: HEADERS, spreadForwardedFor: true }
  const bareLoad = { url: bare.url, paths: barePaths, headers: HEADERS, spreadForwardedFor: true }

  // 1. Peaks, each alone: each the best of PEAK_TRIALS short trials,
  // alternated between the two loads. The peak sets the pace of the whole
  // run, and another process on the machine can only take requests away from
  // a trial, never add any: one 5 s sample once read 274 redirects/s (43,549
  // on a quiet machine). The best trial is the nearest to what the machine
  // can do; alternating spreads each load's trials over the whole phase, so
  // one burst of outside work does not spoil all of them. The first trials
  // also warm the service up (the best of three leaves a cold one out): 6
  // runs of 2 s take about the time of a 2 s warm-up and a 5 s sample of
  // each (every run also pays for starting its client and waiting for its
  // last answers, the more so on a loaded machine).
  //
  // Requests answered as asked (302s, 200s) per second: a 503 is answered
  // fast and must not make a trial look best; its failures are printed.
  const served = (r: LoadResult) => (r.requestsPerSecond * (r.s2xx + r.s3xx)) / Math.max(1, r.total)
  const figure = (r: LoadResult) =>
    `${served(r).toFixed(0)} req/s` +
    (r.s4xx + r.s5xx + r.errors + r.timeouts > 0
      ? ` (${r.s4xx} 4xx, ${r.s5xx} 5xx, ${r.errors + r.timeouts} errors)`
      : "")
  const trials = { redirect: [] as Array<LoadResult>, search: [] as Array<LoadResult> }
  for (let trial = 0; trial < PEAK_TRIALS; trial++) {
    trials.redirect.push(await runLoad({ ...redirectLoad, connections: CONNECTIONS, seconds: PEAK_TRIAL_SECONDS }))
    if (WITH_SEARCHES)
      trials.search.push(await runLoad({ ...searchLoad, connections: CONNECTIONS, seconds: PEAK_TRIAL_SECONDS }))
    const searchTrial = trials.search.at(trial)
    log(
      `peak trial ${trial + 1} of ${PEAK_TRIALS} (${PEAK_TRIAL_SECONDS} s each): redirect ${figure(trials.redirect[trial])}` +
        `${searchTrial === undefined ? "" : `, /api/search ${figure(searchTrial)}`} (${machineLoad()})`
    )
  }
  const best = (results: ReadonlyArray<LoadResult>) => Math.max(0, ...results.map(served))
  const redirectPeak = best(trials.redirect)
  const searchPeak = best(trials.search)
  // Half of the machine for both loads together: each peak is the whole
  // machine for that load alone, so the shares of capacity they take add up
  // (redirects/redirect peak + searches/search peak). Each at half its own
  // peak at once asked for the whole machine: the baseline window, with no
  // feed, already missed the redirect target. Split evenly: a quarter each
  // (redirects only: the same quarter of the redirect peak, no searches).
  const share = PACE / 2
  const rates = {
    redirect: Math.max(1, PINNED?.[0] ?? Math.round(redirectPeak * share)),
    search: WITH_SEARCHES ? Math.max(1, PINNED?.[1] ?? Math.round(searchPeak * share)) : 0
  }
  const peaks =
    `redirect ${redirectPeak.toFixed(0)} req/s` + (WITH_SEARCHES ? `, /api/search ${searchPeak.toFixed(0)} req/s` : "")
  const pace =
    PINNED !== undefined
      ? "paced at the rates given"
      : WITH_SEARCHES
        ? `paced together at ${PACE} of the machine, ${share} of each peak`
        : `paced at ${share} of the redirect peak, as beside searches in a mixed run`
  log(
    `peaks alone (best of ${PEAK_TRIALS}): ${peaks}; ${pace}: ${rates.redirect} redirects/s and ${rates.search} searches/s (${machineLoad()})`
  )

  // The feed run's phase (fetch, load, sync) while one runs.
  let runId: string | undefined
  const runPhase = async () =>
    runId === undefined
      ? undefined
      : fetch(`${service.url}/admin/runs/${runId}`, { headers: admin, signal: AbortSignal.timeout(10_000) })
          .then((response) => response.json() as Promise<{ progress: { phase: string } | null }>)
          .then((body) => body.progress?.phase)
          .catch(() => undefined)

  /**
   * One window of both paced loads side by side, with the service's loop and
   * RSS sampled each second; `redirectsTo` "bare": the redirects go to the
   * bare node:http server, the searches still to the service.
   */
  const window = async (redirectsTo: "service" | "bare" = "service") => {
    const before = await scrapeLoop(service.url, service.adminToken)
    // The service's event loop: the time it ran, and the time it was runnable with no core (a share of a core
    // too small for its requests queues them without making its timers late)
    const mainThread = `/proc/${service.pid}/task/${service.pid}/schedstat`
    const mainBefore = { ran: onCpuNs(mainThread), waited: runQueueWaitNs(mainThread), at: performance.now() }
    // The CPU of the whole service process and of its Meilisearch (searches and indexing) over the window
    const meiliPid = service.meiliPid()
    const cpuBefore = { service: processCpuSeconds(service.pid), meili: processCpuSeconds(meiliPid) }
    let loopMaxMs = 0
    let rssPeak = 0
    // The hypervisor's steal over the window, and its largest in one of the sampler's seconds
    const stealAtStart = stealMs()
    let stealBefore = stealAtStart
    let stealMaxMs = 0
    // What the RSS was made of at the window's highest sample (the service's own accounting, /metrics)
    let atRssPeak: LoopScrape | undefined
    const phases = new Set<string>()
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        await new Promise((done) => setTimeout(done, 1_000))
        const scrape = await scrapeLoop(service.url, service.adminToken)
        if (scrape !== undefined) loopMaxMs = Math.max(loopMaxMs, scrape.recentMaxMs)
        const rss = rssMb(service.pid, "VmRSS")
        if (rss > rssPeak) {
          rssPeak = rss
          atRssPeak = scrape
        }
        const stealNow = stealMs()
        if (stealNow !== undefined && stealBefore !== undefined)
          stealMaxMs = Math.max(stealMaxMs, stealNow - stealBefore)
        stealBefore = stealNow
        const phase = await runPhase()
        if (phase !== undefined) phases.add(phase)
      }
    })()
    const [redirect, search] = await Promise.all([
      runPaced({
        ...(redirectsTo === "bare" ? bareLoad : redirectLoad),
        rate: rates.redirect,
        seconds: WINDOW_SECONDS,
        connections: CONNECTIONS
      }),
      WITH_SEARCHES
        ? runPaced({ ...searchLoad, rate: rates.search, seconds: WINDOW_SECONDS, connections: CONNECTIONS })
        : undefined
    ])
    sampling = false
    await sampler
    const windowMs = performance.now() - mainBefore.at
    const mainLoop = {
      ranShare: (onCpuNs(mainThread) - mainBefore.ran) / 1e6 / windowMs,
      waitedShare: (runQueueWaitNs(mainThread) - mainBefore.waited) / 1e6 / windowMs
    }
    // CPU seconds over the window's seconds: cores (NaN where a process is not there)
    const cores = {
      service: ((processCpuSeconds(service.pid) - cpuBefore.service) * 1000) / windowMs,
      meili: ((processCpuSeconds(meiliPid) - cpuBefore.meili) * 1000) / windowMs
    }
    const after = await scrapeLoop(service.url, service.adminToken)
    if (after !== undefined) loopMaxMs = Math.max(loopMaxMs, after.recentMaxMs)
    const over = before !== undefined && after !== undefined ? shareOver(before, after, "0.01") : undefined
    return {
      redirectsTo,
      redirect,
      search,
      loopMaxMs,
      mainLoop,
      cores,
      over,
      before,
      after,
      rssPeak,
      steal: { ms: stealSince(stealAtStart) ?? Number.NaN, maxSecondMs: stealMaxMs },
      atRssPeak,
      phases,
      load: machineLoad()
    }
  }
  type Window = Awaited<ReturnType<typeof window>>
  const bad = (r: LoadResult) => r.s5xx + r.errors + r.timeouts
  const badText = (r: LoadResult) => `${r.s5xx} 5xx, ${r.errors + r.timeouts} errors`
  const describe = (label: string, w: Window) =>
    log(
      `${label.padEnd(22)} ${w.redirectsTo === "bare" ? "bare 302 " : "redirect "}p99 ${String(w.redirect.p99).padStart(6)} ms (${w.redirect.s3xx} 302, ${badText(w.redirect)}; ` +
        `client: loop max ${(w.redirect.clientLoopMaxMs ?? Number.NaN).toFixed(0)} ms, no core for ${(w.redirect.clientRunQueueMs ?? Number.NaN).toFixed(0)} ms)  ` +
        (w.search === undefined ? "" : `search p99 ${String(w.search.p99).padStart(6)} ms (${badText(w.search)})  `) +
        `loop >10 ms ${((w.over?.share ?? Number.NaN) * 100).toFixed(2)}% of ${w.over?.samples ?? "?"}, max ${w.loopMaxMs.toFixed(0)} ms, ` +
        `ran ${(w.mainLoop.ranShare * 100).toFixed(0)}% / no core ${(w.mainLoop.waitedShare * 100).toFixed(0)}% of the window; ` +
        `CPU, in cores: service ${w.cores.service.toFixed(2)}, Meilisearch ${w.cores.meili.toFixed(2)}  ` +
        `RSS ${w.rssPeak.toFixed(0)} MB (${memoryParts(w.rssPeak, w.atRssPeak)})  ` +
        `steal ${w.steal.ms.toFixed(0)} ms (max ${w.steal.maxSecondMs.toFixed(0)} in 1 s)  ${[...w.phases].join("+") || "-"}  (${w.load})`
    )

  // 2. Baseline: the same paced load with no feed running.
  describe("baseline (no feed)", await window())
  describe("baseline (no feed)", await window("bare"))

  // 3. The feed's run, under the same load, window after window until it is over.
  const started = await fetch(`${service.url}/admin/ingest`, {
    method: "POST",
    headers: { ...admin, "content-type": "application/json" },
    body: JSON.stringify({ feed: BENCH_FEED, wait: false })
  }).then((response) => response.json() as Promise<{ started: Array<string> }>)
  runId = started.started[0]
  if (runId === undefined) throw new Error(`the feed did not start: ${JSON.stringify(started)}`)
  const runStarted = performance.now()
  const windows: Array<Window> = []
  let run: { status: string; rowsLoaded: number; documentsUpserted: number; error: string | null }
  for (;;) {
    const w = await window(windows.length % 2 === 0 ? "service" : "bare")
    windows.push(w)
    describe(`during run (${((performance.now() - runStarted) / 1000).toFixed(0)} s)`, w)
    run = await fetch(`${service.url}/admin/runs/${runId}`, { headers: admin })
      .then((response) => response.json() as Promise<{ run: typeof run }>)
      .then((body) => body.run)
    if (run.status !== "running") break
  }
  const runSeconds = (performance.now() - runStarted) / 1000
  log(
    `run ${run.status}: ${run.rowsLoaded.toLocaleString()} products loaded, ${run.documentsUpserted.toLocaleString()} documents synced, ` +
      `in about ${runSeconds.toFixed(0)} s (windows of ${WINDOW_SECONDS} s)${run.error === null ? "" : `; error: ${run.error}`}`
  )

  // Over the whole run: loop samples over 10 ms between the first and last scrape, worst window otherwise.
  const first = windows[0].before
  const last = windows.at(-1)?.after
  const over = first !== undefined && last !== undefined ? shareOver(first, last, "0.01") : undefined
  const loopMaxMs = Math.max(...windows.map((w) => w.loopMaxMs))
  const ours = windows.filter((w) => w.redirectsTo === "service")
  const bares = windows.filter((w) => w.redirectsTo === "bare")
  const redirectP99 = Math.max(...ours.map((w) => w.redirect.p99))
  const bareP99 = Math.max(...bares.map((w) => w.redirect.p99))
  const sorted = (list: ReadonlyArray<Window>) =>
    list
      .map((w) => w.redirect.p99)
      .sort((a, b) => a - b)
      .join(", ")
  // the service's answers only: its searches in every window, its redirects in its own
  const searchResults = windows.flatMap((w) => (w.search === undefined ? [] : [w.search]))
  const fivexx = searchResults.reduce((sum, r) => sum + bad(r), 0) + ours.reduce((sum, w) => sum + bad(w.redirect), 0)
  const only5xx = searchResults.reduce((sum, r) => sum + r.s5xx, 0) + ours.reduce((sum, w) => sum + w.redirect.s5xx, 0)
  const peakRss = rssMb(service.pid, "VmHWM")
  const atScale = PRODUCTS >= 1_000_000
  log(`\nverdicts at ${size}, ${machineLoad()} (a loaded machine inflates every latency):`)
  const steal = windows.reduce((sum, w) => sum + w.steal.ms, 0)
  if (steal > 0)
    log(
      `  the hypervisor took ${steal.toFixed(0)} ms of CPU from this machine during the run (steal; at most ` +
        `${Math.max(...windows.map((w) => w.steal.maxSecondMs)).toFixed(0)} ms in one second): every process stalls then`
    )
  log(
    `  event-loop lateness over 10 ms: ${((over?.share ?? Number.NaN) * 100).toFixed(2)}% of ${over?.samples ?? "?"} samples ` +
      `(p99 < ${TARGETS.loopP99Ms} ms means < 1%)  ${verdict(over !== undefined && over.share < 0.01)}`
  )
  log(
    `  event-loop lateness max: ${loopMaxMs.toFixed(0)} ms (< ${TARGETS.loopMaxMs})  ${verdict(loopMaxMs < TARGETS.loopMaxMs)}`
  )
  log(
    `  redirect p99, worst window: ${redirectP99} ms (< ${TARGETS.redirectP99Ms})  ${verdict(redirectP99 < TARGETS.redirectP99Ms)}; ` +
      `bare node:http in the other windows: ${bareP99} ms`
  )
  log(`    redirect p99 of each window, sorted: ours ${sorted(ours)}; bare ${sorted(bares)}`)
  log(
    `  5xx and client errors (timeouts included): ${fivexx}, of which 5xx ${only5xx}  ${verdict(fivexx === 0 && run.status === "succeeded")}`
  )
  // Why searches failed, from the service's own log lines (its `search unavailable` warnings).
  const reasons = new Map<string, number>()
  for (const line of service.log()) {
    if (!line.includes('"search unavailable"')) continue
    const reason = /"reason":"([^"]{0,70})/.exec(line)?.[1] ?? "?"
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1)
  }
  for (const [reason, count] of reasons) log(`    ${count} searches unavailable: ${reason}`)
  log(
    `  peak RSS of the service: ${peakRss.toFixed(0)} MB (<= ${TARGETS.peakRssMb} at 1M with DUCKDB_MEMORY_LIMIT=1GB)  ` +
      (atScale ? verdict(peakRss <= TARGETS.peakRssMb) : "(not judged below 1M products)")
  )
  // no target: a process of its own, bounded by its indexing memory (MEILI_MAX_INDEXING_MEMORY) and its memory maps
  const meiliPid = service.meiliPid()
  log(`  peak RSS of its Meilisearch: ${meiliPid === undefined ? "?" : rssMb(meiliPid, "VmHWM").toFixed(0)} MB`)
} finally {
  bare.server.close()
  await service.stop()
  feeds.remove()
}
