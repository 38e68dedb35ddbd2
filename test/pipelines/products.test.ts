import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "../../infra/Database.ts"
import { Staging } from "../../infra/Staging.ts"
import { count, products, query, rejected, runFeed, startWithFeeds, tsv } from "./support.ts"
import { tempDir } from "../support/TestService.ts"

// Product feeds through the real runner: DuckDB in a temp folder, the shared
// real Meilisearch. Each feed file is rewritten between runs.
describe("product feeds", () => {
  const files = tempDir("products-")
  const path = (name: string) => join(files.dir, name)
  let env: Awaited<ReturnType<typeof startWithFeeds>>
  beforeAll(async () => {
    env = await startWithFeeds([
      {
        name: "shop",
        kind: "products",
        format: "gmc-tsv",
        location: path("shop.tsv"),
        options: { storeColumn: "custom_label_0" }
      },
      {
        name: "strict",
        kind: "products",
        format: "gmc-tsv",
        location: path("strict.tsv"),
        options: { rejectThreshold: 0.2, store: "Strict" }
      },
      { name: "awin", kind: "products", format: "awin-csv", location: path("awin.csv.gz") },
      { name: "rss", kind: "products", format: "gmc-xml", location: path("rss.xml"), options: { store: "RSS Shop" } }
    ])
  })
  afterAll(async () => {
    await env.close()
    files.rm()
  })

  it("loads a Google Merchant TSV: ids, prices, effective sale price, store and its domain", async () => {
    writeFileSync(
      path("shop.tsv"),
      tsv([
        {
          id: "A1",
          price: "99.00 USD",
          sale_price: "79.00 USD",
          sale_price_effective_date: "2020-01-01T00:00Z/2099-12-31T23:59+0100"
        },
        { id: "A2", price: "50.00 USD", sale_price: "40.00 USD", sale_price_effective_date: "2020-01-01/2020-02-01" },
        {
          id: "A3",
          price: "12.5 USD",
          availability: "in stock",
          link: "https://WWW.Example.co.uk/x?y=1",
          store: "Example"
        }
      ])
    )
    const run = await runFeed(env.service, "shop")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 3, rowsLoaded: 3, rowsRejected: 0 })
    const rows = await query<Record<string, string>>(
      env.service,
      "SELECT id, item_id, price::VARCHAR AS price, current_price::VARCHAR AS current, store, store_domain, availability, category FROM products WHERE feed = 'shop' ORDER BY id"
    )
    expect(rows).toEqual([
      {
        id: "shop:A1",
        item_id: "A1",
        price: "99.0000",
        current: "79.0000",
        store: "Shop Example",
        store_domain: "shop.example",
        availability: "in_stock",
        category: "Electronics"
      },
      {
        id: "shop:A2",
        item_id: "A2",
        price: "50.0000",
        current: "50.0000",
        store: "Shop Example",
        store_domain: "shop.example",
        availability: "in_stock",
        category: "Electronics"
      },
      {
        id: "shop:A3",
        item_id: "A3",
        price: "12.5000",
        current: "12.5000",
        store: "Example",
        store_domain: "example.co.uk",
        availability: "in_stock",
        category: "Electronics"
      }
    ])
  })

  it("rejects invalid rows with their line and reason and loads the rest", async () => {
    const lines = tsv([
      { id: "B1" },
      { id: "B2", price: "cheap" },
      { id: "B3", link: "not a url", availability: "sometimes" },
      { id: "B1", title: "again" },
      { id: "B5" }
    ]).split("\n")
    lines.splice(5, 0, "B4\tshort row") // line 6
    writeFileSync(path("shop.tsv"), lines.join("\n"))
    const run = await runFeed(env.service, "shop")
    expect(run).toMatchObject({ status: "failed", rowsRead: 6, rowsRejected: 4 })
    expect(await rejected(env.service, run.id)).toEqual([
      { line: 3, reason: 'price: must look like "15.00 USD"' },
      {
        line: 4,
        reason: "link: must be an http(s) URL; availability: must be one of in_stock, out_of_stock, preorder, backorder"
      },
      { line: 5, reason: "duplicate id B1 (first on line 2)" },
      { line: 6, reason: expect.stringMatching(/^malformed row: MISSING COLUMNS/) }
    ])
    // 4 of 6 is over the 20% threshold: the run failed and the previous data is still served
    expect(run.error).toMatch(/4 of 6 rows rejected \(66\.7%\), above the 20\.0% threshold/)
    expect(
      (await query<{ id: string }>(env.service, "SELECT id FROM products WHERE feed = 'shop' ORDER BY id")).map(
        (r) => r.id
      )
    ).toEqual(["shop:A1", "shop:A2", "shop:A3"])
  })

  it("applies the reject threshold: under it the good rows load, over it nothing changes", async () => {
    writeFileSync(path("strict.tsv"), tsv([...products(9), { id: "X", price: "n/a" }]))
    const under = await runFeed(env.service, "strict")
    expect(under).toMatchObject({ status: "succeeded", rowsRead: 10, rowsLoaded: 9, rowsRejected: 1 })
    writeFileSync(
      path("strict.tsv"),
      tsv([...products(7, 100), { id: "X", price: "n/a" }, { id: "Y", price: "" }, { id: "Z", title: "" }])
    )
    const over = await runFeed(env.service, "strict")
    expect(over).toMatchObject({ status: "failed", rowsRead: 10, rowsRejected: 3 })
    expect(
      await count(env.service, "SELECT count(*) AS n FROM products WHERE feed = 'strict' AND item_id LIKE 'P_'")
    ).toBe(9)
  })

  it("removes vanished products and records every observed price change", async () => {
    writeFileSync(
      path("strict.tsv"),
      tsv([
        { id: "P0", price: "10.00 USD" },
        { id: "P1", price: "12.00 USD" },
        { id: "P2", price: "7.00 USD" }
      ])
    )
    const second = await runFeed(env.service, "strict")
    expect(second.status).toBe("succeeded")
    const ids = await query<{ id: string }>(env.service, "SELECT id FROM products WHERE feed = 'strict' ORDER BY id")
    expect(ids.map((r) => r.id)).toEqual(["strict:P0", "strict:P1", "strict:P2"])
    const history = await query<{ product_id: string; prices: Array<string> }>(
      env.service,
      "SELECT product_id, array_agg(CAST(price AS VARCHAR) ORDER BY observed_at) AS prices FROM price_observations WHERE product_id LIKE 'strict:%' GROUP BY product_id ORDER BY product_id"
    )
    // P0 first seen at 10.00 and unchanged; P1 went 10 -> 12; P2 10 -> 7; P3..P8 were seen once and vanished
    expect(history.filter((h) => ["strict:P0", "strict:P1", "strict:P2"].includes(h.product_id))).toEqual([
      { product_id: "strict:P0", prices: ["10.0000"] },
      { product_id: "strict:P1", prices: ["10.0000", "12.0000"] },
      { product_id: "strict:P2", prices: ["10.0000", "7.0000"] }
    ])
    // A product's first observation is held in its row of products; a vanished
    // product's moves to price_history, written by the run that saw it vanish.
    const vanished = ["P3", "P4", "P5", "P6", "P7", "P8"].map((id) => `strict:${id}`)
    expect(history.filter((h) => vanished.includes(h.product_id))).toEqual(
      vanished.map((id) => ({ product_id: id, prices: ["10.0000"] }))
    )
    // ... at the time it was made: before this run started (P1's and P2's changes are this run's own)
    const written = await query<{ product_id: string; earlier: boolean }>(
      env.service,
      `SELECT product_id, observed_at < (SELECT started_at FROM pipeline_runs WHERE id = $1) AS earlier
       FROM price_history WHERE run_id = $1 ORDER BY product_id`,
      [second.id]
    )
    expect(written).toEqual(
      ["strict:P1", "strict:P2", ...vanished].map((id) => ({ product_id: id, earlier: vanished.includes(id) }))
    )
  })

  it("keeps first observations written before schema 6 in price_history: none is doubled, later changes still add one", async () => {
    // The strict feed as schema 5 left it: every first observation a row of price_history, first_price NULL.
    await env.service.run(
      Effect.gen(function* () {
        const db = yield* Database
        const staging = yield* Staging
        for (const store of staging === db ? [db] : [db, staging]) {
          yield* store.run(
            `INSERT INTO price_history SELECT id, first_seen_at, first_price, first_currency, 'before-6' FROM products
             WHERE feed = 'strict' AND first_price IS NOT NULL`
          )
          yield* store.run("UPDATE products SET first_price = NULL, first_currency = NULL WHERE feed = 'strict'")
        }
      })
    )
    writeFileSync(
      path("strict.tsv"),
      tsv([
        { id: "P0", price: "9.00 USD" },
        { id: "P1", price: "12.00 USD" },
        { id: "P9", price: "5.00 USD" }
      ])
    )
    expect((await runFeed(env.service, "strict")).status).toBe("succeeded")
    const observed = await query<{ product_id: string; prices: Array<string> }>(
      env.service,
      `SELECT product_id, array_agg(CAST(price AS VARCHAR) ORDER BY observed_at) AS prices FROM price_observations
       WHERE product_id IN ('strict:P0', 'strict:P1', 'strict:P2', 'strict:P9') GROUP BY product_id ORDER BY product_id`
    )
    // P0 changed, P1 did not, P2 vanished (its first observation was in price_history already), P9 is new
    expect(observed).toEqual([
      { product_id: "strict:P0", prices: ["10.0000", "9.0000"] },
      { product_id: "strict:P1", prices: ["10.0000", "12.0000"] },
      { product_id: "strict:P2", prices: ["10.0000", "7.0000"] },
      { product_id: "strict:P9", prices: ["5.0000"] }
    ])
    expect(
      await query(
        env.service,
        "SELECT id, CAST(first_price AS VARCHAR) AS first FROM products WHERE feed = 'strict' ORDER BY id"
      )
    ).toEqual([
      { id: "strict:P0", first: null },
      { id: "strict:P1", first: null },
      { id: "strict:P9", first: "5.0000" }
    ])
  })

  it("loads an Awin CSV (gzip) by column name: stock flags, currency column, untrusted was-price", async () => {
    const header =
      "aw_deep_link,product_name,aw_product_id,merchant_image_url,search_price,merchant_name,currency,merchant_deep_link,in_stock,rrp_price,brand_name,category_name"
    const rows = [
      'https://www.awin1.com/cread.php?awinmid=1,"Lamp, brass",1001,https://img.example/1.jpg,19.99,Lights Ltd,GBP,https://lights.example/p/1,1,24.99,Brassco,Lighting',
      "https://www.awin1.com/cread.php?awinmid=1,Chair,1002,,49.00,Seats GmbH,EUR,https://www.seats.example/p/2,0,0.00,,Furniture",
      "https://www.awin1.com/cread.php?awinmid=1,Broken,1003,,abc,Seats GmbH,EUR,https://www.seats.example/p/3,1,,,Furniture"
    ]
    writeFileSync(path("awin.csv.gz"), gzipSync([header, ...rows].join("\n") + "\n"))
    const run = await runFeed(env.service, "awin")
    expect(run).toMatchObject({ status: "failed", rowsRead: 3, rowsRejected: 1 }) // 33% > 20%
    expect(await rejected(env.service, run.id)).toEqual([
      { line: 4, reason: 'search_price: must look like "15.00 USD"' }
    ])
    writeFileSync(path("awin.csv.gz"), gzipSync([header, ...rows.slice(0, 2)].join("\n") + "\n"))
    expect(await runFeed(env.service, "awin")).toMatchObject({ status: "succeeded", rowsLoaded: 2 })
    expect(
      await query(
        env.service,
        "SELECT id, title, store, currency, current_price::VARCHAR AS price, feed_was_price::VARCHAR AS was, availability, category FROM products WHERE feed = 'awin' ORDER BY id"
      )
    ).toEqual([
      {
        id: "awin:1001",
        title: "Lamp, brass",
        store: "Lights Ltd",
        currency: "GBP",
        price: "19.9900",
        was: "24.9900",
        availability: "in_stock",
        category: "Lighting"
      },
      {
        id: "awin:1002",
        title: "Chair",
        store: "Seats GmbH",
        currency: "EUR",
        price: "49.0000",
        was: null,
        availability: "out_of_stock",
        category: "Furniture"
      }
    ])
  })

  it("streams an RSS 2.0 feed with the g: namespace (entities, CDATA, nested shipping) and fails on a truncated one", async () => {
    const item = (id: string, extra = "") =>
      `<item><g:id>${id}</g:id><title>Mug &amp; Saucer ${id}</title><link>https://mugs.example/${id}</link>` +
      `<description><![CDATA[<b>Fine</b> china]]></description><g:price>8.50 GBP</g:price><g:availability>in stock</g:availability>` +
      `<g:shipping><g:country>GB</g:country><g:price>2.99 GBP</g:price></g:shipping>${extra}</item>`
    const rss = (items: string, close = true) =>
      `<?xml version="1.0"?><rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><title>t</title>${items}${close ? "</channel></rss>" : ""}`
    writeFileSync(path("rss.xml"), rss(item("M1") + item("M2", "<g:sale_price>6.00 GBP</g:sale_price>") + item("M3")))
    expect(await runFeed(env.service, "rss")).toMatchObject({ status: "succeeded", rowsRead: 3, rowsLoaded: 3 })
    expect(
      await query(
        env.service,
        "SELECT id, title, description, store, current_price::VARCHAR AS price FROM products WHERE feed = 'rss' ORDER BY id"
      )
    ).toEqual([
      { id: "rss:M1", title: "Mug & Saucer M1", description: "<b>Fine</b> china", store: "RSS Shop", price: "8.5000" },
      { id: "rss:M2", title: "Mug & Saucer M2", description: "<b>Fine</b> china", store: "RSS Shop", price: "6.0000" },
      { id: "rss:M3", title: "Mug & Saucer M3", description: "<b>Fine</b> china", store: "RSS Shop", price: "8.5000" }
    ])
    const full = rss(item("M1") + item("M9"))
    writeFileSync(path("rss.xml"), full.slice(0, full.length - 40))
    const truncated = await runFeed(env.service, "rss")
    expect(truncated).toMatchObject({ status: "failed" })
    expect(truncated.error).toMatch(/truncated XML/)
    expect(await count(env.service, "SELECT count(*) AS n FROM products WHERE feed = 'rss'")).toBe(3)
  })

  it("rejects a bad RSS item with its item number and reason while the good items load", async () => {
    const item = (id: string, price: string) =>
      `<item><g:id>${id}</g:id><g:title>Lamp ${id}</g:title><g:link>https://lamps.example/${id}</g:link>` +
      `<g:price>${price}</g:price><g:availability>in_stock</g:availability></item>`
    const items = Array.from({ length: 9 }, (_, i) =>
      item(`L${i + 1}`, i === 3 ? "about ten pounds" : "10.00 GBP")
    ).join("\n")
    writeFileSync(
      path("rss.xml"),
      `<?xml version="1.0"?><rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel>${items}</channel></rss>`
    )
    const run = await runFeed(env.service, "rss")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 9, rowsLoaded: 8, rowsRejected: 1 })
    expect(await rejected(env.service, run.id)).toEqual([{ line: 4, reason: 'price: must look like "15.00 USD"' }])
    expect(
      await count(env.service, "SELECT count(*) AS n FROM products WHERE feed = 'rss' AND item_id LIKE 'L%'")
    ).toBe(8)
  })
})
