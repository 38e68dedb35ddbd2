import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "../../infra/Database.ts"
import { Staging } from "../../infra/Staging.ts"
import type { RunningService } from "../support/TestService.ts"
import { tempDir } from "../support/TestService.ts"
import { products, runFeed, startWithFeeds, tsv, type TsvProduct } from "./support.ts"

// With PostgreSQL as the system of record, a feed is loaded into DuckDB
// staging and published to PostgreSQL in one transaction inside the staging
// one (pipelines/publish/). Both stores are read back here.
describe("publishing feeds to PostgreSQL", () => {
  const files = tempDir("publish-")
  const file = join(files.dir, "shop.tsv")
  const feeds = [{ name: "shop", kind: "products", format: "gmc-tsv", location: file, options: { store: "Shop" } }]
  let env: Awaited<ReturnType<typeof startWithFeeds>>

  const PRODUCTS = "SELECT id, CAST(current_price AS VARCHAR) AS price, title FROM products ORDER BY id"
  // Every price observation: the rows of price_history, and the first
  // observations products hold (first_price at first_seen_at, no run id).
  const HISTORY = `SELECT product_id, CAST(price AS VARCHAR) AS price, run_id FROM (
      SELECT product_id, observed_at, price, run_id FROM price_history
      UNION ALL SELECT id, first_seen_at, first_price, NULL FROM products WHERE first_price IS NOT NULL
    ) observed ORDER BY product_id, observed_at, run_id`
  const FIRST_SEEN = "SELECT id, first_seen_at, updated_at FROM products ORDER BY id"
  /** The same query on the system of record and on staging. */
  const both = (service: RunningService, sql: string) =>
    service.run(
      Effect.gen(function* () {
        const recorded = yield* (yield* Database).query(sql)
        const staged = yield* (yield* Staging).query(sql)
        return { recorded, staged }
      })
    )
  const write = (rows: ReadonlyArray<TsvProduct>) => writeFileSync(file, tsv(rows))
  /** P0 at 12.00, P1 titled "Poison" (refused by the constraint the refusal test adds), P2 at `p2`. */
  const writeWithPoison = (p2: string) =>
    write([
      { id: "P0", price: "12.00 USD" },
      { id: "P1", title: "Poison" },
      { id: "P2", price: p2 }
    ])

  beforeAll(async () => {
    write(products(3, 0, "10.00 USD"))
    env = await startWithFeeds(feeds)
    expect(await env.service.run(Database.use((db) => Effect.succeed(db.dialect)))).toBe("postgres")
    expect(await runFeed(env.service, "shop")).toMatchObject({ status: "succeeded", rowsLoaded: 3 })
  })
  afterAll(async () => {
    await env.close()
    files.rm()
  })

  it("publishes the feed's products and price observations to PostgreSQL, equal to staging's", async () => {
    const rows = await both(env.service, PRODUCTS)
    expect(rows.recorded).toEqual([
      { id: "shop:P0", price: "10.0000", title: "Product P0" },
      { id: "shop:P1", price: "10.0000", title: "Product P1" },
      { id: "shop:P2", price: "10.0000", title: "Product P2" }
    ])
    expect(rows.staged).toEqual(rows.recorded)
    const history = await both(env.service, HISTORY)
    expect(history.recorded).toHaveLength(3)
    expect(history.staged).toEqual(history.recorded)
  })

  it("a bad feed (over the reject threshold) keeps the old rows in PostgreSQL and in staging", async () => {
    const before = await both(env.service, PRODUCTS)
    write(products(3, 0, "n/a"))
    expect(await runFeed(env.service, "shop")).toMatchObject({ status: "failed" })
    expect(await both(env.service, PRODUCTS)).toEqual(before)
  })

  it("a publish PostgreSQL refuses fails the run and keeps the old rows in both stores; the next run loads it whole", async () => {
    const before = { products: await both(env.service, PRODUCTS), history: await both(env.service, HISTORY) }
    // A constraint only PostgreSQL knows: staging accepts the row, the publish's COPY does not.
    await env.service.run(
      Database.use((db) => db.run("ALTER TABLE products ADD CONSTRAINT no_poison CHECK (title <> 'Poison')"))
    )
    writeWithPoison("10.00 USD")
    const failed = await runFeed(env.service, "shop")
    expect(failed.status).toBe("failed")
    expect(failed.error).toMatch(/^publish: .*no_poison/)
    expect(await both(env.service, PRODUCTS)).toEqual(before.products)
    expect(await both(env.service, HISTORY)).toEqual(before.history)

    await env.service.run(Database.use((db) => db.run("ALTER TABLE products DROP CONSTRAINT no_poison")))
    const retried = await runFeed(env.service, "shop")
    expect(retried.status).toBe("succeeded")
    const after = await both(env.service, PRODUCTS)
    expect(after.recorded.map((row) => [row.id, row.price, row.title])).toEqual([
      ["shop:P0", "12.0000", "Product P0"],
      ["shop:P1", "10.0000", "Poison"],
      ["shop:P2", "10.0000", "Product P2"]
    ])
    expect(after.staged).toEqual(after.recorded)
    // The price change is observed once, by the run that published it: staging rolled back with PostgreSQL.
    const history = await both(env.service, HISTORY)
    expect(history.recorded).toEqual([
      ...before.history.recorded.slice(0, 1),
      { product_id: "shop:P0", price: "12.0000", run_id: retried.id },
      ...before.history.recorded.slice(1)
    ])
    expect(history.staged).toEqual(history.recorded)
  })

  it("a new worker with an empty staging file copies PostgreSQL's catalog into staging, which never empties PostgreSQL", async () => {
    const databaseUrl = env.service.config.databaseUrl
    const before = {
      products: await both(env.service, FIRST_SEEN),
      history: await both(env.service, HISTORY)
    }
    await env.service.close()
    // Same PostgreSQL database, a new DATA_DIR (so an empty staging.duckdb).
    const worker = await startWithFeeds(feeds, { databaseUrl })
    env = { ...env, service: worker.service, close: worker.close }
    const followed = await both(worker.service, FIRST_SEEN)
    expect(followed.recorded).toEqual(before.products.recorded)
    expect(followed.staged).toEqual(before.products.recorded)
    expect((await both(worker.service, HISTORY)).staged).toEqual(before.history.recorded)
    expect((await fetch(`${worker.service.url}/ready`)).status).toBe(200)

    // The unchanged file is skipped (feed_state lives in PostgreSQL); a price
    // change is then observed once, against the copied rows, and first-seen dates stay.
    expect((await runFeed(worker.service, "shop")).status).toBe("skipped")
    writeWithPoison("11.00 USD")
    const run = await runFeed(worker.service, "shop")
    expect(run.status).toBe("succeeded")
    const history = await both(worker.service, HISTORY)
    expect(history.recorded).toEqual(
      [...before.history.recorded, { product_id: "shop:P2", price: "11.0000", run_id: run.id }].sort((a, b) =>
        String(a.product_id).localeCompare(String(b.product_id))
      )
    )
    const firstSeen = await both(worker.service, FIRST_SEEN)
    expect(firstSeen.recorded.map((row) => row.first_seen_at)).toEqual(
      before.products.recorded.map((row) => row.first_seen_at)
    )
    expect(firstSeen.staged).toEqual(firstSeen.recorded)
  })
})
