// npm run bench:search -- [--products sample|N] [--duration S] [--connections C] [--rebuild] [--dir D] [--profile]
//
// Intent search on the service as users run it: `npm start`'s entry point in
// a child process (bench/support/shippedService.ts, TRUST_PROXY, the load's
// visitors spread over X-Forwarded-For) against its Meilisearch, with the
// catalog taken through the real pipeline: --products sample (the default)
// is the sample catalog the service ingests on its first start; --products N
// a generated catalog of N products (bench/support/pipelineCatalog.ts: feed
// file, DuckDB, SearchSync's one document per product model) the service
// then serves. Side by side in one run, alternating:
//   direct  the Meilisearch query our service sends for each phrase (the
//           same body, built by the same searchBody), POSTed straight to
//           Meilisearch;
//   api     GET /api/search over HTTP on the service (same Meilisearch),
//           which parses the phrase, queries and renders;
//   proxy   a bare node:http server passing the same bodies through to
//           Meilisearch untouched (bench/support/bareMeiliProxy.ts): what
//           one HTTP hop in node costs with no work at all, the floor for
//           any service in front of Meilisearch on this machine.
// Latency is measured with one connection (no queueing), throughput with
// several, after a warm-up of each. Targets (PASS/MISSED): the api over the
// bare proxy, median <= 1.15x and throughput >= 0.85x at any size; over
// direct Meilisearch at 1M products, median <= 1.3x and throughput >= 0.8x.
// Also printed: the Meilisearch requests per search (from /metrics), the
// duplicate models per answer (must be 0), the CPU per search, the machine load.
// A generated catalog (feed, DuckDB, index) lives under data/var/bench-search
// and is reused by later runs of the same size unless --rebuild.
import { Effect, Exit, Scope } from "effect"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { startMeili } from "../infra/MeiliServer.ts"
import { DOCUMENT_VERSION } from "../readModel/documents.ts"
import { productSettings, settingsHash } from "../readModel/settings.ts"
import { CLIENTS, clientIp } from "./support/clientIps.ts"
import { machineLoad, stealMs, stealSince } from "./support/machineLoad.ts"
import { benchFeedFile, editionsFor, ingestCatalog } from "./support/pipelineCatalog.ts"
import { median } from "./support/redirectFixture.ts"
import {
  both,
  cpuWatch,
  firstQueryBodies,
  type LoadRequest,
  type Measured,
  measure,
  sequential,
  startBareProxy
} from "./support/searchLoad.ts"
import { type ShippedService, startShippedService } from "./support/shippedService.ts"

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "sample" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "8" },
    rebuild: { type: "boolean", default: false },
    // another folder lets a second size be built while one runs
    dir: { type: "string", default: "data/var/bench-search" },
    // a V8 CPU profile of the service (DIR/profile/*.cpuprofile), summarised by bench/support/cpuProfile.ts
    profile: { type: "boolean", default: false }
  }
})
const SAMPLE = values.products === "sample"
const N = SAMPLE ? 0 : Number(values.products)
if (!SAMPLE && !(Number.isInteger(N) && N > 0)) throw new Error(`--products: "sample" or a positive integer`)
const DURATION = Number(values.duration)
const CONNECTIONS = Number(values.connections)
const DIR = resolve(values.dir)
const MASTER_KEY = "bench-search-local-master-key"
const PREFIX = "bench_"
const UID = `${PREFIX}products`
const TARGETS = { overProxy: { median: 1.15, throughput: 0.85 }, overDirect: { median: 1.3, throughput: 0.8 } }
/** The size the targets over direct Meilisearch are set at. */
const DIRECT_TARGET_SIZE = 1_000_000

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

const log = (message: string) => process.stdout.write(`${message}\n`)
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const verdict = (ok: boolean) => (ok ? "PASS" : "MISSED")
/** The parts of Meilisearch's answers this bench reads. */
interface MeiliAnswer {
  readonly numberOfDocuments: number
  readonly hits: ReadonlyArray<Record<string, unknown>>
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
 * A generated catalog through the real pipeline: the feed streamed to a
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

/**
 * `npm start` on this bench's Meilisearch: on a fresh DATA_DIR it ingests the
 * sample catalog itself; on a generated catalog's it serves what is there.
 */
const startService = (meiliUrl: string): Promise<ShippedService> => {
  const env = { MEILI_URL: meiliUrl, MEILI_MASTER_KEY: MASTER_KEY, MEILI_INDEX_PREFIX: PREFIX, LOG_LEVEL: "Warning" }
  const nodeArgs = values.profile ? ["--cpu-prof", `--cpu-prof-dir=${join(DIR, "profile")}`] : []
  if (SAMPLE) return startShippedService(env, 600_000, { nodeArgs })
  // the generated catalog is the only one: the sample feeds must not be ingested or scheduled over it
  return startShippedService({ ...env, INGEST_ON_START: "false", SCHEDULES_ENABLED: "false" }, 600_000, {
    nodeArgs,
    dataDir: SERVICE_DIR
  })
}

/** The requests spread over CLIENTS visitors (X-Forwarded-For; request i is still phrase i modulo the phrases). */
const spread = (requests: ReadonlyArray<LoadRequest>): Array<LoadRequest> =>
  Array.from({ length: CLIENTS }, (_, i) => {
    const request = requests[i % requests.length]
    return { ...request, headers: { ...request.headers, "x-forwarded-for": clientIp(i) } }
  })

const main = async () => {
  mkdirSync(DIR, { recursive: true })
  const scope = Effect.runSync(Scope.make())
  const meiliDir = join(DIR, SAMPLE ? "meili-sample" : "meili")
  // the sample's index is made by the service on its fresh DATA_DIR: a fresh Meilisearch too
  if (SAMPLE) rmSync(meiliDir, { recursive: true, force: true })
  let service: ShippedService | undefined
  let proxy: Awaited<ReturnType<typeof startBareProxy>> | undefined
  try {
    log(
      `bench:search on the shipped entry point, ${SAMPLE ? "sample catalog" : `${N.toLocaleString()} products`}; ${machineLoad()}`
    )
    const meili = await Effect.runPromise(
      startMeili({ dataDir: meiliDir, masterKey: MASTER_KEY }).pipe(Scope.provide(scope))
    )
    if (!SAMPLE) await buildIndex(meili.url)
    service = await startService(meili.url)
    const stats = await meiliFetch(meili.url, `/indexes/${UID}/stats`)
    log(
      `service ready in ${service.readySeconds.toFixed(1)} s${SAMPLE ? " (fresh DATA_DIR, sample catalog ingested)" : ""}; ` +
        `${stats.numberOfDocuments.toLocaleString()} model documents in ${UID}; ${machineLoad()}`
    )

    // The first query the service sends per phrase, built with the service's own code and vocabulary.
    const bodies = await firstQueryBodies(meili.url, MASTER_KEY, UID, QUERIES)
    const directOnce: Array<LoadRequest> = []
    const apiOnce: Array<LoadRequest> = []
    /** Hits and answer size (KB, as re-serialized) of each phrase's direct query. */
    const answers: Array<{ readonly hits: number; readonly kb: number }> = []
    log("\nqueries (first Meilisearch query per phrase; hits with it):")
    for (const [i, phrase] of QUERIES.entries()) {
      const body = bodies[i]
      const probe = await meiliFetch(meili.url, `/indexes/${UID}/search`, { method: "POST", body })
      log(`  ${phrase.padEnd(48)} -> ${String(probe.hits.length).padStart(2)} hits  ${body}`)
      answers.push({ hits: probe.hits.length, kb: Buffer.byteLength(JSON.stringify(probe)) / 1024 })
      directOnce.push({
        method: "POST",
        path: `/indexes/${UID}/search`,
        body,
        headers: { authorization: `Bearer ${MASTER_KEY}`, "content-type": "application/json" }
      })
      apiOnce.push({ method: "GET", path: `/api/search?q=${encodeURIComponent(phrase)}` })
    }
    proxy = await startBareProxy({
      dir: DIR,
      meiliUrl: meili.url,
      masterKey: MASTER_KEY,
      uid: UID,
      bodies: directOnce.map((request) => request.body!)
    })
    const cpu = cpuWatch([meili.process.pid, service.pid, proxy.child.pid])
    const direct = spread(directOnce)
    const api = spread(apiOnce)
    const viaProxy = spread(directOnce.map((_, i) => ({ method: "GET", path: `/${i}` })))

    // Every API request must succeed before anything is measured; each
    // answer's offers are looked up by the offer ids models carry, to count
    // results that repeat a model.
    let duplicates = 0
    const tripsBefore = await service.metric("search_round_trips_total")
    for (const request of apiOnce) {
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
    const tripsPerSearch = ((await service.metric("search_round_trips_total")) - tripsBefore) / apiOnce.length

    // Warm every path (caches, vocabulary, JIT).
    await measure(meili.url, direct, 2, DURATION, cpu)
    await measure(service.url, api, 2, DURATION, cpu)
    await measure(proxy.url, viaProxy, 2, DURATION, cpu)

    log(`\nlatency: sequential requests on 1 keep-alive connection, ${DURATION} s each (alternating twice)`)
    const stealBefore = stealMs()
    const phrases = QUERIES.length
    // Alternate the paths so background noise on a shared machine hits each.
    const d1 = await sequential(meili.url, direct, phrases, DURATION, cpu)
    const a1 = await sequential(service.url, api, phrases, DURATION, cpu)
    const p1 = await sequential(proxy.url, viaProxy, phrases, DURATION, cpu)
    const d2 = await sequential(meili.url, direct, phrases, DURATION, cpu)
    const a2 = await sequential(service.url, api, phrases, DURATION, cpu)
    const p2 = await sequential(proxy.url, viaProxy, phrases, DURATION, cpu)
    const directLatency = both(d1, d2)
    const apiLatency = both(a1, a2)
    const proxyLatency = both(p1, p2)
    log(`throughput: ${CONNECTIONS} connections, ${DURATION} s each (alternating twice)`)
    const dl1 = await measure(meili.url, direct, CONNECTIONS, DURATION, cpu)
    const al1 = await measure(service.url, api, CONNECTIONS, DURATION, cpu)
    const pl1 = await measure(proxy.url, viaProxy, CONNECTIONS, DURATION, cpu)
    const dl2 = await measure(meili.url, direct, CONNECTIONS, DURATION, cpu)
    const al2 = await measure(service.url, api, CONNECTIONS, DURATION, cpu)
    const pl2 = await measure(proxy.url, viaProxy, CONNECTIONS, DURATION, cpu)
    const directLoad = both(dl1, dl2)
    const apiLoad = both(al1, al2)
    const proxyLoad = both(pl1, pl2)
    log(
      `  runs (req/s): direct ${dl1.rps.toFixed(0)}, ${dl2.rps.toFixed(0)}; api ${al1.rps.toFixed(0)}, ${al2.rps.toFixed(0)}; ` +
        `proxy ${pl1.rps.toFixed(0)}, ${pl2.rps.toFixed(0)} (${machineLoad()})`
    )

    const row = (name: string, latency: Measured, load: Measured) =>
      `| ${name.padEnd(22)} | ${latency.p50.toFixed(2).padStart(9)} | ${latency.p99.toFixed(2).padStart(9)} | ` +
      `${load.p50.toFixed(0).padStart(8)} | ${load.p99.toFixed(0).padStart(8)} | ${load.rps.toFixed(0).padStart(9)} | ` +
      `${String(latency.errors + load.errors).padStart(6)} |`
    const size = SAMPLE ? "the sample catalog" : `${N.toLocaleString()} products`
    log(`\nsearch over ${size} (model documents), ${QUERIES.length} intent phrases (ms; req/s)`)
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

    const ratios = {
      overProxy: { median: apiLatency.p50 / proxyLatency.p50, throughput: apiLoad.rps / proxyLoad.rps },
      overDirect: { median: apiLatency.p50 / directLatency.p50, throughput: apiLoad.rps / directLoad.rps }
    }
    const directApplies = N >= DIRECT_TARGET_SIZE
    const judged = (ok: boolean, applies: boolean) =>
      applies
        ? verdict(ok)
        : `(${verdict(ok)} if it applied: the target is set at ${DIRECT_TARGET_SIZE.toLocaleString()} products)`
    const steal = stealSince(stealBefore) ?? 0
    log(
      `\ntargets (${size}; ${machineLoad()}${steal > 0 ? `; the hypervisor's steal during the measurements ${steal} ms` : ""}):`
    )
    log(
      `  api over the bare proxy, median latency: ${ratios.overProxy.median.toFixed(2)}x (target <= ${TARGETS.overProxy.median}x) ` +
        verdict(ratios.overProxy.median <= TARGETS.overProxy.median)
    )
    log(
      `  api over the bare proxy, throughput:     ${ratios.overProxy.throughput.toFixed(2)}x (target >= ${TARGETS.overProxy.throughput}x) ` +
        verdict(ratios.overProxy.throughput >= TARGETS.overProxy.throughput)
    )
    log(
      `  api over direct Meilisearch, median:     ${ratios.overDirect.median.toFixed(2)}x (target <= ${TARGETS.overDirect.median}x) ` +
        judged(ratios.overDirect.median <= TARGETS.overDirect.median, directApplies)
    )
    log(
      `  api over direct Meilisearch, throughput: ${ratios.overDirect.throughput.toFixed(2)}x (target >= ${TARGETS.overDirect.throughput}x) ` +
        judged(ratios.overDirect.throughput >= TARGETS.overDirect.throughput, directApplies)
    )
    log(
      `  the floor, the bare proxy over direct: median ${(proxyLatency.p50 / directLatency.p50).toFixed(2)}x, ` +
        `throughput ${(proxyLoad.rps / directLoad.rps).toFixed(2)}x; p99 api/direct ${(apiLatency.p99 / directLatency.p99).toFixed(2)}x`
    )
    log(
      `Meilisearch requests per search: ${tripsPerSearch.toFixed(2)}; duplicate models in answers: ${duplicates} ${verdict(duplicates === 0)}`
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
    const missed =
      ratios.overProxy.median > TARGETS.overProxy.median ||
      ratios.overProxy.throughput < TARGETS.overProxy.throughput ||
      duplicates > 0 ||
      (directApplies &&
        (ratios.overDirect.median > TARGETS.overDirect.median ||
          ratios.overDirect.throughput < TARGETS.overDirect.throughput))
    if (missed) process.exitCode = 1
  } finally {
    await service?.stop()
    proxy?.child.kill("SIGTERM")
    await Effect.runPromise(Scope.close(scope, Exit.void))
    if (SAMPLE) rmSync(meiliDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exitCode = 1
})
