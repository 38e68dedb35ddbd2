// npm run bench:search -- [--products N] [--duration S] [--connections C] [--rebuild] [--dir D] [--profile]
//
// Intent search over a generated catalog (default 1,000,000 products, taken
// through the real pipeline: feed file, DuckDB, SearchSync's one document per
// product model), side by side in one run:
//   direct  the Meilisearch query our service sends for each phrase (the
//           same body, built by the same searchBody), POSTed straight to
//           Meilisearch (the floor);
//   api     GET /api/search over HTTP on the real service (child process,
//           same Meilisearch), which parses the phrase, queries and renders;
//   proxy   a bare node:http server passing the same bodies through to
//           Meilisearch untouched (bench/support/bareMeiliProxy.ts): what
//           one HTTP hop in node costs with no work at all, the floor for
//           any service in front of Meilisearch on this machine.
// Latency is measured with one connection (no queueing), throughput with
// several; ratios api/direct are printed, with the Meilisearch requests per
// search (from /metrics) and the duplicate models per answer (must be 0).
// The feed, DuckDB and index live under data/var/bench-search and are reused
// by later runs of the same size unless --rebuild.
// @ts-expect-error autocannon ships no types
import autocannonUntyped from "autocannon"
import { Effect, Exit, Scope } from "effect"
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import http from "node:http"
import { loadavg } from "node:os"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { searchBody } from "../discovery/DiscoverySearch.ts"
import { attemptParams, searchAttempts } from "../discovery/relaxation.ts"
import { parseIntent } from "../domain/intent/parseIntent.ts"
import { freePort, startMeili } from "../infra/MeiliServer.ts"
import { DOCUMENT_VERSION } from "../readModel/documents.ts"
import { productSettings, settingsHash } from "../readModel/settings.ts"
import { machineLoad } from "./support/machineLoad.ts"
import { benchFeedFile, editionsFor, ingestCatalog } from "./support/pipelineCatalog.ts"

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "1000000" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "8" },
    rebuild: { type: "boolean", default: false },
    // another folder lets a second size be built while one runs
    dir: { type: "string", default: "data/var/bench-search" },
    // a V8 CPU profile of the service (DIR/profile/*.cpuprofile), summarised by bench/support/cpuProfile.ts
    profile: { type: "boolean", default: false }
  }
})
const N = Number(values.products)
const DURATION = Number(values.duration)
const CONNECTIONS = Number(values.connections)
const DIR = resolve(values.dir)
const MASTER_KEY = "bench-search-local-master-key"
/** /api/search's default limit (SEARCH_DEFAULT_LIMIT in api/discovery/searchFeed.ts; benches may not import api/). */
const SEARCH_LIMIT = 8
const PREFIX = "bench_"
const UID = `${PREFIX}products`

const QUERIES = [
  "wireless earbuds under $100 for running",
  "gift for dad who likes coffee",
  "lego for a 10 year old",
  "4k tv under 900 dollars",
  "noise cancelling headphones",
  "laptop between 500 and 1000 dollars",
  "running shoes under £120",
  "espresso machine",
  "birthday present for mom who likes skincare",
  "yoga mat under 40 euros",
  "robot vacuum",
  "board games for a teen",
  "cheap shoes",
  "i need new jacket please",
  "top rated headphones"
]

interface LoadRequest {
  readonly method: string
  readonly path: string
  readonly body?: string
  readonly headers?: Record<string, string>
}
interface LoadResult {
  readonly latency: { readonly p50: number; readonly p99: number }
  readonly requests: { readonly average: number; readonly total: number }
  readonly errors: number
  readonly non2xx: number
}
const autocannon = autocannonUntyped as (options: {
  url: string
  connections: number
  duration: number
  requests: ReadonlyArray<LoadRequest>
}) => Promise<LoadResult>

const log = (message: string) => process.stdout.write(`${message}\n`)
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
/** The parts of Meilisearch's answers this bench reads. */
interface MeiliAnswer {
  readonly numberOfDocuments: number
  readonly hits: ReadonlyArray<Record<string, unknown>>
  readonly facetDistribution: Record<string, Record<string, number>>
}
const meiliFetch = async (url: string, path: string, init: RequestInit = {}): Promise<MeiliAnswer> => {
  const response = await fetch(`${url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${MASTER_KEY}`, "content-type": "application/json", ...(init.headers ?? {}) }
  })
  const body = (await response.json()) as MeiliAnswer
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`)
  return body
}

const SERVICE_DIR = join(DIR, "service")

/**
 * The catalog through the real pipeline: the generated feed streamed to a
 * file, loaded into the service's DuckDB (SERVICE_DIR) and synced by
 * SearchSync as model documents into this bench's Meilisearch. Reused by
 * later runs unless --rebuild or the documents' shape changed.
 */
const buildIndex = async (url: string) => {
  const marker = join(DIR, `index-${N}.json`)
  const wanted = JSON.stringify({
    n: N,
    editions: editionsFor(N),
    settings: settingsHash(productSettings),
    version: DOCUMENT_VERSION
  })
  const stored = existsSync(marker) ? (JSON.parse(readFileSync(marker, "utf8")) as { models?: number }) : undefined
  if (!values.rebuild && stored !== undefined && JSON.stringify({ ...stored, models: undefined }) === wanted) {
    const stats = await meiliFetch(url, `/indexes/${UID}/stats`).catch(() => undefined)
    if (stats?.numberOfDocuments === stored.models) {
      log(`index ${UID}: reusing ${stored.models?.toLocaleString()} model documents (${N.toLocaleString()} products)`)
      return
    }
  }
  rmSync(SERVICE_DIR, { recursive: true, force: true })
  for (const stale of readdirSync(DIR).filter((name) => /^index-\d+\.json$/.test(name))) rmSync(join(DIR, stale))
  let started = performance.now()
  const file = await benchFeedFile(join(DIR, "feeds"), N)
  log(`feed ${file}: ${N.toLocaleString()} products in ${seconds(performance.now() - started)} (${machineLoad()})`)
  started = performance.now()
  const summary = await ingestCatalog(file, {
    dataDir: SERVICE_DIR,
    meiliUrl: url,
    masterKey: MASTER_KEY,
    indexPrefix: PREFIX
  })
  const t = summary.timings
  log(
    `pipeline: ${summary.rowsLoaded.toLocaleString()} products loaded (${summary.rowsRejected} rejected), ` +
      `${summary.documentsUpserted.toLocaleString()} model documents synced in ${seconds(performance.now() - started)}` +
      (t === undefined ? "" : ` (load ${seconds(t.loadMs)}, sync ${seconds(t.syncMs)})`) +
      ` (${machineLoad()})`
  )
  const stats = await meiliFetch(url, `/indexes/${UID}/stats`)
  writeFileSync(marker, JSON.stringify({ ...JSON.parse(wanted), models: stats.numberOfDocuments }))
}

/** The bench service's own admin token, to read /metrics. */
const BENCH_ADMIN_TOKEN = "bench-search-admin-token"

const startServiceProcess = async (meiliUrl: string) => {
  const port = await Effect.runPromise(freePort)
  const profile = values.profile ? ["--cpu-prof", `--cpu-prof-dir=${join(DIR, "profile")}`] : []
  const child = spawn(process.execPath, [...profile, "main.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: SERVICE_DIR,
      MEILI_URL: meiliUrl,
      MEILI_MASTER_KEY: MASTER_KEY,
      MEILI_INDEX_PREFIX: PREFIX,
      INGEST_ON_START: "false",
      SCHEDULES_ENABLED: "false",
      ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      // the bench is one client measuring throughput: the per-client limits would measure themselves
      CONCURRENT_REQUESTS_PER_IP: "0",
      RATE_LIMIT_IP_PER_MINUTE: "1000000000",
      RATE_LIMIT_IP_BURST: "1000000000",
      LOG_LEVEL: "Warning"
    },
    stdio: ["ignore", "ignore", "inherit"]
  })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${url}/health`)).ok) return { url, child }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error("service did not start")
}

/** The bare node:http proxy (bench/support/bareMeiliProxy.ts), passing `bodies` through to Meilisearch. */
const startBareProxy = async (meiliUrl: string, bodies: ReadonlyArray<string>) => {
  const port = await Effect.runPromise(freePort)
  const bodiesFile = join(DIR, "proxy-bodies.json")
  writeFileSync(bodiesFile, JSON.stringify(bodies))
  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, "support", "bareMeiliProxy.ts"), String(port), meiliUrl, MASTER_KEY, bodiesFile],
    { env: { ...process.env, BENCH_INDEX: UID }, stdio: ["ignore", "pipe", "inherit"] }
  )
  await new Promise<void>((resolveUp, reject) => {
    child.stdout.once("data", () => resolveUp())
    child.once("exit", (code) => reject(new Error(`bare proxy exited with ${code}`)))
  })
  return { url: `http://127.0.0.1:${port}`, child }
}

interface Measured {
  readonly p50: number
  readonly p99: number
  readonly rps: number
  readonly errors: number
  /** Requests answered in the run. */
  readonly count: number
  /** CPU time (ms, user + system) each watched process used in the run. */
  readonly cpuMs: ReadonlyArray<number>
  /** Sequential runs: every latency (ms) of each request of the list, by its index. */
  readonly byRequest?: ReadonlyArray<ReadonlyArray<number>>
}

/**
 * CPU time a process has used (ms), from /proc/PID/stat (Linux; 10 ms ticks).
 * Divided by the requests of a run it is the CPU per search: a figure that
 * depends far less on machine load than latency or req/s.
 */
const cpuMsOf = (pid: number | undefined): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return Number.NaN
  }
}
/** The processes whose CPU each run records: [Meilisearch, the service, the bare proxy]. */
let watched: Array<number | undefined> = []
const cpuNow = () => watched.map(cpuMsOf)
const cpuSince = (before: ReadonlyArray<number>) => cpuNow().map((ms, i) => ms - before[i])

const measure = async (url: string, requests: Array<LoadRequest>, connections: number): Promise<Measured> => {
  const before = cpuNow()
  const result = await autocannon({ url, connections, duration: DURATION, requests })
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: result.errors + result.non2xx,
    count: result.requests.total,
    cpuMs: cpuSince(before)
  }
}

// Sequential latency with sub-millisecond resolution (autocannon reports whole
// milliseconds, too coarse to compare 6 ms with 8 ms): one keep-alive
// connection, one request at a time, both paths measured the same way.
const sequentialAgent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const once = (base: string, request: LoadRequest) =>
  new Promise<void>((resolveDone, reject) => {
    const req = http.request(
      `${base}${request.path}`,
      {
        method: request.method,
        agent: sequentialAgent,
        headers: {
          ...(request.headers ?? {}),
          ...(request.body ? { "content-length": String(Buffer.byteLength(request.body)) } : {})
        }
      },
      (response) => {
        response.resume()
        response.on("end", () =>
          response.statusCode === 200 ? resolveDone() : reject(new Error(`${request.path}: ${response.statusCode}`))
        )
      }
    )
    req.setNoDelay(true)
    req.on("error", reject)
    req.end(request.body)
  })

const sequential = async (base: string, requests: Array<LoadRequest>): Promise<Measured> => {
  const before = cpuNow()
  const times: Array<number> = []
  const byRequest = requests.map((): Array<number> => [])
  const until = performance.now() + DURATION * 1000
  for (let i = 0; performance.now() < until; i++) {
    const started = performance.now()
    await once(base, requests[i % requests.length])
    const ms = performance.now() - started
    times.push(ms)
    byRequest[i % requests.length].push(ms)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]
  return {
    p50: at(0.5),
    p99: at(0.99),
    rps: times.length / DURATION,
    errors: 0,
    count: times.length,
    cpuMs: cpuSince(before),
    byRequest
  }
}

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[values.length >> 1]

const main = async () => {
  mkdirSync(DIR, { recursive: true })
  const scope = Effect.runSync(Scope.make())
  let service: Awaited<ReturnType<typeof startServiceProcess>> | undefined
  let proxy: Awaited<ReturnType<typeof startBareProxy>> | undefined
  try {
    const meili = await Effect.runPromise(
      startMeili({ dataDir: join(DIR, "meili"), masterKey: MASTER_KEY }).pipe(Scope.provide(scope))
    )
    await buildIndex(meili.url)
    service = await startServiceProcess(meili.url)

    // The service's own vocabulary (category and brand facets), so the direct
    // queries are exactly the first query the service sends per phrase.
    const facets = await meiliFetch(meili.url, `/indexes/${UID}/search`, {
      method: "POST",
      body: JSON.stringify({ q: "", limit: 0, facets: ["categories", "brand"] })
    })
    const vocabulary = {
      categories: Object.keys(facets.facetDistribution.categories ?? {}),
      brands: Object.keys(facets.facetDistribution.brand ?? {})
    }
    const direct: Array<LoadRequest> = []
    const api: Array<LoadRequest> = []
    /** Hits and answer size (KB, as re-serialized) of each phrase's direct query. */
    const answers: Array<{ readonly hits: number; readonly kb: number }> = []
    log("\nqueries (first Meilisearch query per phrase; hits with it):")
    for (const phrase of QUERIES) {
      const intent = parseIntent(phrase, vocabulary)
      const attempt = searchAttempts(intent, undefined)[0]
      const body = searchBody(attempt.q, attemptParams(attempt, SEARCH_LIMIT))
      const probe = await meiliFetch(meili.url, `/indexes/${UID}/search`, { method: "POST", body })
      log(`  ${phrase.padEnd(48)} -> ${String(probe.hits.length).padStart(2)} hits  ${body}`)
      answers.push({ hits: probe.hits.length, kb: Buffer.byteLength(JSON.stringify(probe)) / 1024 })
      direct.push({
        method: "POST",
        path: `/indexes/${UID}/search`,
        body,
        headers: { authorization: `Bearer ${MASTER_KEY}`, "content-type": "application/json" }
      })
      api.push({ method: "GET", path: `/api/search?q=${encodeURIComponent(phrase)}` })
    }
    proxy = await startBareProxy(
      meili.url,
      direct.map((request) => request.body!)
    )
    watched = [meili.process.pid, service.child.pid, proxy.child.pid]
    const viaProxy: Array<LoadRequest> = direct.map((_, i) => ({ method: "GET", path: `/${i}` }))

    // Every API request must succeed before anything is measured; each
    // answer's offers are looked up by the offer ids models carry, to count
    // results that repeat a model.
    let duplicates = 0
    const roundTrips = async () => {
      const text = await (
        await fetch(`${service!.url}/metrics`, { headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } })
      ).text()
      return Number(/^search_round_trips_total(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? NaN)
    }
    const tripsBefore = await roundTrips()
    for (const request of api) {
      const response = await fetch(`${service.url}${request.path}`)
      const body = (await response.json()) as { count?: number; results?: Array<{ id: string }> }
      if (response.status !== 200 || !(body.count !== undefined && body.count > 0)) {
        throw new Error(`${request.path}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`)
      }
      const ids = (body.results ?? []).map((result) => result.id)
      const found = await meiliFetch(meili.url, `/indexes/${UID}/search`, {
        method: "POST",
        body: JSON.stringify({
          q: "",
          filter: `offer_ids IN [${ids.map((id) => JSON.stringify(id)).join(", ")}]`,
          limit: 100,
          attributesToRetrieve: ["id"]
        })
      })
      duplicates += ids.length - found.hits.length
    }
    const tripsPerSearch = ((await roundTrips()) - tripsBefore) / api.length

    // Warm every path (caches, vocabulary, JIT).
    await measure(meili.url, direct, 2)
    await measure(service.url, api, 2)
    await measure(proxy.url, viaProxy, 2)

    log(`\nlatency: sequential requests on 1 keep-alive connection, ${DURATION} s each (alternating twice)`)
    // Alternate the paths so background noise on a shared machine hits each.
    const d1 = await sequential(meili.url, direct)
    const a1 = await sequential(service.url, api)
    const p1 = await sequential(proxy.url, viaProxy)
    const d2 = await sequential(meili.url, direct)
    const a2 = await sequential(service.url, api)
    const p2 = await sequential(proxy.url, viaProxy)
    const avg = (x: Measured, y: Measured): Measured => ({
      p50: (x.p50 + y.p50) / 2,
      p99: (x.p99 + y.p99) / 2,
      rps: (x.rps + y.rps) / 2,
      errors: x.errors + y.errors,
      count: x.count + y.count,
      cpuMs: x.cpuMs.map((ms, i) => ms + y.cpuMs[i]),
      byRequest: x.byRequest?.map((times, i) => [...times, ...(y.byRequest?.[i] ?? [])])
    })
    const directLatency = avg(d1, d2)
    const apiLatency = avg(a1, a2)
    const proxyLatency = avg(p1, p2)
    log(`throughput: ${CONNECTIONS} connections, ${DURATION} s each (alternating twice)`)
    const dl1 = await measure(meili.url, direct, CONNECTIONS)
    const al1 = await measure(service.url, api, CONNECTIONS)
    const pl1 = await measure(proxy.url, viaProxy, CONNECTIONS)
    const dl2 = await measure(meili.url, direct, CONNECTIONS)
    const al2 = await measure(service.url, api, CONNECTIONS)
    const pl2 = await measure(proxy.url, viaProxy, CONNECTIONS)
    const directLoad = avg(dl1, dl2)
    const apiLoad = avg(al1, al2)
    const proxyLoad = avg(pl1, pl2)
    log(
      `  runs (req/s): direct ${dl1.rps.toFixed(0)}, ${dl2.rps.toFixed(0)}; api ${al1.rps.toFixed(0)}, ${al2.rps.toFixed(0)}; ` +
        `proxy ${pl1.rps.toFixed(0)}, ${pl2.rps.toFixed(0)}`
    )

    const row = (name: string, latency: Measured, load: Measured) =>
      `| ${name.padEnd(22)} | ${latency.p50.toFixed(2).padStart(9)} | ${latency.p99.toFixed(2).padStart(9)} | ` +
      `${load.p50.toFixed(0).padStart(8)} | ${load.p99.toFixed(0).padStart(8)} | ${load.rps.toFixed(0).padStart(9)} | ` +
      `${String(latency.errors + load.errors).padStart(6)} |`
    log(`\nsearch over ${N.toLocaleString()} products (model documents), ${QUERIES.length} intent phrases (ms; req/s)`)
    log(
      `| path                   | p50 (seq) | p99 (seq) | p50 (${CONNECTIONS}c) | p99 (${CONNECTIONS}c) | req/s (${CONNECTIONS}c) | errors |`
    )
    log("|------------------------|-----------|-----------|----------|----------|-----------|--------|")
    log(row("direct Meilisearch", directLatency, directLoad))
    log(row("GET /api/search", apiLatency, apiLoad))
    log(row("bare node:http proxy", proxyLatency, proxyLoad))
    // Where the api's time beyond the hop goes: per phrase, the api over the
    // bare proxy grows with the hits and the answer's size (parse, offer
    // choice and rendering are per hit), while the proxy's hop stays flat.
    log(`\nper phrase, sequential median (ms); the answer's hits and size; what the proxy and the api add (µs)`)
    log(
      `| phrase                                          | hits |    KB | direct | proxy |   api | proxy+ |  api+ | api over proxy |`
    )
    log(
      `|-------------------------------------------------|------|-------|--------|-------|-------|--------|-------|----------------|`
    )
    QUERIES.forEach((phrase, i) => {
      const [d, a, p] = [directLatency, apiLatency, proxyLatency].map((run) => median(run.byRequest?.[i] ?? []))
      const us = (ms: number) => String(Math.round(ms * 1000)).padStart(6)
      log(
        `| ${phrase.padEnd(47)} | ${String(answers[i].hits).padStart(4)} | ${answers[i].kb.toFixed(1).padStart(5)} | ` +
          `${d.toFixed(2).padStart(6)} | ${p.toFixed(2).padStart(5)} | ${a.toFixed(2).padStart(5)} | ${us(p - d)} | ${us(a - d)} | ${us(a - p).padStart(14)} |`
      )
    })

    const medianRatio = apiLatency.p50 / directLatency.p50
    const throughputRatio = apiLoad.rps / directLoad.rps
    log(
      `\nmedian latency api/direct: ${medianRatio.toFixed(2)}x (target <= 1.3x) ${medianRatio <= 1.3 ? "OK" : "MISSED"}`
    )
    log(
      `throughput api/direct:     ${throughputRatio.toFixed(2)}x (target >= 0.8x) ${throughputRatio >= 0.8 ? "OK" : "MISSED"}`
    )
    log(`p99 latency api/direct:    ${(apiLatency.p99 / directLatency.p99).toFixed(2)}x`)
    log(
      `the floor, a bare node:http proxy (no work) over direct: median latency ${(proxyLatency.p50 / directLatency.p50).toFixed(2)}x, ` +
        `throughput ${(proxyLoad.rps / directLoad.rps).toFixed(2)}x; the api over that floor: ` +
        `median latency ${(apiLatency.p50 / proxyLatency.p50).toFixed(2)}x, throughput ${(apiLoad.rps / proxyLoad.rps).toFixed(2)}x`
    )
    log(
      `Meilisearch requests per search: ${tripsPerSearch.toFixed(2)}; duplicate models in answers: ${duplicates} ${duplicates === 0 ? "OK" : "MISSED"}`
    )
    // CPU per search over every measured run of a path (sequential and loaded)
    const perSearch = (runs: ReadonlyArray<Measured>, process: number) =>
      runs.reduce((ms, run) => ms + run.cpuMs[process], 0) / runs.reduce((n, run) => n + run.count, 0)
    const directRuns = [d1, d2, dl1, dl2]
    const apiRuns = [a1, a2, al1, al2]
    const proxyRuns = [p1, p2, pl1, pl2]
    const meiliDirect = perSearch(directRuns, 0)
    const meiliApi = perSearch(apiRuns, 0)
    const ours = perSearch(apiRuns, 1)
    log(
      `CPU per search (ms): Meilisearch ${meiliDirect.toFixed(2)} direct, ${meiliApi.toFixed(2)} via the api, ` +
        `${perSearch(proxyRuns, 0).toFixed(2)} via the proxy; the service ${ours.toFixed(2)}, ` +
        `the proxy ${perSearch(proxyRuns, 2).toFixed(2)}; ` +
        `throughput ratio the CPU allows when cores are the limit (Meilisearch / (Meilisearch + service)): ` +
        `${(meiliDirect / (meiliApi + ours)).toFixed(2)}x`
    )
    log(
      `load average (1, 5, 15 min): ${loadavg()
        .map((load) => load.toFixed(2))
        .join(", ")}`
    )
  } finally {
    if (service !== undefined) {
      service.child.kill("SIGTERM")
      await new Promise((r) => service!.child.once("exit", r))
    }
    proxy?.child.kill("SIGTERM")
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exitCode = 1
})
