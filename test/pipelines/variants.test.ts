import { Effect, Exit, Layer, Scope } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AppConfig, type AppConfigShape } from "../../infra/AppConfig.ts"
import { Database } from "../../infra/Database.ts"
import { SearchEngine } from "../../infra/SearchEngine.ts"
import { SearchSync } from "../../pipelines/search/SearchSync.ts"
import { PipelineRunner } from "../../pipelines/PipelineRunner.ts"
import { documentId } from "../../readModel/documents.ts"
import { type ModelDocument, offerDocument } from "../../readModel/modelDocuments.ts"
import { offersOf } from "../../readModel/offerRows.ts"
import { PRODUCTS_INDEX } from "../../readModel/indexes.ts"
import { makeService } from "../../service.ts"
import { tempDir, testConfig } from "../support/TestService.ts"
import { query, rejected, runFeed, startWithFeeds, writeFeeds } from "./support.ts"
import { migrations } from "../../infra/schema.ts"

// Variant attributes (color, size, item_group_id) from all three product
// formats: stored, validated, part of the change hash, and a database of the
// previous schema version upgrades in place.

const GMC_HEADER = [
  "id",
  "title",
  "link",
  "price",
  "availability",
  "gtin",
  "item_group_id",
  "color",
  "size",
  "custom_label_0"
]
const gmcRow = (id: string, title: string, color: string, size = "", group = "G-1", gtin = "") =>
  [id, title, `https://shop.example/p/${id}`, "89.99 USD", "in_stock", gtin, group, color, size, "Shop"].join("\t")
const gmc = (rows: ReadonlyArray<string>) => [GMC_HEADER.join("\t"), ...rows].join("\n") + "\n"

const EARBUDS = "Anker Soundcore Liberty 4 NC Wireless Earbuds"

const variantsOf = (service: Parameters<typeof query>[0], feed: string) =>
  query<{ id: string; color: string | null; size: string | null; item_group_id: string | null }>(
    service,
    "SELECT id, color, size, item_group_id FROM products WHERE feed = $1 ORDER BY id",
    [feed]
  )

describe("variant attributes in product feeds", () => {
  const files = tempDir("variants-")
  const path = (name: string) => join(files.dir, name)
  let env: Awaited<ReturnType<typeof startWithFeeds>>
  beforeAll(async () => {
    env = await startWithFeeds([
      {
        name: "tsv",
        kind: "products",
        format: "gmc-tsv",
        location: path("v.tsv"),
        options: { storeColumn: "custom_label_0" }
      },
      { name: "awin", kind: "products", format: "awin-csv", location: path("v.csv.gz") },
      { name: "rss", kind: "products", format: "gmc-xml", location: path("v.xml"), options: { store: "RSS Shop" } }
    ])
  })
  afterAll(async () => {
    await env.close()
    files.rm()
  })

  it("GMC TSV: color, size and item_group_id are stored; a change of a variant attribute alone is a change (content hash, only that document resent)", async () => {
    writeFileSync(
      path("v.tsv"),
      gmc([
        gmcRow("E1", `${EARBUDS}, White`, "White", "", "G-1", "0194644100001"),
        gmcRow("E2", `${EARBUDS}, Navy`, "Navy", "", "G-1", "0194644100002"),
        gmcRow("S1", "Trail Running Shoes, Size 10", "", "10", "G-2"),
        gmcRow("T1", "Plain Toaster", "", "", "")
      ])
    )
    expect(await runFeed(env.service, "tsv")).toMatchObject({
      status: "succeeded",
      rowsLoaded: 4,
      documentsUpserted: 3
    }) // three models: the earbuds in two colours are one
    expect(await variantsOf(env.service, "tsv")).toEqual([
      { id: "tsv:E1", color: "White", size: null, item_group_id: "G-1" },
      { id: "tsv:E2", color: "Navy", size: null, item_group_id: "G-1" },
      { id: "tsv:S1", color: null, size: "10", item_group_id: "G-2" },
      { id: "tsv:T1", color: null, size: null, item_group_id: null }
    ])
    const before = await query<{ id: string; content_hash: string }>(
      env.service,
      "SELECT id, content_hash FROM products WHERE feed = 'tsv' ORDER BY id"
    )
    // Only the size attribute of S1 changes (its title stays): the row changed, and only its document is resent.
    writeFileSync(
      path("v.tsv"),
      gmc([
        gmcRow("E1", `${EARBUDS}, White`, "White", "", "G-1", "0194644100001"),
        gmcRow("E2", `${EARBUDS}, Navy`, "Navy", "", "G-1", "0194644100002"),
        gmcRow("S1", "Trail Running Shoes, Size 10", "", "11", "G-2"),
        gmcRow("T1", "Plain Toaster", "", "", "")
      ])
    )
    expect(await runFeed(env.service, "tsv")).toMatchObject({ status: "succeeded", documentsUpserted: 1 })
    const after = await query<{ id: string; content_hash: string }>(
      env.service,
      "SELECT id, content_hash FROM products WHERE feed = 'tsv' ORDER BY id"
    )
    expect(after.filter((row, i) => row.content_hash !== before[i].content_hash).map((row) => row.id)).toEqual([
      "tsv:S1"
    ])
    // the two colours are one model in the index; the shoe's title names size 10, its size is now 11: nothing to remove
    const documents = await env.service.run(
      SearchEngine.use((engine) =>
        Effect.promise(() =>
          engine.client
            .index(engine.indexUid(PRODUCTS_INDEX))
            .getDocuments<ModelDocument>({ filter: "feed = tsv", limit: 10 })
        )
      )
    )
    const keys = Object.fromEntries(
      documents.results.flatMap((model) =>
        offersOf(model).map((offer) => [offerDocument(model, offer).product_id, model.model_key])
      )
    )
    expect(keys).toEqual({
      "tsv:E1": "model:anker soundcore liberty 4 nc wireless earbuds",
      "tsv:E2": "model:anker soundcore liberty 4 nc wireless earbuds",
      "tsv:S1": "model:trail running shoes size 10",
      "tsv:T1": "title:plain toaster"
    })
  })

  it("Awin CSV: colour, Fashion:size and parent_product_id; values over Google's limits are rejected with the feed's column name", async () => {
    const header =
      "aw_product_id,product_name,merchant_deep_link,search_price,currency,merchant_name,colour,Fashion:size,parent_product_id"
    const rows = [
      `1001,"${EARBUDS}, Black",https://fnac.example/p/1,79.99,EUR,Fnac,Black,,P-9`,
      `1002,"Trail Running Shoes, EU 42",https://sport.example/p/2,99.00,EUR,SportEU,,EU 42,P-7`,
      `1003,Plain Kettle,https://kettle.example/p/3,29.00,EUR,Kettles,,,`,
      `1004,Odd Mug,https://mug.example/p/4,9.00,EUR,Mugs,${"x".repeat(101)},,`
    ]
    writeFileSync(path("v.csv.gz"), gzipSync([header, ...rows].join("\n") + "\n"))
    const run = await runFeed(env.service, "awin")
    expect(run).toMatchObject({ status: "failed", rowsRead: 4, rowsRejected: 1 }) // 25% > 20%
    expect(await rejected(env.service, run.id)).toEqual([{ line: 5, reason: "colour: must be at most 100 characters" }])
    writeFileSync(path("v.csv.gz"), gzipSync([header, ...rows.slice(0, 3)].join("\n") + "\n"))
    expect(await runFeed(env.service, "awin")).toMatchObject({ status: "succeeded", rowsLoaded: 3 })
    expect(await variantsOf(env.service, "awin")).toEqual([
      { id: "awin:1001", color: "Black", size: null, item_group_id: "P-9" },
      { id: "awin:1002", color: null, size: "EU 42", item_group_id: "P-7" },
      { id: "awin:1003", color: null, size: null, item_group_id: null }
    ])
  })

  it("GMC XML: g:color, g:size, g:item_group_id; an item group id over 50 characters is rejected", async () => {
    const item = (id: string, extra: string) =>
      `<item><g:id>${id}</g:id><title>Hoodie ${id}</title><link>https://hoodies.example/${id}</link>` +
      `<g:price>30.00 GBP</g:price><g:availability>in stock</g:availability>${extra}</item>`
    const rss = (items: string) =>
      `<?xml version="1.0"?><rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><title>t</title>${items}</channel></rss>`
    const good =
      item("H1", "<g:item_group_id>HG-1</g:item_group_id><g:color>Forest Green</g:color><g:size>XL</g:size>") +
      item("H2", "<color>Grey</color>") +
      item("H3", "") +
      item("H4", "") +
      item("H5", "")
    writeFileSync(path("v.xml"), rss(good + item("H6", `<g:item_group_id>${"g".repeat(51)}</g:item_group_id>`)))
    const run = await runFeed(env.service, "rss")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 6, rowsLoaded: 5, rowsRejected: 1 })
    expect(await rejected(env.service, run.id)).toEqual([
      { line: 6, reason: "item_group_id: must be at most 50 characters" }
    ])
    expect((await variantsOf(env.service, "rss")).slice(0, 3)).toEqual([
      { id: "rss:H1", color: "Forest Green", size: "XL", item_group_id: "HG-1" },
      { id: "rss:H2", color: "Grey", size: null, item_group_id: null },
      { id: "rss:H3", color: null, size: null, item_group_id: null }
    ])
  })
})

/** The service on a data folder that outlives it, so a second start reopens the same DuckDB file. */
const boot = async (config: AppConfigShape) => {
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(makeService(Layer.succeed(AppConfig, config)), scope))
  return {
    run: <A, E>(effect: Effect.Effect<A, E, any>) =>
      Effect.runPromise(Effect.provide(effect, context) as Effect.Effect<A, E>),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void)),
    context
  }
}

describe("schema upgrade: a DATA_DIR of the previous version", () => {
  const files = tempDir("variants-upgrade-")
  afterAll(() => files.rm())

  it("gains the variant columns in place, keeps its data, and reloads product feeds on their next run", async () => {
    const file = join(files.dir, "shop.tsv")
    writeFileSync(
      file,
      gmc([
        gmcRow("E1", `${EARBUDS}, White`, "White", "", "G-1", "0194644100001"),
        gmcRow("E2", `${EARBUDS}, Navy`, "Navy", "", "G-1", "0194644100002")
      ])
    )
    const config = testConfig(files.dir, {
      feedsConfigPath: writeFeeds(files.dir, [
        {
          name: "shop",
          kind: "products",
          format: "gmc-tsv",
          location: file,
          options: { storeColumn: "custom_label_0" }
        }
      ])
    })
    const sql = <T>(service: Awaited<ReturnType<typeof boot>>, text: string) =>
      service.run(Database.use((db) => db.query<T>(text)))
    const groupKeys = (service: Awaited<ReturnType<typeof boot>>) =>
      service.run(
        SearchEngine.use((engine) =>
          Effect.promise(async () => {
            const index = engine.client.index(engine.indexUid(PRODUCTS_INDEX))
            return Promise.all(
              ["shop:E1", "shop:E2"].map(
                async (id) =>
                  (await index.search<ModelDocument>("", { filter: `offer_ids = "${documentId(id)}"` })).hits[0]
                    ?.model_key
              )
            )
          })
        )
      )

    // A database as the previous version left it: loaded and synced, then
    // taken back to schema 1 (no variant columns, version 1 recorded).
    const first = await boot(config)
    expect((await first.run(PipelineRunner.use((runner) => runner.run("shop", "manual")))).status).toBe("succeeded")
    await first.run(
      Database.use((db) =>
        db.transaction((tx) =>
          Effect.gen(function* () {
            // (and without what later versions added to products: version 6's first observation)
            yield* tx.run("DROP VIEW price_observations")
            for (const column of ["color", "size", "item_group_id", "first_price", "first_currency"])
              yield* tx.run(`ALTER TABLE products DROP COLUMN ${column}`)
            yield* tx.run("DELETE FROM schema_version WHERE version >= 2")
            // the previous code hashed rows without the variant columns, and its documents (DOCUMENT_VERSION) differently
            yield* tx.run("UPDATE products SET content_hash = 'v1:' || content_hash")
            yield* tx.run("UPDATE search_sync_state SET hash = 'v1:' || hash WHERE index_name LIKE 'products%'")
          })
        )
      )
    )
    expect(
      (await sql<{ name: string }>(first, "SELECT name FROM pragma_table_info('products')")).map((c) => c.name)
    ).not.toContain("color")
    await first.close()

    const second = await boot(config)
    expect(await sql(second, "SELECT max(version) AS v FROM schema_version")).toEqual([{ v: migrations.length }]) // 2 and every later version
    // data kept, new columns empty until the feed runs again
    expect(await sql(second, "SELECT id, color FROM products ORDER BY id")).toEqual([
      { id: "shop:E1", color: null },
      { id: "shop:E2", color: null }
    ])
    // the products index the previous code built is rebuilt at start (pipelines/layer.ts): wait for it, as
    // long as it takes (the shared Meilisearch queues every test file's tasks; the test's timeout bounds it)
    while (await second.run(SearchSync.use((sync) => sync.productsIndexOutdated)))
      await new Promise((resolve) => setTimeout(resolve, 100))
    // the unchanged file is not skipped: the upgrade forgot what the product feed last served
    const rerun = await second.run(PipelineRunner.use((runner) => runner.run("shop", "manual")))
    // one model document: the two colours' model
    expect(rerun).toMatchObject({ status: "succeeded", rowsLoaded: 2, documentsUpserted: 1 })
    expect(await sql(second, "SELECT id, color, item_group_id FROM products ORDER BY id")).toEqual([
      { id: "shop:E1", color: "White", item_group_id: "G-1" },
      { id: "shop:E2", color: "Navy", item_group_id: "G-1" }
    ])
    // and the resent documents group the two colours as one model
    expect(await groupKeys(second)).toEqual([
      "model:anker soundcore liberty 4 nc wireless earbuds",
      "model:anker soundcore liberty 4 nc wireless earbuds"
    ])
    // a further run of the unchanged file is skipped again
    expect((await second.run(PipelineRunner.use((runner) => runner.run("shop", "manual")))).status).toBe("skipped")
    await second.close()
  }, 120_000)
})
