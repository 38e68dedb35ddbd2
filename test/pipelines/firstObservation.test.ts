import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { bind, discountAtLeastSql, priceDropsSql, productRowsSql, trendingSql } from "../../ai/deals/dealQueries.ts"
import { Database } from "../../infra/Database.ts"
import { testDatabaseLayer } from "../support/testDatabase.ts"

// A product's first price observation is held in its row of products
// (first_price at first_seen_at) since schema version 6, where it used to be
// a row of price_history. Every reader of price history must answer the same
// either way: here two copies of each price history are stored, one in each
// form, and the deal queries (price facts, discount check, price drops, the
// discount pre-filter of the lists) compared on them.

const DAY = 86_400_000
const NOW = Date.parse("2026-11-20T12:00:00Z")
const at = (daysAgo: number) => new Date(NOW - daysAgo * DAY).toISOString()

/** [days ago, price] observations, oldest first; the last is the current price. */
const HISTORIES: Record<string, ReadonlyArray<readonly [number, number]>> = {
  // 40 days at 100, cut to 70 two days ago: a full-reference drop
  drop: [
    [40, 100],
    [2, 70]
  ],
  // seen once, 10 days ago: no reference yet
  once: [[10, 50]],
  // 100 -> 120 -> 80 over 60 days
  zigzag: [
    [60, 100],
    [25, 120],
    [5, 80]
  ],
  // first seen long ago at the price it still has
  steady: [[200, 30]]
}

const insert = (form: "history" | "products", key: string, history: ReadonlyArray<readonly [number, number]>) =>
  Effect.gen(function* () {
    const db = yield* Database
    const id = `${form}:${key}`
    const [firstDays, firstPrice] = history[0]
    const current = history[history.length - 1][1]
    yield* db.run(
      `INSERT INTO products (id, feed, item_id, title, link, store, store_domain, currency, price, current_price,
         availability, content_hash, first_seen_at, updated_at, first_price, first_currency)
       VALUES ($1, 'shop', $2, $3, $4, 'Shop', 'shop.example', 'USD', $5, $5, 'in_stock', 'h', $6::TIMESTAMPTZ, $7::TIMESTAMPTZ, $8, $9)`,
      [
        id,
        key,
        `Product ${key}`,
        `https://shop.example/${key}`,
        current,
        at(firstDays),
        at(0),
        form === "products" ? firstPrice : null,
        form === "products" ? "USD" : null
      ]
    )
    for (const [daysAgo, price] of form === "products" ? history.slice(1) : history) {
      yield* db.run("INSERT INTO price_history VALUES ($1, $2::TIMESTAMPTZ, $3, 'USD', 'run')", [
        id,
        at(daysAgo),
        price
      ])
    }
  })

/** Rows of `sql` keyed by the product's key, with the form's prefix taken off the id. */
const byKey = (rows: ReadonlyArray<Record<string, unknown>>, form: string) =>
  Object.fromEntries(
    rows
      .filter((row) => String(row.id).startsWith(`${form}:`))
      .map((row) => [String(row.id).slice(form.length + 1), { ...row, id: undefined }])
  )

describe("the first price observation held in products", () => {
  it("gives every deal query the answers a row of price_history gave", async () => {
    const answers = await Effect.runPromise(
      Effect.gen(function* () {
        const db = yield* Database
        for (const [key, history] of Object.entries(HISTORIES)) {
          yield* insert("history", key, history)
          yield* insert("products", key, history)
        }
        const ids = JSON.stringify(Object.keys(HISTORIES).flatMap((key) => [`history:${key}`, `products:${key}`]))
        const filters = { category: undefined, minDiscount: 0 }
        const run = (sql: string, values: Record<string, string | number>) => {
          const bound = bind(sql, values)
          return db.query(bound.sql, bound.params)
        }
        // The lists' pre-filter on an earlier, higher price (clicks are what trending ranks: one each)
        for (const key of Object.keys(HISTORIES)) {
          for (const form of ["history", "products"]) {
            yield* db.run(
              `INSERT INTO tracking_links VALUES ($1, NULL, 'seed', $2, $2, $2, $2, NULL, NULL, $3, 'feed', now(), NULL, NULL)`,
              [`l-${form}-${key}`, `https://seed.example/${form}/${key}`, `${form}:${key}`]
            )
            yield* db.run(
              `INSERT INTO clicks VALUES ($1::TIMESTAMPTZ, $2, NULL, 'seed', 'ip', 'ua', NULL, false, NULL, true)`,
              [at(0.1), `l-${form}-${key}`]
            )
          }
        }
        return {
          rows: yield* run(productRowsSql(db), { ids }),
          discounts: yield* run(discountAtLeastSql(db), { ids, min_discount: 1 }),
          drops: yield* run(priceDropsSql(db, filters), { now: at(0), limit: 50, min_discount: 0 }),
          trending: yield* run(trendingSql(db, { category: undefined, minDiscount: 10 }), {
            now: at(0),
            limit: 50,
            offset: 0,
            min_discount: 10
          })
        }
      }).pipe(Effect.provide(testDatabaseLayer()))
    )
    for (const [name, rows] of Object.entries(answers)) {
      expect(byKey(rows, "products"), name).toEqual(byKey(rows, "history"))
    }
    // ... and they are not empty answers: the facts and the drop are there
    expect(Object.keys(byKey(answers.rows, "products")).sort()).toEqual(Object.keys(HISTORIES).sort())
    expect(byKey(answers.rows, "products").zigzag).toMatchObject({ ref_price: 100, low90: 80 })
    expect(Object.keys(byKey(answers.discounts, "products")).sort()).toEqual(["drop", "zigzag"])
    expect(Object.keys(byKey(answers.drops, "products"))).toContain("drop")
    expect(Object.keys(byKey(answers.trending, "products")).sort()).toEqual(["drop", "zigzag"])
  })
})
