// npm run bench:search-sync -- [--products N]
//
// SearchSync against the floor: N generated products (with their price
// history) are written straight into DuckDB, then in one run:
//   direct  addDocuments of the same documents (built by the same
//           productDocument) into a fresh index with the same settings;
//   sync    SearchSync.syncProducts() from DuckDB into an empty index
//           (history facts computed in SQL, batches read, sent, awaited);
//   rerun   SearchSync.syncProducts() again with nothing changed.
// The products are not loaded through a feed pipeline (bench:ingest does that).
import { Effect, Exit, Layer, Scope } from "effect"
import { rmSync } from "node:fs"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { Database, type RowAppender } from "../infra/Database.ts"
import { startMeili } from "../infra/MeiliServer.ts"
import { Staging } from "../infra/Staging.ts"
import { SearchEngine } from "../infra/SearchEngine.ts"
import { Metrics } from "../infra/Metrics.ts"
import { modelDocuments } from "../readModel/modelDocuments.ts"
import { BATCH_SIZE, SearchSync } from "../pipelines/search/SearchSync.ts"
import { productSettings } from "../readModel/settings.ts"
import { historyFor } from "../scripts/products/history.ts"
import { AS_OF, makeGenerator, type Product } from "../scripts/products/product.ts"
import { selectStores } from "../scripts/products/stores.ts"
import { benchDocument } from "./searchCatalog.ts"

const { values } = parseArgs({ options: { products: { type: "string", default: "200000" } } })
const N = Number(values.products)
const DIR = resolve("data/var/bench-search-sync")
const KEY = "bench-search-sync-master-key"
const FEED = "bench-us"
const log = (message: string) => process.stdout.write(`${message}\n`)
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

const products: Array<Product> = []
const gen = makeGenerator(11, selectStores("us"))
for (let i = 0; i < N; i++) products.push(gen.product(i))

const load = Effect.gen(function* () {
  const db = yield* Database
  yield* db.run(`CREATE TEMP TABLE bench_products (id VARCHAR, item_id VARCHAR, title VARCHAR, description VARCHAR, link VARCHAR,
    image VARCHAR, brand VARCHAR, gtin VARCHAR, category VARCHAR, product_type VARCHAR, store VARCHAR, host VARCHAR,
    currency VARCHAR, price DOUBLE, sale DOUBLE, cur DOUBLE, rrp DOUBLE, availability VARCHAR, cond VARCHAR,
    color VARCHAR, size VARCHAR, item_group VARCHAR)`)
  yield* db.run("CREATE TEMP TABLE bench_history (id VARCHAR, at_ms DOUBLE, price DOUBLE, currency VARCHAR)")
  const text = (appender: RowAppender, value: string | null) =>
    value === null ? appender.appendNull() : appender.appendVarchar(value)
  const num = (appender: RowAppender, value: number | null) =>
    value === null ? appender.appendNull() : appender.appendDouble(value)
  yield* db.append("bench_products", (a) => {
    for (const p of products) {
      for (const v of [
        `${FEED}:${p.id}`,
        p.id,
        p.title,
        p.description,
        p.link,
        p.imageLink,
        p.brand,
        p.gtin,
        p.leaf.path.split(" > ")[0],
        p.leaf.path,
        p.store.name,
        p.store.host,
        p.currency
      ])
        text(a, v)
      for (const v of [p.price, p.salePrice, p.current, p.rrp]) num(a, v)
      text(a, p.availability)
      for (const v of [p.condition, p.color, p.size, p.itemGroupId]) text(a, v)
      a.endRow()
    }
  })
  yield* db.append("bench_history", (a) => {
    for (const p of products) {
      let series: ReadonlyArray<readonly [number, number]>
      try {
        series = historyFor(`${FEED}:${p.id}`, p)
      } catch {
        series = [[AS_OF - 86_400_000, p.current]]
      }
      for (const [at, price] of series) {
        a.appendVarchar(`${FEED}:${p.id}`)
        a.appendDouble(at)
        a.appendDouble(price)
        a.appendVarchar(p.currency)
        a.endRow()
      }
    }
  })
  yield* db.run(`INSERT INTO products SELECT id, '${FEED}', item_id, title, description, link, image, brand, gtin, NULL,
    category, product_type, NULL, store, host, currency, price, sale, cur, rrp, availability, cond, md5(id || cur::VARCHAR),
    TIMESTAMPTZ '2026-11-15 00:00:00+00', TIMESTAMPTZ '2026-11-15 00:00:00+00', color, size, item_group FROM bench_products`)
  yield* db.run(
    `INSERT INTO price_history SELECT id, make_timestamp((at_ms * 1000)::BIGINT), price, currency, NULL FROM bench_history`
  )
})

const main = async () => {
  rmSync(DIR, { recursive: true, force: true })
  const scope = Effect.runSync(Scope.make())
  try {
    const meili = await Effect.runPromise(
      startMeili({ dataDir: join(DIR, "meili"), masterKey: KEY }).pipe(Scope.provide(scope))
    )
    // Staging IS the database here (DuckDB alone).
    const staging = Layer.effect(Staging, Effect.service(Database))
    const layer = SearchSync.layer.pipe(
      Layer.provideMerge(staging),
      Layer.provideMerge(
        Layer.mergeAll(Database.layerMemory, SearchEngine.layerFor(meili.url, KEY, "sync_"), Metrics.layer)
      )
    )
    const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
    const run = <A, E>(effect: Effect.Effect<A, E, Layer.Success<typeof layer>>) =>
      Effect.runPromise(Effect.provide(effect, context))
    let started = performance.now()
    await run(load)
    log(
      `${N.toLocaleString()} products and their price history written to DuckDB in ${seconds(performance.now() - started)}`
    )

    // direct: the same documents, addDocuments in the same batch size, into a fresh index with the same settings
    started = performance.now()
    // one document per model, as SearchSync writes them
    const documents = modelDocuments(products.map((p) => benchDocument(FEED, p)))
    const build = performance.now() - started
    const direct = await run(
      Effect.gen(function* () {
        const search = yield* SearchEngine
        const uid = search.indexUid("direct")
        const t0 = performance.now()
        yield* search.task("create", (c) => c.createIndex(uid, { primaryKey: "id" }))
        yield* search.task("settings", (c) => c.index(uid).updateSettings(productSettings))
        const tasks: Array<number> = []
        for (let i = 0; i < documents.length; i += BATCH_SIZE) {
          const task = yield* search.use("add", (c) => c.index(uid).addDocuments(documents.slice(i, i + BATCH_SIZE)))
          tasks.push(task.taskUid)
        }
        yield* search.use("wait", (c) => c.tasks.waitForTasks(tasks, { timeout: 3_600_000, interval: 50 }))
        return performance.now() - t0
      })
    )
    const sync = async () => {
      const t0 = performance.now()
      const result = await run(SearchSync.use((s) => s.syncProducts()))
      return { ms: performance.now() - t0, result }
    }
    const first = await sync()
    const rerun = await sync()
    const ratio = first.ms / direct
    log(`\n| step                                   | time     | documents |`)
    log(`|----------------------------------------|----------|-----------|`)
    log(
      `| direct addDocuments (docs prebuilt)    | ${seconds(direct).padStart(8)} | ${String(documents.length).padStart(9)} |`
    )
    log(
      `| SearchSync.syncProducts (first run)    | ${seconds(first.ms).padStart(8)} | ${String(first.result.upserted).padStart(9)} |`
    )
    log(
      `| SearchSync.syncProducts (unchanged)    | ${seconds(rerun.ms).padStart(8)} | ${String(rerun.result.upserted).padStart(9)} |`
    )
    log(`\n(building the documents for direct took ${seconds(build)} and is not counted in its time)`)
    log(`sync/direct: ${ratio.toFixed(2)}x (target <= 1.2x) ${ratio <= 1.2 ? "OK" : "MISSED"}`)
    log(`unchanged/first: ${((rerun.ms / first.ms) * 100).toFixed(1)}%`)
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    rmSync(DIR, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exitCode = 1
})
