import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { bind, discountAtLeastSql, productRowsSql } from "../../ai/deals/dealQueries.ts"
import { Database } from "../../infra/Database.ts"
import { testDatabaseLayer } from "../support/testDatabase.ts"
import { productDocument, type ProductRow } from "../../readModel/documents.ts"
import { type FixtureProduct, insertProducts, productId } from "../support/catalogFixtures.ts"

// The deal lists filter by discount in SQL (so they can stop at their
// limit); the discovery feed computes it in domain/deals/deal.ts. Both must
// give the same discount and reference kind for any price history, or a list
// would show a deal the feed does not call one (or hide one it does).

const PRICES = [80, 90, 99, 100, 110, 120, 150]

const history = fc.record({
  earlier: fc.uniqueArray(fc.integer({ min: 1, max: 120 }), { minLength: 0, maxLength: 5 }),
  prices: fc.array(fc.constantFrom(...PRICES), { minLength: 6, maxLength: 6 }),
  currentSinceDays: fc.constantFrom(0, 0.5, 1, 2, 10)
})

describe("SQL discount rule = deal.ts", () => {
  it("gives the same discount and reference kind for random price histories", async () => {
    const samples = fc.sample(history, 300)
    const products: Array<FixtureProduct> = samples.map((sample, n) => {
      const days = sample.earlier.filter((day) => day > sample.currentSinceDays).sort((a, b) => b - a)
      return {
        itemId: `h${n}`,
        title: `History ${n}`,
        price: sample.prices[5],
        history: days.map((day, i) => [day, sample.prices[i]] as const),
        currentSinceDays: sample.currentSinceDays
      }
    })
    const ids = products.map(productId)
    const [sqlRows, catalogRows] = await Effect.runPromise(
      Effect.gen(function* () {
        yield* insertProducts(products)
        const db = yield* Database
        const discounts = bind(discountAtLeastSql(db), { ids: JSON.stringify(ids), min_discount: 0 })
        const rows = bind(productRowsSql(db), { ids: JSON.stringify(ids) })
        return [
          yield* db.query<{ id: string; discount: number; kind: string | null }>(discounts.sql, discounts.params),
          yield* db.query<ProductRow>(rows.sql, rows.params)
        ] as const
      }).pipe(Effect.provide(testDatabaseLayer()))
    )
    const now = new Date()
    const fromDomain = new Map(
      catalogRows.map((row) => {
        const doc = productDocument(row, now)
        return [row.id, { discount: doc.discount, kind: doc.reference_kind }]
      })
    )
    expect(sqlRows.length).toBe(products.length)
    for (const row of sqlRows) {
      expect({ id: row.id, discount: row.discount, kind: row.kind }).toEqual({ id: row.id, ...fromDomain.get(row.id) })
    }
    // The sample is not degenerate: it holds deals of both kinds and non-deals.
    const kinds = new Set(sqlRows.map((row) => row.kind))
    expect(kinds).toEqual(new Set(["full", "partial", null]))
    expect(sqlRows.some((row) => row.discount >= 10)).toBe(true)
  })
})
