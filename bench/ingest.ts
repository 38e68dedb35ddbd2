import { Effect, Layer, ManagedRuntime, Option, Redacted, References, Scope, Exit } from "effect"
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { randomBytes } from "node:crypto"
import { AppConfig } from "../infra/AppConfig.ts"
import { Database, DEFAULT_MEMORY_LIMIT, defaultThreads } from "../infra/Database.ts"
import { startMeili } from "../infra/MeiliServer.ts"
import { Metrics } from "../infra/Metrics.ts"
import { SearchEngine } from "../infra/SearchEngine.ts"
import { feedDefinition, FeedsConfig } from "../pipelines/FeedConfig.ts"
import { FeedLoaders } from "../pipelines/FeedLoaders.ts"
import { FeedSource } from "../pipelines/FeedSource.ts"
import { PipelineLoaders } from "../pipelines/layer.ts"
import { PipelineRunner, type RunSummary } from "../pipelines/PipelineRunner.ts"
import { CatalogPublisher } from "../pipelines/publish/CatalogPublisher.ts"
import { Staging } from "../infra/Staging.ts"
import { comparePostgres } from "./ingestPostgres.ts"
import { CatalogEvents } from "../infra/events/CatalogEvents.ts"
import { SearchFollowsLoads } from "../pipelines/search/SearchFollowsLoads.ts"
import { SearchSync } from "../pipelines/search/SearchSync.ts"
import { addDocumentsFrom, exportDocuments } from "./support/directAdd.ts"
import { PRODUCTS_INDEX } from "../readModel/indexes.ts"
import { productSettings } from "../readModel/settings.ts"
import { writeProducts } from "../scripts/generate-products.ts"
import { selectStores } from "../scripts/products/stores.ts"
import { machineLoad } from "./support/machineLoad.ts"

// `npm run bench:ingest [-- --rows 1000000] [--no-search]`: the product
// pipeline against its floors, in one run, on one machine:
//   1. DuckDB's own read_csv of the TSV into a table with the read options our
//      stage uses (the floor of the DuckDB stage; DuckDB's type-sniffing read
//      printed beside it), in a process of its own so it never counts in our
//      peak RSS
//   2. our pipeline run (fetch = sha256 of the file, load into DuckDB, sync to Meilisearch)
//   3. direct Meilisearch addDocuments of the very documents our sync sent
//      (exported from our index first, untimed), same settings, same batches
//   4. a re-run of the unchanged feed
// `--no-search` stops after the DuckDB part (fetch + load, no Meilisearch);
// `--steps` logs the loader's step timings.
// `--postgres` (no Meilisearch either) starts its own embedded PostgreSQL and
// loads the same file twice, into DuckDB alone and with PostgreSQL as the
// system of record (staging in DuckDB + the publish), then times the two
// ways of moving the staged rows into PostgreSQL (bench/ingestPostgres.ts).
// The feed (scripts/generate-products.ts, seed 1) is generated under
// data/var/bench/ once and reused. Meilisearch is a fresh embedded server on
// a free port with a temp data folder. Every figure carries the machine load.

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "1000000" },
    keep: { type: "boolean", default: false },
    "no-search": { type: "boolean", default: false },
    postgres: { type: "boolean", default: false },
    // the loader's per-step timings (its Debug logs)
    steps: { type: "boolean", default: false }
  }
})
const rows = Number(values.rows)
const withSearch = !values["no-search"]
const root = resolve("data/var/bench")
mkdirSync(root, { recursive: true })
const file = join(root, rows === 1_000_000 ? "products-1m.tsv" : `products-${rows}.tsv`)
const work = mkdtempSync(join(root, "run-"))
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const rssMb = () => Math.round(process.resourceUsage().maxRSS / 1024)
// CPU time (all of this process's threads) next to wall time: on a shared
// machine the wall clock mostly measures the other tenants, CPU time much less.
const timed = async <A>(f: () => Promise<A>) => {
  const started = performance.now()
  const cpu = process.cpuUsage()
  const value = await f()
  const used = process.cpuUsage(cpu)
  return { value, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, load: machineLoad() }
}
const threads = process.env.DUCKDB_THREADS ?? String(defaultThreads())
const memoryLimit = process.env.DUCKDB_MEMORY_LIMIT ?? DEFAULT_MEMORY_LIMIT

interface Timing {
  readonly ms: number
  readonly cpuMs: number
}

/** The read_csv floors, in a child process on the service's DuckDB settings (see support/readCsvFloor.ts). */
const readCsvFloor = () => {
  const out = execFileSync(
    process.execPath,
    [resolve(import.meta.dirname, "support/readCsvFloor.ts"), file, work, threads, memoryLimit],
    { encoding: "utf8" }
  )
  return { ...(JSON.parse(out) as { same: Timing; sniffed: Timing; rssMb: number }), load: machineLoad() }
}

const feed = feedDefinition({
  name: "bench",
  kind: "products",
  format: "gmc-tsv",
  location: file,
  options: { storeColumn: "custom_label_0" }
})
const quietLogs = Layer.succeed(References.MinimumLogLevel, values.steps ? "Debug" : "Warn")

/**
 * Fetch (sha256 of the file) and load, as the runner does, without the
 * runner's search sync: into DuckDB, or (`databaseUrl`) into PostgreSQL
 * through staging.
 */
const loadOnly = async (databaseUrl?: string) => {
  const layer = PipelineLoaders.pipe(
    Layer.provideMerge(Layer.mergeAll(FeedLoaders.layer, FeedSource.layer, CatalogPublisher.layer)),
    Layer.provideMerge(Staging.layer),
    Layer.provideMerge(Layer.mergeAll(Database.layer, Metrics.layer)),
    Layer.provideMerge(
      AppConfig.layerWith({
        dataDir: databaseUrl === undefined ? work : join(work, "pg"),
        databaseUrl: databaseUrl === undefined ? Option.none() : Option.some(Redacted.make(databaseUrl))
      })
    ),
    Layer.provideMerge(quietLogs)
  )
  const runtime = ManagedRuntime.make(layer)
  try {
    await runtime.runPromise(Effect.void) // open DuckDB and migrate before the clock starts
    const fetched = await timed(() => runtime.runPromise(FeedSource.use((source) => source.fetch(feed, "bench-run"))))
    // Up to a CHECKPOINT, as the floor: a small feed's commit can leave its
    // rows in the WAL, whose compression into the file would be paid later.
    const loaded = await timed(() =>
      runtime.runPromise(
        Effect.gen(function* () {
          const loaders = yield* FeedLoaders
          const result = yield* loaders
            .get("products")!
            .load({ feed, runId: "bench-run", file, gzip: false, progress: () => {} })
          yield* Database.use((db) => db.run("CHECKPOINT"))
          return result
        })
      )
    )
    return { fetched, loaded }
  } finally {
    await runtime.dispose()
  }
}

/** One figure: wall time (and CPU time when measured apart), its ratio to its floor, the machine load. */
type Line = readonly [
  label: string,
  ms: number | null,
  ratio: number | null,
  load: string,
  cpu?: { ms: number; ratio: number | null }
]
const times = (ratio: number | null) =>
  ratio === null ? "" : ratio < 0.1 ? `${ratio.toFixed(3)}x` : `${ratio.toFixed(2)}x`

const print = (lines: ReadonlyArray<Line>, rowsNote: string, rssNote: string, note = "") => {
  console.log(
    `\nbench:ingest, ${rows.toLocaleString("en-US")} products (gmc-tsv, ${(statSync(file).size / 1e6).toFixed(0)} MB); DuckDB threads ${threads}, memory limit ${memoryLimit}`
  )
  for (const [label, ms, ratio, load, cpu] of lines) {
    const cpuFigure = cpu === undefined ? "" : `   cpu ${seconds(cpu.ms).padStart(7)} ${times(cpu.ratio).padStart(6)}`
    console.log(
      `${label.padEnd(60)} ${(ms === null ? "n/a" : seconds(ms)).padStart(9)} ${times(ratio).padStart(7)}${cpuFigure}   (${load})`
    )
  }
  console.log(
    `targets: DuckDB stage <= 1.5x read_csv; search stage <= 1.2x direct; unchanged re-run < 10% of the first run; peak RSS <= 1.5 GB${note}`
  )
  console.log(rowsNote)
  console.log(rssNote)
}

const main = async () => {
  if (!existsSync(file)) {
    process.stderr.write(`generating ${rows} products into ${file} ...\n`)
    await writeProducts({ format: "gmc-tsv", count: rows, seed: 1, out: file, stores: selectStores("us") })
  }
  if (values.postgres) return comparePostgres({ work, rows, loadOnly, seconds, times })
  process.stderr.write(`feed: ${file} (${(statSync(file).size / 1e6).toFixed(0)} MB, ${rows} rows), ${machineLoad()}\n`)

  // 1. the floor (our read options), and DuckDB's defaults for reference
  const floors = readCsvFloor()
  const floor = floors.same
  process.stderr.write(`floor read_csv: ${seconds(floor.ms)} (${floors.load})\n`)
  const floorLines: Array<Line> = [
    [
      "DuckDB read_csv into a table, our options (floor)",
      floor.ms,
      null,
      floors.load,
      { ms: floor.cpuMs, ratio: null }
    ],
    [
      "  (DuckDB read_csv with type sniffing, for reference)",
      floors.sniffed.ms,
      floors.sniffed.ms / floor.ms,
      floors.load,
      { ms: floors.sniffed.cpuMs, ratio: floors.sniffed.cpuMs / floor.cpuMs }
    ]
  ]
  const floorRss = `read_csv floor process: peak RSS ${floors.rssMb} MB`

  if (!withSearch) {
    // 2. our fetch + load only
    const { fetched, loaded } = await loadOnly()
    const result = loaded.value
    print(
      [
        ...floorLines,
        [
          "our load into DuckDB (stage, validate, replace, checkpoint)",
          loaded.ms,
          loaded.ms / floor.ms,
          loaded.load,
          {
            ms: loaded.cpuMs,
            ratio: loaded.cpuMs / floor.cpuMs
          }
        ],
        [
          "our fetch + load (adds the sha256 of the file)",
          fetched.ms + loaded.ms,
          (fetched.ms + loaded.ms) / floor.ms,
          loaded.load,
          {
            ms: fetched.cpuMs + loaded.cpuMs,
            ratio: (fetched.cpuMs + loaded.cpuMs) / floor.cpuMs
          }
        ]
      ],
      `rows: read ${result.rowsRead}, loaded ${result.rowsLoaded}, rejected ${result.rowsRejected} (--no-search: no Meilisearch)`,
      `peak RSS: ${rssMb()} MB after fetch + load (this process); ${floorRss}`
    )
    return
  }

  const scope = Effect.runSync(Scope.make())
  const meili = await Effect.runPromise(
    startMeili({ dataDir: join(work, "meili"), masterKey: randomBytes(16).toString("hex") }).pipe(Scope.provide(scope))
  )
  const infra = Layer.mergeAll(
    Staging.layer,
    CatalogEvents.layer,
    SearchEngine.layerFor(meili.url, meili.masterKey, "bench_"),
    Metrics.layer
  ).pipe(Layer.provideMerge(Database.layer))
  const layer = PipelineRunner.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(PipelineLoaders, SearchFollowsLoads)),
    Layer.provideMerge(
      Layer.mergeAll(FeedLoaders.layer, FeedSource.layer, FeedsConfig.layerWith([feed]), CatalogPublisher.layer)
    ),
    Layer.provideMerge(SearchSync.layer),
    Layer.provideMerge(infra),
    Layer.provideMerge(AppConfig.layerWith({ dataDir: work })),
    Layer.provideMerge(quietLogs)
  )
  const runtime = ManagedRuntime.make(layer)
  try {
    // 2. our pipeline
    const run = (label: string) =>
      timed(() => runtime.runPromise(PipelineRunner.use((runner) => runner.run("bench", "manual")))).then((result) => {
        process.stderr.write(
          `${label}: ${result.value.status} in ${seconds(result.ms)} ${JSON.stringify(result.value.timings ?? {})} (${result.load})\n`
        )
        return result
      })
    const first = await run("pipeline")
    const rssAfterPipeline = rssMb()
    const t = first.value.timings ?? { fetchMs: 0, loadMs: 0, syncMs: 0 }
    const lines: Array<Line> = [
      ...floorLines,
      // the runner's own timing: no checkpoint here (--no-search measures with one)
      ["our load into DuckDB (stage, validate, replace)", t.loadMs, t.loadMs / floor.ms, first.load],
      [
        "our fetch + load (adds the sha256 of the file)",
        t.fetchMs + t.loadMs,
        (t.fetchMs + t.loadMs) / floor.ms,
        first.load
      ]
    ]
    const rowsNote = `rows: read ${first.value.rowsRead}, loaded ${first.value.rowsLoaded}, rejected ${first.value.rowsRejected}; documents ${first.value.documentsUpserted}`
    const rssNote = () =>
      `peak RSS: ${rssAfterPipeline} MB after the pipeline run, ${rssMb()} MB at the end (this process; Meilisearch is a separate process); ${floorRss}`
    if (first.value.status !== "succeeded") {
      // A failed search sync still leaves the DuckDB figures worth reporting.
      lines.push(["our search sync: FAILED", null, null, first.load])
      print(lines, rowsNote, rssNote(), `\nthe run failed: ${first.value.error}`)
      process.exitCode = 1
      return
    }
    // 3. direct addDocuments of the same documents
    const engine = await runtime.runPromise(SearchEngine.use((engine) => Effect.succeed(engine)))
    const exported = join(work, "documents.ndjson")
    await exportDocuments(engine.client.index(engine.indexUid(PRODUCTS_INDEX)), exported)
    const directUid = engine.indexUid("direct")
    await runtime.runPromise(
      engine.task("create direct", (client) => client.createIndex(directUid, { primaryKey: "id" }))
    )
    await runtime.runPromise(
      engine.task("settings direct", (client) => client.index(directUid).updateSettings(productSettings))
    )
    const direct = await timed(() => addDocumentsFrom(engine.client.index(directUid), exported))
    process.stderr.write(`direct addDocuments: ${direct.value} documents in ${seconds(direct.ms)} (${direct.load})\n`)

    // 4. the unchanged feed again
    const rerun = await run("re-run (unchanged)")

    lines.push(
      ["direct Meilisearch addDocuments (floor)", direct.ms, null, direct.load],
      ["our search sync (read DuckDB, build, send, await)", t.syncMs, t.syncMs / direct.ms, first.load],
      ["our whole first run", first.ms, null, first.load],
      ["re-run of the unchanged feed", rerun.ms, rerun.ms / first.ms, rerun.load]
    )
    print(lines, rowsNote, rssNote())
    return first.value as RunSummary
  } finally {
    await runtime.dispose()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

main()
  .finally(() => {
    if (!values.keep) rmSync(work, { recursive: true, force: true })
  })
  .catch((error: unknown) => {
    process.stderr.write(
      `bench:ingest failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`
    )
    process.exitCode = 1
  })
