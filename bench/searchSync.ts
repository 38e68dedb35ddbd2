// npm run bench:search-sync -- [--products N]
//
// SearchSync against its floor, at any size without holding the catalog in
// memory: the generated feed (bench/support/pipelineCatalog.ts) is loaded
// into DuckDB by the product loader, then in one run:
//   sync    SearchSync.syncProducts() from DuckDB into an empty index
//           (price facts in SQL, model documents built, sent, awaited);
//   direct  addDocuments of the very documents the sync wrote (read back
//           from its index, untimed) into a fresh index with the same
//           settings, in the batches the sync cuts (modelBatches.ts);
//   rerun   SearchSync.syncProducts() again with nothing changed.
import { Effect, Exit, Scope } from "effect"
import { mkdirSync, rmSync } from "node:fs"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { DEFAULT_MEMORY_LIMIT as DUCKDB_MEMORY_LIMIT } from "../infra/Database.ts"
import { startMeili } from "../infra/MeiliServer.ts"
import { SearchEngine } from "../infra/SearchEngine.ts"
import { SearchSync } from "../pipelines/search/SearchSync.ts"
import { PRODUCTS_INDEX } from "../readModel/indexes.ts"
import { productSettings } from "../readModel/settings.ts"
import { addDocumentsFrom, exportDocuments } from "./support/directAdd.ts"
import { machineLoad } from "./support/machineLoad.ts"
import { watchMainThread } from "./support/threadCpu.ts"
import { benchFeedFile, loadCatalog, pipelineRuntime } from "./support/pipelineCatalog.ts"

const { values } = parseArgs({ options: { products: { type: "string", default: "200000" } } })
const N = Number(values.products)
const DIR = resolve("data/var/bench-search-sync")
const KEY = "bench-search-sync-master-key"
const log = (message: string) => process.stdout.write(`${message}\n`)
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const timed = async <A>(f: () => Promise<A>) => {
  const started = performance.now()
  const value = await f()
  return { value, ms: performance.now() - started, load: machineLoad() }
}

/**
 * The main thread's CPU time while `f` runs, in all and its longest stretch
 * between two timer turns: what a sync takes from the event loop a ROLE=all
 * service serves with.
 */
const mainThreadCpu = async <A>(f: () => Promise<A>) => {
  const watch = watchMainThread()
  try {
    return { value: await f(), ...watch.stop() }
  } catch (error) {
    watch.stop()
    throw error
  }
}

const main = async () => {
  rmSync(join(DIR, "run"), { recursive: true, force: true })
  mkdirSync(join(DIR, "run"), { recursive: true })
  const file = await benchFeedFile(resolve("data/var/bench-search/feeds"), N)
  const scope = Effect.runSync(Scope.make())
  const meili = await Effect.runPromise(
    startMeili({ dataDir: join(DIR, "run", "meili"), masterKey: KEY }).pipe(Scope.provide(scope))
  )
  const runtime = pipelineRuntime(file, {
    dataDir: join(DIR, "run"),
    meiliUrl: meili.url,
    masterKey: KEY,
    indexPrefix: "sync_"
  })
  try {
    const loaded = await timed(() => runtime.runPromise(loadCatalog(file)))
    log(
      `${loaded.value.rowsLoaded.toLocaleString()} products loaded into DuckDB by the product loader in ${seconds(loaded.ms)} (${loaded.load})`
    )
    const loadPeakMb = process.resourceUsage().maxRSS / 1024
    const sync = () => timed(() => runtime.runPromise(SearchSync.use((s) => s.syncProducts())))
    const watched = await mainThreadCpu(sync)
    const first = watched.value
    log(`sync: ${first.value.upserted.toLocaleString()} model documents in ${seconds(first.ms)} (${first.load})`)
    log(
      `sync: the main thread's CPU ${seconds(watched.cpuMs)}, longest between two 2 ms timer turns ${watched.longestMs.toFixed(0)} ms`
    )
    // Before the direct sender holds its batches: the peak of loading and syncing alone.
    const syncPeakMb = process.resourceUsage().maxRSS / 1024

    const engine = await runtime.runPromise(SearchEngine.use((engine) => Effect.succeed(engine)))
    const exported = join(DIR, "run", "documents.ndjson")
    await exportDocuments(engine.client.index(engine.indexUid(PRODUCTS_INDEX)), exported)
    const directUid = engine.indexUid("direct")
    await runtime.runPromise(engine.task("create", (c) => c.createIndex(directUid, { primaryKey: "id" })))
    await runtime.runPromise(engine.task("settings", (c) => c.index(directUid).updateSettings(productSettings)))
    const direct = await timed(() => addDocumentsFrom(engine.client.index(directUid), exported))
    log(`direct: ${direct.value.toLocaleString()} documents in ${seconds(direct.ms)} (${direct.load})`)

    const rerun = await sync()
    for (const [name, run] of [
      ["first run", first],
      ["unchanged", rerun]
    ] as const) {
      log(`\nphases, ${name} (${run.load}):`)
      for (const phase of run.value.phases ?? []) log(`  ${phase.name.padEnd(40)} ${seconds(phase.ms).padStart(8)}`)
    }
    const ratio = first.ms / direct.ms
    log(`\nbench:search-sync, ${N.toLocaleString()} products (${first.value.upserted.toLocaleString()} models)`)
    log(`| step                                   | time     | documents | load           |`)
    log(`|----------------------------------------|----------|-----------|----------------|`)
    const row = (name: string, ms: number, documents: number, load: string) =>
      log(`| ${name.padEnd(38)} | ${seconds(ms).padStart(8)} | ${String(documents).padStart(9)} | ${load} |`)
    row("direct addDocuments (docs prebuilt)", direct.ms, direct.value, direct.load)
    row("SearchSync.syncProducts (first run)", first.ms, first.value.upserted, first.load)
    row("SearchSync.syncProducts (unchanged)", rerun.ms, rerun.value.upserted, rerun.load)
    log(`\nsync/direct: ${ratio.toFixed(2)}x (target <= 1.2x) ${ratio <= 1.2 ? "OK" : "MISSED"}`)
    log(`unchanged/first: ${((rerun.ms / first.ms) * 100).toFixed(1)}%`)
    log(`peak RSS: ${loadPeakMb.toFixed(0)} MB through the load (DuckDB memory limit ${DUCKDB_MEMORY_LIMIT})`)
    log(`peak RSS: ${syncPeakMb.toFixed(0)} MB through the load and the sync`)
    log(
      `peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB for the whole run (with the direct sender's batches)`
    )
  } finally {
    await runtime.dispose()
    await Effect.runPromise(Scope.close(scope, Exit.void))
    rmSync(join(DIR, "run"), { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exitCode = 1
})
