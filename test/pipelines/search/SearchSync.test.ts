import { Effect } from "effect"
import type { Index } from "meilisearch"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "../../../infra/Database.ts"
import { SearchEngine } from "../../../infra/SearchEngine.ts"
import { documentId } from "../../../readModel/documents.ts"
import { type ModelDocument, offerDocument } from "../../../readModel/modelDocuments.ts"
import { offersOf } from "../../../readModel/offerRows.ts"
import { SearchSync } from "../../../pipelines/search/SearchSync.ts"
import { PRODUCTS_INDEX, PROGRAMS_INDEX } from "../../../readModel/indexes.ts"
import { productSettings, settingsHash } from "../../../readModel/settings.ts"
import { deleteProducts, insertProducts, type FixtureProduct } from "../../support/catalogFixtures.ts"
import { startService, type RunningService } from "../../support/TestService.ts"

const products: Array<FixtureProduct> = [
  {
    itemId: "a1",
    title: "Acme Wireless Earbuds",
    brand: "Acme",
    category: "Electronics",
    price: 79,
    history: [[40, 99]],
    currentSinceDays: 1
  },
  { itemId: "a2", title: "Acme 4K Television 55 inch", brand: "Acme", category: "Electronics", price: 499 },
  { itemId: "a3", title: "Coffee grinder", category: "Home", price: 39, feed: "other" }
]

const modelDocs = (service: RunningService) =>
  service.run(
    Effect.gen(function* () {
      const search = yield* SearchEngine
      const result = yield* search.use("docs", (client) =>
        client.index(search.indexUid(PRODUCTS_INDEX)).getDocuments<ModelDocument>({ limit: 1000 })
      )
      return result.results
    })
  )

/** Every offer in the index (each model document embeds its offers). */
const allDocuments = async (service: RunningService): Promise<Array<Record<string, any>>> =>
  (await modelDocs(service)).flatMap((model) => offersOf(model).map((offer) => offerDocument(model, offer)))

describe("SearchSync", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
    await service.run(insertProducts(products))
  })
  afterAll(() => service.close())

  it("builds the products index on first sync, with deal facts in the documents", async () => {
    const result = await service.run(SearchSync.use((sync) => sync.syncProducts()))
    expect(result).toMatchObject({ upserted: 3, deleted: 0 })
    const docs = await allDocuments(service)
    expect(docs).toHaveLength(3)
    const earbuds = docs.find((doc) => doc.product_id === "fixture:a1")!
    expect(earbuds).toMatchObject({
      id: documentId("fixture:a1"),
      price: 79,
      reference_price: 99,
      discount: 20,
      is_deal: true
    })
    expect(earbuds.deal_score).toBeGreaterThan(0)
    const tv = docs.find((doc) => doc.product_id === "fixture:a2")!
    expect(tv).toMatchObject({ reference_price: null, is_deal: false, discount: 0 })
  })

  it("sends nothing when nothing changed, only changes otherwise, and deletes vanished products", async () => {
    const sync = (feed?: string) => service.run(SearchSync.use((sync) => sync.syncProducts(feed)))
    expect(await sync()).toMatchObject({ upserted: 0, deleted: 0 })
    await service.run(insertProducts([{ ...products[1], price: 449, history: [[20, 499]] }]))
    await service.run(deleteProducts(["fixture:a1"]))
    expect(await sync("fixture")).toMatchObject({ upserted: 1, deleted: 1 })
    const docs = await allDocuments(service)
    expect(docs.map((doc) => doc.product_id).sort()).toEqual(["fixture:a2", "other:a3"])
    expect(docs.find((doc) => doc.product_id === "fixture:a2")).toMatchObject({ price: 449, reference_price: 499 })
    expect(await sync()).toMatchObject({ upserted: 0, deleted: 0 })
  })

  it("rebuilds and swaps when the index is out of step with the sync state", async () => {
    await service.run(
      Effect.gen(function* () {
        const search = yield* SearchEngine
        yield* search.task("wipe", (client) => client.index(search.indexUid(PRODUCTS_INDEX)).deleteAllDocuments())
      })
    )
    const result = await service.run(SearchSync.use((sync) => sync.syncProducts()))
    expect(result.upserted).toBe(2)
    expect(await allDocuments(service)).toHaveLength(2)
    const indexes = await service.run(
      Effect.gen(function* () {
        const search = yield* SearchEngine
        return (yield* search.use("list", (client) => client.getRawIndexes({ limit: 1000 }))).results.map((i) => i.uid)
      })
    )
    // the temporary build index is gone after the swap
    expect(indexes.filter((uid) => uid.startsWith(service.config.meiliIndexPrefix)).sort()).toEqual([
      `${service.config.meiliIndexPrefix}${PRODUCTS_INDEX}`
    ])
  })

  it("rebuilds when the stored settings hash differs (settings change)", async () => {
    await service.run(
      Effect.gen(function* () {
        const db = yield* Database
        yield* db.run("UPDATE search_sync_state SET hash = 'old' WHERE index_name = 'products:settings'")
      })
    )
    const result = await service.run(SearchSync.use((sync) => sync.syncProducts()))
    expect(result.upserted).toBe(2)
    const settings = await service.run(
      Effect.gen(function* () {
        const search = yield* SearchEngine
        return yield* search.use("settings", (client) => client.index(search.indexUid(PRODUCTS_INDEX)).getSettings())
      })
    )
    expect(settings.sortableAttributes).toEqual(expect.arrayContaining(["price", "discount", "deal_score"]))
    expect(settings.synonyms?.earbuds).toContain("earphones")
  })

  it("rebuilds when the documents were built in an earlier shape (DOCUMENT_VERSION), keeping none of them", async () => {
    const createdAt = () =>
      service.run(
        SearchEngine.use((search) =>
          search.use("index", (client) => client.getRawIndex(search.indexUid(PRODUCTS_INDEX)))
        ).pipe(Effect.map((index) => index.createdAt))
      )
    const before = await createdAt()
    await service.run(
      Effect.gen(function* () {
        const db = yield* Database
        const search = yield* SearchEngine
        // what the release before offer rows recorded (its settings, no document version) and one
        // of its documents (offer objects in offer_list): same settings, same count, so only the
        // document version tells the sync that a delta would leave old documents beside new ones
        yield* db.run("UPDATE search_sync_state SET hash = $1 WHERE index_name = 'products:settings'", [
          settingsHash(productSettings)
        ])
        const [model] = yield* search
          .use("docs", (client) =>
            client.index(search.indexUid(PRODUCTS_INDEX)).getDocuments<ModelDocument>({ limit: 1 })
          )
          .pipe(Effect.map((page) => page.results))
        const { offer_rows: _rows, offer_more: _more, ...rest } = model
        yield* search.task("old shape", (client) =>
          client.index(search.indexUid(PRODUCTS_INDEX)).addDocuments([{ ...rest, offer_list: offersOf(model) }])
        )
      })
    )
    const result = await service.run(SearchSync.use((sync) => sync.syncProducts()))
    expect(result.upserted).toBe(2)
    // a fresh index swapped in, not a delta into the live one
    expect(new Date(await createdAt()).getTime()).toBeGreaterThan(new Date(before).getTime())
    const documents = await modelDocs(service)
    expect(documents.map((model) => [Object.hasOwn(model, "offer_list"), model.offer_rows.length])).toEqual([
      [false, 1],
      [false, 1]
    ])
    // recorded with the current shape: the next sync is a delta again
    expect(await service.run(SearchSync.use((sync) => sync.syncProducts()))).toMatchObject({ upserted: 0, deleted: 0 })
  })

  it("treats a repeated observation of the same price as no change", async () => {
    // history: 100 from 40 days ago, 80 from 10 days ago; the load today saw 80 again
    await service.run(
      insertProducts([
        {
          itemId: "rep",
          title: "Repeated price kettle",
          price: 80,
          history: [
            [40, 100],
            [10, 80]
          ],
          currentSinceDays: 0
        }
      ])
    )
    await service.run(SearchSync.use((sync) => sync.syncProducts("fixture")))
    const doc = (await allDocuments(service)).find((d) => d.product_id === "fixture:rep")!
    expect(doc).toMatchObject({ price: 80, reference_price: 100, discount: 20, is_deal: true })
    expect(new Date(doc.price_since).getTime()).toBeLessThan(Date.now() - 9 * 86_400_000)
  })

  it("sends one document per model, and only the models whose offers changed, appeared or vanished", async () => {
    const sync = () => service.run(SearchSync.use((sync) => sync.syncProducts()))
    await sync()
    const before = (await modelDocs(service)).length
    // one pair of boots in two colours at two stores: one model
    const boots = [
      {
        itemId: "b1",
        title: "Trailmaster Hiking Boots, Brown",
        color: "Brown",
        size: "42",
        store: "Shop A",
        price: 120
      },
      {
        itemId: "b2",
        title: "Trailmaster Hiking Boots, Black",
        color: "Black",
        size: "43",
        store: "Shop B",
        price: 110,
        history: [[40, 150]] as Array<[number, number]>,
        currentSinceDays: 2
      }
    ]
    await service.run(insertProducts(boots))
    expect(await sync()).toMatchObject({ upserted: 1, deleted: 0 })
    const models = await modelDocs(service)
    expect(models).toHaveLength(before + 1)
    const model = models.find((doc) => doc.model_key === "model:trailmaster hiking boots")!
    // the best offer first: the verified saving beats the lower price of nothing
    expect(model).toMatchObject({
      offers: 2,
      stores: 2,
      store: ["Shop B", "Shop A"],
      price: [110, 120],
      price_min: { USD: 110 },
      price_max: { USD: 120 },
      colors: ["Black", "Brown"],
      sizes: ["43", "42"]
    })
    expect(offersOf(model).map((offer) => offerDocument(model, offer).product_id)).toEqual(["fixture:b2", "fixture:b1"])
    expect(model.offer_ids).toEqual([documentId("fixture:b2"), documentId("fixture:b1")])
    // a restart (a second sync with nothing changed) resends nothing
    expect(await sync()).toMatchObject({ upserted: 0, deleted: 0 })
    // one offer's price changes: only its model is resent
    await service.run(insertProducts([boots[0], { ...boots[1], price: 99 }]))
    expect(await sync()).toMatchObject({ upserted: 1, deleted: 0 })
    expect((await modelDocs(service)).find((doc) => doc.id === model.id)?.price_min).toEqual({ USD: 99 })
    // one offer goes: the model is resent without it; the last one goes: the model is deleted
    await service.run(deleteProducts(["fixture:b2"]))
    expect(await sync()).toMatchObject({ upserted: 1, deleted: 0 })
    expect((await modelDocs(service)).find((doc) => doc.id === model.id)?.offers).toBe(1)
    await service.run(deleteProducts(["fixture:b1"]))
    expect(await sync()).toMatchObject({ upserted: 0, deleted: 1 })
    expect(await modelDocs(service)).toHaveLength(before)
  })

  it("syncs programmes with a delta", async () => {
    await service.run(
      Effect.gen(function* () {
        const db = yield* Database
        yield* db.run(`INSERT INTO programs VALUES ('awin:1', 'awin', '1', 'Example Shop', ['shop.example.com'], 'US',
        'Electronics', 'CPS', 5, NULL, 30, 'active', true, NULL, '{}', 'programs', now())`)
      })
    )
    const sync = () => service.run(SearchSync.use((sync) => sync.syncPrograms()))
    const sql = (statement: string) => service.run(Database.use((db) => db.run(statement)))
    const programmesIndex = <A>(use: (index: Index) => Promise<A>) =>
      service.run(
        Effect.gen(function* () {
          const search = yield* SearchEngine
          return yield* search.use("read", (client) => use(client.index(search.indexUid(PROGRAMS_INDEX))))
        })
      )
    const documentOf = (id: string) => programmesIndex((index) => index.getDocument(documentId(id)))
    expect(await sync()).toMatchObject({ upserted: 1, deleted: 0 })
    expect(await documentOf("awin:1")).toEqual({
      id: documentId("awin:1"),
      program_id: "awin:1",
      network_id: "awin",
      network_name: null,
      merchant_id: "1",
      name: "Example Shop",
      domains: ["shop.example.com"],
      country: "US",
      category: "Electronics",
      commission_type: "CPS",
      commission_rate: 5,
      commission_currency: null,
      cookie_days: 30,
      status: "active",
      deep_link_allowed: true,
      epc: null
    })
    expect(await sync()).toMatchObject({ upserted: 0, deleted: 0 })
    // a changed field sends that programme again, and only it
    await sql("UPDATE programs SET commission_rate = 6.5 WHERE id = 'awin:1'")
    expect(await sync()).toMatchObject({ upserted: 1, deleted: 0 })
    expect(await documentOf("awin:1")).toMatchObject({ commission_rate: 6.5 })
    // more programmes than a page, sent a page at a time; then none changed
    await sql(`INSERT INTO programs SELECT 'cj:' || i, 'cj', i::VARCHAR, 'Shop ' || i, ['shop' || i || '.example'], 'GB',
      NULL, 'CPS', 3, NULL, NULL, 'active', false, 0.25, '{}', 'programs', now() FROM range(2500) t(i)`)
    expect(await sync()).toMatchObject({ upserted: 2_500, deleted: 0 })
    expect(await documentOf("cj:1999")).toMatchObject({ name: "Shop 1999", epc: 0.25, deep_link_allowed: false })
    expect(await sync()).toMatchObject({ upserted: 0, deleted: 0 })
    await sql("DELETE FROM programs")
    expect(await sync()).toMatchObject({ upserted: 0, deleted: 2_501 })
    expect((await programmesIndex((index) => index.getStats())).numberOfDocuments).toBe(0)
  })
})
