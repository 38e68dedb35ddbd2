import { Effect } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { watchMainThread } from "../../bench/support/threadCpu.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { writeProducts } from "../../scripts/generate-products.ts"
import { selectStores } from "../../scripts/products/stores.ts"
import { tempDir } from "../support/TestService.ts"
import { count, products, query, runFeed, startWithFeeds, tsv } from "./support.ts"

// Feeds run inside the service that answers redirects (the sample's price
// history daily, its products hourly): rows are checked and loaded in DuckDB,
// and the few a JavaScript rule judges are judged a slice at a time, not in
// one stretch of the event loop. Measured as in syncEventLoop.test.ts: the main
// thread's own CPU between two turns of a 2 ms timer, garbage-collector
// pauses taken out. Row by row in JavaScript these 50,000 price-history rows
// held it 372 ms in one stretch (467 ms with the collector's pauses), the
// sample's 138,155 about 0.9 s; checked in DuckDB, 8.3-8.7 ms. The 10,000
// flagged product rows read, judged and recorded at once held it 253 ms (384
// with the collector); a page at a time, 26-41 ms. The RSS feed's 12,000
// items, scanned and appended on the event loop 5,000 at a time, held it
// 104-200 ms; scanned into a CSV by a worker thread, 14 ms. A programmes
// feed of 20,000 lines (read, appended, hashed for the search sync and read
// into the link matcher, each whole) held it 197-211 ms outside GC pauses; a
// page at a time, 25-37 ms. A 20,000-transaction Awin report parsed on the
// event loop and decided in one pass held it 384-927 ms; parsed by a worker
// thread and decided a slice at a time, 31 ms.

const ROWS = 50_000
/** Product rows, of which every second one is flagged by the SQL pre-check, judged by the Schema rule and rejected. */
const PRODUCTS = 20_000
/** Items of the generated Google Merchant RSS feed (scripts/generate-products.ts). */
const XML_ITEMS = 12_000
/** Lines of the programmes feed (the sample's programmes, repeated under other merchant ids and domains). */
const PROGRAMMES = 20_000
/** Transactions of the Awin report (the sample report's, repeated under other ids). */
const TRANSACTIONS = 20_000
/** The longest stretch of main-thread CPU allowed between two timer turns (ms). */
const BOUND_MS = 100
/** The same where the rows never reach the main thread (the XML items: a worker's): the event loop's own target. */
const WORKER_BOUND_MS = 50

const longestOf = (stretch: { longestMs: number; longestOutsideGcMs: number }) =>
  `longest stretch ${stretch.longestMs.toFixed(1)} ms, ${stretch.longestOutsideGcMs.toFixed(1)} ms outside GC pauses`

describe("feed runs and the event loop", () => {
  const files = tempDir("price-history-")
  let env: Awaited<ReturnType<typeof startWithFeeds>>
  beforeAll(async () => {
    const lines = Array.from(
      { length: ROWS },
      (_, i) => `shop:${i % 5_000},2026-${String(1 + (i % 12)).padStart(2, "0")}-15T10:00:00Z,${(i % 900) + 9}.99,USD`
    )
    writeFileSync(join(files.dir, "history.csv"), ["product_id,observed_at,price,currency", ...lines].join("\n") + "\n")
    const flagged = products(PRODUCTS).map((p, i) => (i % 2 === 0 ? p : { ...p, price: `${i} dollars` }))
    writeFileSync(join(files.dir, "shop.tsv"), tsv(flagged))
    const sample = readFileSync("data/samples/programs.jsonl", "utf8")
      .split("\n")
      .filter((line) => line !== "")
    const programmes = Array.from({ length: PROGRAMMES }, (_, i) => {
      const programme = JSON.parse(sample[i % sample.length]) as Record<string, unknown>
      return JSON.stringify({
        ...programme,
        merchant_id: `${programme.merchant_id}-${i}`,
        domains: [`shop-${i}.example`]
      })
    })
    writeFileSync(join(files.dir, "programs.jsonl"), programmes.join("\n") + "\n")
    const transactions = JSON.parse(
      readFileSync("data/samples/reports/awin-transactions.json", "utf8")
    ) as Array<object>
    const report = Array.from({ length: TRANSACTIONS }, (_, i) => ({
      ...transactions[i % transactions.length],
      id: 500_000_000 + i,
      orderRef: `O-${i}`
    }))
    writeFileSync(join(files.dir, "awin.json"), JSON.stringify(report))
    await writeProducts({
      format: "gmc-xml",
      count: XML_ITEMS,
      seed: 1,
      out: join(files.dir, "shop.xml"),
      stores: selectStores("gb")
    })
    env = await startWithFeeds([
      {
        name: "history",
        kind: "price_history",
        format: "price-history-csv",
        location: join(files.dir, "history.csv")
      },
      {
        name: "shop",
        kind: "products",
        format: "gmc-tsv",
        location: join(files.dir, "shop.tsv"),
        options: { rejectThreshold: 0.9, storeColumn: "custom_label_0" }
      },
      {
        name: "programmes",
        kind: "programs",
        format: "programs-jsonl",
        location: join(files.dir, "programs.jsonl")
      },
      {
        name: "awin-report",
        kind: "conversions",
        format: "awin-transactions",
        location: join(files.dir, "awin.json"),
        options: { network: "awin", rejectThreshold: 0.5 }
      },
      {
        name: "rss",
        kind: "products",
        format: "gmc-xml",
        location: join(files.dir, "shop.xml"),
        options: { storeColumn: "custom_label_0", country: "GB" }
      }
    ])
  })
  afterAll(async () => {
    await env.close()
    files.rm()
  })

  it(`loads ${ROWS.toLocaleString()} observations without holding the event loop over ${BOUND_MS} ms of CPU`, async () => {
    const watch = watchMainThread()
    const run = await runFeed(env.service, "history")
    const stretch = watch.stop()
    expect(run).toMatchObject({ status: "succeeded", rowsRead: ROWS, rowsLoaded: ROWS })
    expect(await count(env.service, "SELECT count(*) AS n FROM price_history WHERE run_id = $1", [run.id])).toBe(ROWS)
    expect(stretch.longestOutsideGcMs, longestOf(stretch)).toBeLessThan(BOUND_MS)
  })

  it(`judges and rejects ${(PRODUCTS / 2).toLocaleString()} flagged product rows without holding the event loop over ${BOUND_MS} ms of CPU`, async () => {
    const watch = watchMainThread()
    const run = await runFeed(env.service, "shop")
    const stretch = watch.stop()
    expect(run).toMatchObject({ status: "succeeded", rowsRead: PRODUCTS, rowsLoaded: PRODUCTS / 2 })
    // every rejection written, with its line, reason and record
    const [first] = await query<{ n: bigint; line: bigint; reason: string; raw: string }>(
      env.service,
      `SELECT count(*) OVER () AS n, line, reason, raw FROM rejected_rows WHERE run_id = $1 ORDER BY line LIMIT 1`,
      [run.id]
    )
    expect(Number(first.n)).toBe(PRODUCTS / 2)
    expect(Number(first.line)).toBe(3) // the header is line 1; the second product is the first with a bad price
    expect(first.reason).toMatch(/^price: /)
    expect(JSON.parse(first.raw)).toMatchObject({ price: "1 dollars" })
    expect(stretch.longestOutsideGcMs, longestOf(stretch)).toBeLessThan(BOUND_MS)
  })

  it(`reads a ${XML_ITEMS.toLocaleString()}-item RSS feed without holding the event loop over ${WORKER_BOUND_MS} ms of CPU`, async () => {
    const watch = watchMainThread()
    const run = await runFeed(env.service, "rss")
    const stretch = watch.stop()
    expect(run).toMatchObject({ status: "succeeded", rowsRead: XML_ITEMS, rowsLoaded: XML_ITEMS })
    expect(stretch.longestOutsideGcMs, longestOf(stretch)).toBeLessThan(WORKER_BOUND_MS)
  })

  it(`loads ${PROGRAMMES.toLocaleString()} programmes, syncs and matches them without holding the event loop over ${BOUND_MS} ms of CPU`, async () => {
    const watch = watchMainThread()
    const run = await runFeed(env.service, "programmes")
    const stretch = watch.stop()
    expect(run).toMatchObject({ status: "succeeded", rowsRead: PROGRAMMES, rowsLoaded: PROGRAMMES })
    expect(run.documentsUpserted).toBe(PROGRAMMES)
    // the link matcher re-read them all (it holds the catalog in memory)
    const { catalog } = await env.service.run(Effect.flatMap(ProgramMatcher, (matcher) => matcher.current))
    expect(catalog.byDomain.has(`shop-${PROGRAMMES - 1}.example`)).toBe(true)
    expect(stretch.longestOutsideGcMs, longestOf(stretch)).toBeLessThan(BOUND_MS)
  })

  it(`loads a ${TRANSACTIONS.toLocaleString()}-transaction report without holding the event loop over ${BOUND_MS} ms of CPU`, async () => {
    const watch = watchMainThread()
    const run = await runFeed(env.service, "awin-report")
    const stretch = watch.stop()
    // the sample report's invalid transactions (a quarter of it) are rejected with their item numbers
    expect(run).toMatchObject({ status: "succeeded", rowsRead: TRANSACTIONS, rowsLoaded: TRANSACTIONS * 0.75 })
    expect(stretch.longestOutsideGcMs, longestOf(stretch)).toBeLessThan(BOUND_MS)
  })
})
