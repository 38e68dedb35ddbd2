import { Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bind, discountAtLeastSql, productRowsSql } from "../../ai/deals/dealQueries.ts"
import { CatalogQueries } from "../../catalog/CatalogQueries.ts"
import { landingDocumentFromCatalog, ONE_PRODUCT_SQL } from "../../discovery/landingFromCatalog.ts"
import { Database, type DatabaseShape } from "../../infra/Database.ts"
import { makePgDatabase } from "../../infra/PgDatabase.ts"
import { freshDatabaseUrl } from "../support/postgres.ts"

// The API's catalog reads on PostgreSQL use the indexes of migration 0005
// (DuckDB needed none: its zone maps prune by themselves). A catalog large
// enough that a sequential scan costs more than the index, then EXPLAIN.

// At 20,000 products (60,000 price rows) a hash join over the whole history
// still costs about what 100 index lookups do; a real catalog is far larger.
const PRODUCTS = 100_000
const PROGRAMS = 2_000

const fill = (db: DatabaseShape) =>
  Effect.gen(function* () {
    yield* db.run(
      `INSERT INTO products (id, feed, item_id, title, link, store, store_domain, currency, price, current_price,
         availability, content_hash, first_seen_at, updated_at)
       SELECT 'feed' || (i % 10) || ':' || i, 'feed' || (i % 10), 'item' || i, 'Product ' || i,
         'https://shop' || (i % 50) || '.example.com/p/' || i, 'Shop ' || (i % 50), 'shop' || (i % 50) || '.example.com',
         'USD', 100 + i % 7, 90 + i % 7, 'in_stock', md5(i::text), now() - INTERVAL '60 days', now()
       FROM generate_series(1, ${PRODUCTS}) AS s(i)`
    )
    // Three price changes per product over 60 days: the current price started 2 days ago.
    yield* db.run(
      `INSERT INTO price_history (product_id, observed_at, price, currency)
       SELECT 'feed' || (i % 10) || ':' || i, now() - (d || ' days')::INTERVAL, CASE d WHEN 2 THEN 90 ELSE 100 + d END + i % 7, 'USD'
       FROM generate_series(1, ${PRODUCTS}) AS s(i), (VALUES (60), (20), (2)) AS days(d)`
    )
    yield* db.run(
      `INSERT INTO networks (id, name, status, click_hosts, unwrap_params, confidence, regions, account_params, feed, updated_at)
       SELECT 'net' || i, 'Network ' || i, 'active', ARRAY['click.net' || i || '.example'], ARRAY[]::text[], 'H',
         ARRAY['global'], '{}', 'fixture', now()
       FROM generate_series(1, 20) AS s(i)`
    )
    yield* db.run(
      `INSERT INTO programs (id, network_id, merchant_id, name, domains, commission_type, commission_rate, status,
         deep_link_allowed, link_params, feed, updated_at)
       SELECT 'net' || (i % 20 + 1) || ':' || i, 'net' || (i % 20 + 1), 'm' || i, 'Merchant ' || i,
         ARRAY['merchant' || i || '.example.com'], 'cps', 5, 'active', true, '{}', 'fixture', now()
       FROM generate_series(1, ${PROGRAMS}) AS s(i)`
    )
    // every programme has its number, as the loader and the publish give them
    yield* db.run(
      `INSERT INTO program_numbers (program_id, number) SELECT id, row_number() OVER (ORDER BY id) FROM programs`
    )
    yield* db.run("ANALYZE products, price_history, networks, programs")
  })

const plan = (db: DatabaseShape, sql: string, params: ReadonlyArray<string | number>) =>
  db
    .query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, params)
    .pipe(Effect.map((rows) => rows.map((row) => row["QUERY PLAN"]).join("\n")))

describe("catalog reads on PostgreSQL", () => {
  const scope = Effect.runSync(Scope.make())
  let db: DatabaseShape
  const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)

  beforeAll(async () => {
    const url = await freshDatabaseUrl()
    db = await run(makePgDatabase({ url: Redacted.make(url), poolSize: 2 }).pipe(Scope.provide(scope)))
    await run(fill(db))
  }, 120_000)
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

  it("the landing page's fallback reads one product and its history by index", async () => {
    const text = await run(plan(db, ONE_PRODUCT_SQL, ["feed3:12343"]))
    expect(text).toMatch(/Index Scan using products_id on products/)
    expect(text).toMatch(/price_history_product_time/)
    expect(text).not.toMatch(/Seq Scan on (products|price_history)\b/)

    const found = await run(landingDocumentFromCatalog(db, Buffer.from("feed3:12343").toString("base64url")))
    expect(Option.map(found, (doc) => doc.title)).toEqual(Option.some("Product 12343"))
  })

  it("the deal lists' shown products and discount checks read their ids by index", async () => {
    const ids = JSON.stringify(["feed1:1", "feed2:2", "feed3:3"])
    const rows = bind(productRowsSql(db), { ids })
    const discounts = bind(discountAtLeastSql(db), { ids, min_discount: 5 })
    for (const bound of [rows, discounts]) {
      const text = await run(plan(db, bound.sql, bound.params.map(String)))
      expect(text).toMatch(/products_id/)
      expect(text).toMatch(/price_history_product_time/)
      expect(text).not.toMatch(/Seq Scan on (products|price_history)\b/)
    }
    const shown = await run(db.query<{ id: string; ref_price: number; ref_days: number }>(rows.sql, rows.params))
    expect(shown.map((row) => row.id).sort()).toEqual(["feed1:1", "feed2:2", "feed3:3"])
    // 30-day reference: the price of 20 days ago, held for 18 days until the change 2 days ago.
    expect(shown.find((row) => row.id === "feed1:1")).toMatchObject({ ref_price: 121, ref_days: 18 })
  })

  it("GET /api/v1/networks counts each network's programmes by index; programs filter by domain", async () => {
    const catalog = await run(
      CatalogQueries.use(Effect.succeed).pipe(
        Effect.provide(CatalogQueries.layer),
        Effect.provide(Layer.succeed(Database, db))
      )
    )
    const networks = await run(catalog.networks({}, { limit: 5, offset: 0 }))
    expect(networks.total).toBe(20)
    expect(networks.rows[0]).toMatchObject({ id: "net1", programs: 100 })
    const text = await run(
      plan(db, "SELECT n.id, (SELECT count(*) FROM programs p WHERE p.network_id = n.id) FROM networks n", [])
    )
    expect(text).toMatch(/programs_network/)

    const byDomain = await run(
      catalog.programs({ domain: "https://shop.merchant7.example.com/x" }, { limit: 5, offset: 0 })
    )
    expect(byDomain.rows.map((row) => row.id)).toEqual(["net8:7"])
    expect(byDomain.rows[0]).toMatchObject({ commission_rate: "5.0000", deep_link_allowed: true })
  })
})
