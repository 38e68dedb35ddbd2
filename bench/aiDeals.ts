// npm run bench:ai-deals
// GET /api/v1/ai/deals over a synthetic catalog at scale, generated inside
// DuckDB: BENCH_PRODUCTS products (default 1,000,000) in 2,000 stores with a
// programme each, ~3 price changes per product over 120 days, clicks on
// 200,000 product links over 10 days (BENCH_CLICKS, default 3,000,000; 5% bots)
// and conversions. Sequential requests (median of BENCH_RUNS, default 7, after
// a warm-up) for: no filter, a category, min_discount=20, with the list cache
// off (in service the lists are computed at most once per 30 s per filter set;
// BENCH_CACHED=1 times requests answered from the cache instead).
// Baselines from the same run and data:
//   floor  one plain scan of the clicks, products and price history the lists read
//   naive  price facts for the whole catalog (what price drops would cost without pruning to recent changes)
import { Effect } from "effect"
import { ProgramMatcher } from "../links/ProgramMatcher.ts"
import { Database } from "../infra/Database.ts"
import { productFactsCtes } from "../readModel/productFactsSql.ts"
import { bind, priceDropsSql, storesSql, trendingSql } from "../ai/deals/dealQueries.ts"
import { startBenchService } from "./support/benchService.ts"

// Measure the computation, not the list cache (which would answer every timed request from memory);
// BENCH_CACHED=1 keeps the cache on, to measure a request served from it.
const cacheOff = process.env.BENCH_CACHED !== "1"

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 1_000_000)
const CLICKS = Number(process.env.BENCH_CLICKS ?? 3_000_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 7)
const STORES = 2_000
const LINKS = 200_000

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const ms = (value: number) => `${value.toFixed(1)} ms`

console.log(
  `starting the service and generating ${PRODUCTS.toLocaleString()} products, ${CLICKS.toLocaleString()} clicks ...`
)
const service = await startBenchService("ai-deals", cacheOff ? { aiDealsCacheSeconds: 0 } : {})
try {
  const generated = Date.now()
  await service.run(
    Effect.gen(function* () {
      const db = yield* Database
      const statements = [
        `INSERT INTO networks VALUES ('benchnet', 'Bench Network', 'active', NULL, [], 'https://bench.example/c?m={mid}&u={enc(url)}&s={sub}',
         's', [], 'H', NULL, [], '{}', 'bench', now())`,
        `INSERT INTO programs SELECT 'benchnet:' || i, 'benchnet', i::VARCHAR, 'Store ' || i, ['store' || i || '.example'], NULL, NULL,
         CASE WHEN i % 10 = 0 THEN 'CPA' ELSE 'CPS' END, CASE WHEN i % 10 = 0 THEN 5 + i % 40 ELSE 1 + i % 15 END, 'USD', 30, 'active',
         true, NULL, json_object('mid', i::VARCHAR), 'bench', now() FROM range(${STORES}) t(i)`,
        `INSERT INTO program_domains SELECT 'store' || i || '.example', 'benchnet:' || i, 'bench' FROM range(${STORES}) t(i)`,
        `INSERT INTO products SELECT 'bench:' || i, 'bench', i::VARCHAR, 'Product ' || i, NULL,
         'https://store' || (i % ${STORES}) || '.example/p/' || i, NULL, NULL, NULL, NULL,
         (['Electronics', 'Home', 'Sports', 'Fashion', 'Toys'])[1 + i % 5], (['Electronics', 'Home', 'Sports', 'Fashion', 'Toys'])[1 + i % 5] || ' > Sub ' || (i % 50),
         NULL, 'Store ' || (i % ${STORES}), 'store' || (i % ${STORES}) || '.example', 'USD',
         10 + (hash(i) % 50000) / 100.0, NULL, 10 + (hash(i) % 50000) / 100.0 * (CASE WHEN i % 7 = 0 THEN 0.7 ELSE 1 END), NULL,
         CASE WHEN i % 20 = 0 THEN 'out_of_stock' ELSE 'in_stock' END, 'new', md5(i::VARCHAR), now() - INTERVAL 120 DAY, now(), NULL, NULL, NULL, NULL, NULL, NULL, NULL
       FROM range(${PRODUCTS}) t(i)`,
        // ~3 price changes each: the regular price 120 and 50 days ago (slightly different), the current one recently.
        `INSERT INTO price_history SELECT id, now() - INTERVAL 120 DAY, price * 1.05, 'USD', NULL FROM products`,
        `INSERT INTO price_history SELECT id, now() - INTERVAL 50 DAY, price, 'USD', NULL FROM products`,
        `INSERT INTO price_history SELECT id, now() - to_days(CAST(hash(id) % 40 AS INTEGER)), current_price, 'USD', NULL
         FROM products WHERE current_price <> price`,
        `INSERT INTO tracking_links SELECT 'bl' || i, NULL, 'bench', 'https://x/' || i, 'https://x/' || i, 'https://x/' || i,
         'https://x/' || i, 'benchnet:' || (i * 7919 % ${PRODUCTS} % ${STORES}), 'benchnet', 'bench:' || (i * 7919 % ${PRODUCTS}),
         'feed', now(), NULL, NULL FROM range(${LINKS}) t(i)`,
        `INSERT INTO clicks SELECT now() - to_microseconds(CAST(hash(i) % (10 * 86400000000) AS BIGINT)),
         'bl' || CAST(floor(pow((hash(i * 31) % 1000000) / 1000000.0, 3) * ${LINKS}) AS BIGINT), NULL, 'bench', 'ip' || (i % 50000),
         'ua', NULL, i % 20 = 0, NULL, true FROM range(${CLICKS}) t(i)`,
        `INSERT INTO conversions SELECT 'benchnet:tx' || i, 'benchnet', 'tx' || i, 'bl' || (i * 13 % ${LINKS}), 'bl' || (i * 13 % ${LINKS}),
         NULL, 'bench', 'USD', 100, 5, 'USD', 5, 100, 1, NULL, 0, 5, 'approved', now() - INTERVAL 3 DAY, NULL, 'bench', now(), now(), NULL
         FROM range(${Math.round(CLICKS / 50)}) t(i)`
      ]
      for (const sql of statements) yield* db.run(sql)
      yield* (yield* ProgramMatcher).reload
    })
  )
  console.log(`generated in ${((Date.now() - generated) / 1000).toFixed(1)} s`)

  const registration = await fetch(`${service.url}/api/v1/partners/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Bench Partner", email: "bench@x.example" })
  }).then((response) => response.json() as Promise<{ api_key: string }>)

  const timeRequest = async (query: string) => {
    const times: Array<number> = []
    let counts = ""
    for (let run = 0; run <= RUNS; run++) {
      const started = performance.now()
      const response = await fetch(`${service.url}/api/v1/ai/deals${query}`, {
        headers: { authorization: `Bearer ${registration.api_key}` }
      })
      const body = (await response.json()) as Record<string, Array<unknown>>
      if (response.status !== 200) throw new Error(`${query}: ${response.status} ${JSON.stringify(body)}`)
      if (run > 0) times.push(performance.now() - started)
      counts = `${body.trending.length}/${body.price_drops.length}/${body.high_commission.length}`
    }
    return { median: median(times), counts }
  }

  const timeSql = (sql: string) =>
    service.run(
      Effect.gen(function* () {
        const db = yield* Database
        const times: Array<number> = []
        for (let run = 0; run <= RUNS; run++) {
          const started = performance.now()
          yield* db.query(sql)
          if (run > 0) times.push(performance.now() - started)
        }
        return median(times)
      })
    )

  const floor = await timeSql(`SELECT
    (SELECT count(*) FROM clicks WHERE clicked_at > now() - INTERVAL '7 days' AND NOT is_bot),
    (SELECT count(*) FROM products WHERE availability <> 'out_of_stock' AND current_price > 0),
    (SELECT count(*) FROM price_history WHERE price > 0)`)
  const naive = await timeSql(
    `WITH ${productFactsCtes("")} SELECT count(*), min(ref.ref_price) FROM p LEFT JOIN ref ON ref.product_id = p.id`
  )
  console.log(`baseline floor (one scan of clicks, products, price history): ${ms(floor)}`)
  console.log(`baseline naive (price facts for the whole catalog):          ${ms(naive)}`)
  const timeQuery = (name: string, sql: string, values: Parameters<typeof bind>[1]) =>
    service.run(
      Effect.gen(function* () {
        const db = yield* Database
        const bound = bind(sql, values)
        const times: Array<number> = []
        for (let run = 0; run < Math.min(RUNS, 3); run++) {
          const started = performance.now()
          yield* db.query(bound.sql, bound.params)
          times.push(performance.now() - started)
        }
        console.log(`  query ${name.padEnd(24)} ${ms(median(times))}`)
      })
    )
  const values = { now: new Date().toISOString(), category: "sports", min_discount: 20, limit: 50, offset: 0 }
  const all = { category: undefined, minDiscount: 0 }
  const store = await service.run(Database.use(Effect.succeed))
  await timeQuery("trending", trendingSql(store, all), values)
  await timeQuery("trending min_discount", trendingSql(store, { ...all, minDiscount: 20 }), values)
  await timeQuery("price drops", priceDropsSql(store, all), values)
  await timeQuery("stores", storesSql(store, all), values)
  for (const query of ["", "?category=sports", "?min_discount=20"]) {
    const result = await timeRequest(query)
    console.log(
      `GET /api/v1/ai/deals${query.padEnd(18)} median ${ms(result.median).padStart(10)}  lists ${result.counts}  ` +
        `x${(result.median / floor).toFixed(2)} floor, x${(result.median / naive).toFixed(2)} naive`
    )
  }
} finally {
  await service.close()
  service.remove()
}
