import { Effect, Exit, Scope } from "effect"
import { execFileSync, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { cpus, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { startMeili } from "../infra/MeiliServer.ts"
import { connectPostgres } from "../infra/postgres/client.ts"
import { writeClusterFeeds } from "../test/cluster/clusterFeeds.ts"
import { startEmbeddedPostgres } from "../test/support/embeddedPostgres.ts"
import { machineLoad } from "./support/machineLoad.ts"
import { HEADERS, paths as barePaths, startBare } from "./support/redirectFixture.ts"
import { TARGET_RATIO, verdict } from "./support/redirectPair.ts"
import { type LoadResult, runLoad } from "./support/runLoad.ts"
import { firstQueryBodies, startBareProxy } from "./support/searchLoad.ts"
import { type ShippedService, startShippedService } from "./support/shippedService.ts"

// `npm run bench:cluster [-- --seconds 8 --connections 32 --ingest-rows 200000]`:
// the cluster of "Running several replicas" on this one machine: an embedded
// PostgreSQL, a Meilisearch, one ROLE=worker (ingests the sample catalog
// through the pipelines on its first start) and two ROLE=api processes, each
// `npm start`'s entry point as users run it (bench/support/shippedService.ts:
// TRUST_PROXY, the loads' visitors spread over X-Forwarded-For), then
//   1. redirect and /api/search throughput with 1 replica, then with 2: the
//      load is SPREAD OVER BOTH PORTS (one autocannon process per replica,
//      the same total connections), no proxy in between, so the figures are
//      the replicas' and not a proxy's; after a warm-up of each replica, and
//      beside a bare node:http server answering the same 302 and a bare
//      node:http proxy passing each search's first Meilisearch query through
//      (bench/support/bareMeiliProxy.ts), in the same run (1 replica against
//      them: redirect >= 0.8x, search throughput >= 0.85x);
//   2. clicks stored in PostgreSQL vs redirects answered;
//   3. feed ingest of a generated catalog into PostgreSQL vs into DuckDB
//      (bench:ingest --postgres, run as a child, its table printed as is).
// Every figure carries the machine load; ratios are against the 1-replica
// run measured in the same run.

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "8" },
    connections: { type: "string", default: "32" },
    "ingest-rows": { type: "string", default: "200000" }
  }
})
const seconds = Number(values.seconds)
const connections = Number(values.connections)
const ingestRows = Number(values["ingest-rows"])
const SEARCHES = ["headphones", "laptop", "coffee machine", "monitor under 300", "vacuum", "phone case", "speaker"]

const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim()
const log = (line: string) => process.stderr.write(`${line}\n`)

const work = mkdtempSync(join(tmpdir(), "bench-cluster-"))
const scope = Effect.runSync(Scope.make())
const processes: Array<ShippedService> = []
let proxy: Awaited<ReturnType<typeof startBareProxy>> | undefined
const bare = await startBare()
const postgres = await startEmbeddedPostgres()

try {
  await postgres.started
  const meili = await Effect.runPromise(
    startMeili({ dataDir: join(work, "meili"), masterKey: randomBytes(16).toString("hex") }).pipe(Scope.provide(scope))
  )
  const feeds = writeClusterFeeds(work)
  // Every process as `npm start` runs it with ROLE set; the per-client limits are lifted by shippedService.
  const start = async (role: "api" | "worker", extra: Record<string, string> = {}) => {
    const server = await startShippedService({
      ROLE: role,
      DATABASE_URL: postgres.url,
      MEILI_URL: meili.url,
      MEILI_MASTER_KEY: meili.masterKey,
      FEEDS_CONFIG: feeds.configPath,
      LOG_LEVEL: "Warn",
      ...extra
    })
    processes.push(server)
    return server
  }

  log(`starting the worker and ingesting the sample catalog (${machineLoad()})`)
  const worker = await start("worker")
  const sampleIngestMs = worker.readySeconds * 1000
  // the worker ingested: the replicas only serve (no start-up ingest, no schedules of their own)
  const replica = () => start("api", { INGEST_ON_START: "false", SCHEDULES_ENABLED: "false" })
  const [a, b] = await Promise.all([replica(), replica()])
  const matched = await fetch(`${a.url}/api/v1/links/match`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: feeds.matchableUrl })
  }).then((response) => response.json() as Promise<{ link: { tracking_id: string } }>)
  const trackingId = matched.link.tracking_id
  const redirectPath = `/t/${trackingId}`
  const searchPaths = SEARCHES.map((q) => `/api/search?q=${encodeURIComponent(q)}`)
  // No MEILI_INDEX_PREFIX: the products index is "products".
  const bodies = await firstQueryBodies(meili.url, meili.masterKey, "products", SEARCHES)
  proxy = await startBareProxy({ dir: work, meiliUrl: meili.url, masterKey: meili.masterKey, uid: "products", bodies })
  const proxyPaths = bodies.map((_, i) => `/${i}`)

  /** One load over `replicas`, the connections split between them, run at once; figures summed. */
  const spread = async (replicas: ReadonlyArray<{ url: string }>, paths: ReadonlyArray<string>, time = seconds) => {
    const results = await Promise.all(
      replicas.map((replica) =>
        runLoad({
          url: replica.url,
          paths,
          connections: Math.max(1, Math.round(connections / replicas.length)),
          seconds: time,
          headers: HEADERS,
          spreadForwardedFor: true
        })
      )
    )
    return { results, load: machineLoad() }
  }
  const sum = (results: ReadonlyArray<LoadResult>, pick: (r: LoadResult) => number) =>
    results.reduce((total, r) => total + pick(r), 0)

  const rows: Array<{ label: string; rps: number; p99: number; bad: number; load: string; base?: number }> = []
  const measure = async (
    label: string,
    replicas: ReadonlyArray<{ url: string }>,
    paths: ReadonlyArray<string>,
    base?: number
  ) => {
    log(`${label} ...`)
    const { results, load } = await spread(replicas, paths)
    const rps = sum(results, (r) => r.requestsPerSecond)
    const bad = sum(results, (r) => r.s4xx + r.s5xx + r.errors + r.timeouts)
    rows.push({ label, rps, p99: Math.max(...results.map((r) => r.p99)), bad, load, base })
    return { rps, answered: sum(results, (r) => r.s3xx) }
  }

  // Warm-up: JIT, the link cache, the search vocabulary, sockets.
  for (const replica of [a, b]) await spread([replica], [redirectPath, ...searchPaths], 2)
  await spread([bare], barePaths, 2)
  await spread([proxy], proxyPaths, 2)
  const bareRedirect = await measure("redirect, bare node:http", [bare], barePaths)
  const redirectOne = await measure("redirect, 1 API replica", [a], [redirectPath])
  const redirectTwo = await measure("redirect, 2 API replicas", [a, b], [redirectPath], redirectOne.rps)
  const proxySearch = await measure("search, bare Meilisearch proxy", [proxy], proxyPaths)
  const searchOne = await measure("/api/search, 1 API replica", [a], searchPaths)
  await measure("/api/search, 2 API replicas", [a, b], searchPaths, searchOne.rps)

  // Clicks reach PostgreSQL in batches: wait until the count stops moving.
  const answered = redirectOne.answered + redirectTwo.answered
  const sql = connectPostgres(postgres.url, 1)
  let stored = -1
  try {
    const deadline = Date.now() + 30_000
    for (;;) {
      const [row] = await sql<
        Array<{ n: string }>
      >`SELECT count(*)::TEXT AS n FROM clicks WHERE tracking_id = ${trackingId}`
      const now = Number(row.n)
      if ((now === stored && now > 0) || Date.now() > deadline) break
      stored = now
      await new Promise((resolve) => setTimeout(resolve, 2_000))
    }
  } finally {
    await sql.end()
  }

  console.log(
    `\nbench:cluster: ${cpus().length} cores, ${seconds} s per run, ${connections} connections in total per run`
  )
  console.log(`uptime: ${uptime()}`)
  console.log(
    `sample catalog ingested by the worker into PostgreSQL + Meilisearch in ${(sampleIngestMs / 1000).toFixed(1)} s (start-up included)`
  )
  console.log(
    "load spread over both replicas' ports (one autocannon process per replica), no proxy; " +
      "4,096 visitors over X-Forwarded-For (TRUST_PROXY=1)\n"
  )
  for (const row of rows) {
    const ratio = row.base === undefined ? "   (base)" : `${(row.rps / row.base).toFixed(2)}x`.padStart(9)
    console.log(
      `${row.label.padEnd(30)} ${row.rps.toFixed(0).padStart(8)} req/s ${ratio}  p99 ${String(row.p99).padStart(4)} ms  non-2xx/3xx ${row.bad}  (${row.load})`
    )
  }
  const redirectRatio = redirectOne.rps / bareRedirect.rps
  console.log(
    `\nredirect, 1 API replica over bare node:http: ${redirectRatio.toFixed(2)}x (target >= ${TARGET_RATIO}x) ${verdict(redirectRatio >= TARGET_RATIO)}`
  )
  const searchRatio = searchOne.rps / proxySearch.rps
  console.log(
    `/api/search, 1 API replica over the bare Meilisearch proxy: ${searchRatio.toFixed(2)}x (target >= 0.85x) ${verdict(searchRatio >= 0.85)}`
  )
  console.log(
    `clicks: ${answered} redirects answered with 302, ${stored} stored in PostgreSQL ` +
      `(${answered === 0 ? "-" : ((stored / answered) * 100).toFixed(2)}%; autocannon leaves out the answers to ` +
      "requests still in flight when its time is up, so stored may exceed answered by up to the connection count per run)"
  )
  console.log(
    [
      "",
      `What ${cpus().length} cores predict: every process here (PostgreSQL, Meilisearch, the worker, both replicas and`,
      "the load generators) shares the same cores, so a second replica adds event loops but no CPU; the 2-replica",
      "ratio shows the cost of one more process and of sharing PostgreSQL, not the gain. On a host (or hosts) with a",
      "core per replica and PostgreSQL on its own machine, redirects scale with the replicas until the click writes",
      "(one batched COPY per replica every few ms) or the network saturate; searches scale until Meilisearch does."
    ].join("\n")
  )
} finally {
  bare.server.close()
  proxy?.child.kill("SIGTERM")
  await Promise.all(processes.map((server) => server.stop()))
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await postgres.stop()
  rmSync(work, { recursive: true, force: true })
}

// The ingest comparison runs after the cluster is gone, so it competes with nothing of ours.
log(
  `\nfeed ingest into PostgreSQL vs DuckDB, ${ingestRows.toLocaleString("en-US")} generated products (bench:ingest --postgres)`
)
const ingest = spawn(
  process.execPath,
  [fileURLToPath(new URL("./ingest.ts", import.meta.url)), "--postgres", "--rows", String(ingestRows)],
  { stdio: ["ignore", "inherit", "inherit"] }
)
const code = await new Promise<number | null>((resolve) => ingest.once("exit", resolve))
console.log(`uptime: ${uptime()}`)
process.exitCode = code ?? 1
