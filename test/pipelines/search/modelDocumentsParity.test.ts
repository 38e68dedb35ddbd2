import { Clock, Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SearchEngine } from "../../../infra/SearchEngine.ts"
import { Staging } from "../../../infra/Staging.ts"
import { SearchSync } from "../../../pipelines/search/SearchSync.ts"
import { productDocument, type ProductRow } from "../../../readModel/documents.ts"
import { type ModelDocument, modelDocuments } from "../../../readModel/modelDocuments.ts"
import { PRODUCTS_INDEX } from "../../../readModel/indexes.ts"
import { PRODUCT_FACT_JOINS, PRODUCT_ROW_COLUMNS, productFactsCtes } from "../../../readModel/productFactsSql.ts"
import { insertProducts, type FixtureProduct } from "../../support/catalogFixtures.ts"
import { startSampleService } from "../../support/sampleService.ts"
import type { RunningService } from "../../support/TestService.ts"

// The search sync keys products in bulk (each distinct title/variant once)
// and builds documents from its own work tables; what it sends must be,
// field for field, what the plain builder makes of the catalog's rows: every
// product keyed on its own (groupKey), offer documents grouped by model
// (modelDocuments). Checked on the sample catalog plus edge cases, after a
// rebuild and after a delta. The sync's rows reach its worker as JSON lines
// DuckDB writes; the plain builder reads them through the driver.

const edgeCases: ReadonlyArray<FixtureProduct> = [
  // one model in three colours (two spellings of grey), sizes, stores and currencies
  { itemId: "e-grey", title: "Trail Runner 3 Shoes, Gray, Size 10", color: "Gray", size: "10", price: 89 },
  {
    itemId: "e-grey-uk",
    title: "Trail Runner 3 Shoes - Grey (Size 10)",
    color: "Grey",
    size: "10",
    price: 79,
    currency: "GBP",
    store: "UK Shop",
    history: [[40, 99]],
    currentSinceDays: 2
  },
  {
    itemId: "e-navy-eu",
    title: "Trail Runner 3 Shoes Navy Blue",
    color: "Navy Blue",
    size: "11",
    price: 95,
    currency: "EUR",
    store: "EU Shop",
    availability: "out_of_stock"
  },
  // a colour word that is the brand's, and a possessive that is not a size
  { itemId: "e-brand", title: "Black+Decker 20V Drill, Black", color: "Black", price: 59 },
  { itemId: "e-poss", title: "Levi's 501 Jeans S", size: "S", price: 49, description: "Straight fit." },
  // condition words (used/refurbished) stay in their model via GTIN, leading zeros and dashes ignored
  {
    itemId: "e-ref",
    title: "Pixel 8 128GB (Refurbished)",
    gtin: "0-0840244-70611-2",
    condition: "refurbished",
    price: 399
  },
  {
    itemId: "e-new",
    title: "Pixel 8 128GB",
    gtin: "840244706112",
    price: 549,
    history: [[50, 699]],
    currentSinceDays: 5
  },
  { itemId: "e-used", title: "Pixel 8 128GB - Used Very Good", gtin: "840244706112", condition: "used", price: 349 },
  // a short GTIN is no GTIN: the title keys it; an item group alone does not switch to the model
  { itemId: "e-short", title: "Desk Lamp LED", gtin: "12345", itemGroupId: "LAMP-1", price: 25 },
  { itemId: "e-group", title: "Desk Lamp LED", itemGroupId: "LAMP-1", price: 27, store: "Other Shop" },
  // a title that is only its colour, a whitespace colour, unicode words
  { itemId: "e-only", title: "Red", color: "Red", price: 5 },
  { itemId: "e-blank", title: "Café Crème Mug", color: "  ", price: 12, productType: "Home > Kitchen > Mugs" },
  // text the rows' JSON (the files DuckDB writes for the worker) must carry through as it is
  {
    itemId: "e-awkward",
    title: 'The "Best" Mug \\ Set\nof\ttwo 😀',
    description: 'Line one\r\nline two \u0001 \u2028 "quoted" \\ 日本語',
    brand: 'Brand "B"',
    price: 14.99,
    history: [[30, 19.99]]
  }
]

const FIXED_NOW = Date.now()

/** The real clock, except that "now" stands still: the reference builder uses the same instant. */
const frozen = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const clock = yield* Clock.Clock
    return yield* effect.pipe(
      Effect.provideService(Clock.Clock, {
        currentTimeMillis: Effect.succeed(FIXED_NOW),
        currentTimeMillisUnsafe: () => FIXED_NOW,
        currentTimeNanos: clock.currentTimeNanos,
        currentTimeNanosUnsafe: () => clock.currentTimeNanosUnsafe(),
        monotonicTimeNanos: clock.monotonicTimeNanos,
        monotonicTimeNanosUnsafe: () => clock.monotonicTimeNanosUnsafe(),
        sleep: (duration) => clock.sleep(duration)
      })
    )
  })

const indexed = (service: RunningService) =>
  service.run(
    Effect.gen(function* () {
      const search = yield* SearchEngine
      const index = search.indexUid(PRODUCTS_INDEX)
      const all: Array<ModelDocument> = []
      for (let offset = 0; ; offset += 1000) {
        const page = yield* search.use("documents", (client) =>
          client.index(index).getDocuments<ModelDocument>({ offset, limit: 1000 })
        )
        all.push(...page.results)
        if (page.results.length < 1000) return all
      }
    })
  )

/** The plain builder over the catalog's rows: each row keyed by groupKey, grouped in JS. */
const reference = (service: RunningService) =>
  service.run(
    Effect.gen(function* () {
      const db = yield* Staging
      const rows = yield* db.query<ProductRow>(
        `WITH ${productFactsCtes("")} SELECT ${PRODUCT_ROW_COLUMNS} FROM p ${PRODUCT_FACT_JOINS}`
      )
      return modelDocuments(rows.map((row) => productDocument(row, new Date(FIXED_NOW))))
    })
  )

const byId = (documents: ReadonlyArray<ModelDocument>) =>
  new Map(documents.map((document) => [document.id, JSON.parse(JSON.stringify(document)) as unknown]))

const expectSameDocuments = async (service: RunningService) => {
  const [sent, built] = [byId(await indexed(service)), byId(await reference(service))]
  expect(sent.size).toBe(built.size)
  for (const [id, document] of built) expect(sent.get(id), id).toEqual(document)
}

const sync = (service: RunningService) => service.run(frozen(SearchSync.use((sync) => sync.syncProducts())))

describe("model documents of the search sync", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startSampleService({ ownIndexes: true })
    await service.run(insertProducts(edgeCases))
  }, 120_000)
  afterAll(() => service.close())

  it("are the plain builder's, field for field, after a rebuild", async () => {
    // a settings hash that no longer matches forces a rebuild of every model
    await service.run(
      Staging.use((db) => db.run("DELETE FROM search_sync_state WHERE index_name = $1", [`${PRODUCTS_INDEX}:settings`]))
    )
    const result = await sync(service)
    expect(result.upserted).toBeGreaterThan(400)
    await expectSameDocuments(service)
  }, 120_000)

  it("are the plain builder's after a delta that moves offers between models", async () => {
    await service.run(
      insertProducts([
        { ...edgeCases[0], title: "Trail Runner 4 Shoes, Gray, Size 10", price: 85 },
        { ...edgeCases[9], title: "Desk Lamp LED Pro" },
        { itemId: "e-added", title: "Trail Runner 3 Shoes, Black", color: "Black", price: 91 }
      ])
    )
    const result = await sync(service)
    expect(result.upserted).toBeGreaterThanOrEqual(3)
    expect(result.upserted).toBeLessThan(20)
    await expectSameDocuments(service)
  }, 120_000)
})
