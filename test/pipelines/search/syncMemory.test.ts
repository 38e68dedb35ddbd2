import { Effect } from "effect"
import type { Worker } from "node:worker_threads"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "../../../infra/Database.ts"
import { SearchSync } from "../../../pipelines/search/SearchSync.ts"
import { SYNC_WORKER_HEAP_MB } from "../../../pipelines/search/syncWorkerPool.ts"
import { CHUNK_TABLE, WORK_DB } from "../../../pipelines/search/workTables.ts"
import { insertProducts } from "../../support/catalogFixtures.ts"
import { startService, type RunningService } from "../../support/TestService.ts"

// DuckDB's memory during a products sync is part of the service's RSS, and
// its scratch tables live in memory (an attached in-memory database): a sync
// that copies the catalog's rows into them holds the catalog in DuckDB's
// memory for its whole length (at 1M products, DuckDB's whole memory limit).
// A delta whose every product is new (a big feed's first run) is the worst
// case: every model is affected. Its in-memory tables, sampled through the
// sync, are bounded by what one copy of the catalog's rows takes in memory.
// The sync's worker thread has a heap of its own, in the same RSS: it runs
// under a tight heap limit, and batches of the longest descriptions a feed
// may carry (10,000 characters) build within it, a fraction of it used: the
// worker builds a batch model by model. Batches are cut by bytes: by offers
// alone the 12,000 such offers below would be one batch of ~130 MB of rows.

const PRODUCTS = 30_000
/** Long enough that the rows' text dominates what a copy of them takes. */
const DESCRIPTION_BYTES = 2_000
/** The longest description a feed may carry. */
const LONGEST_DESCRIPTION = 10_000
const LONG_PRODUCTS = 12_000
/**
 * The bound the worker's old generation must stay within (a worker's default
 * is ~4 GB; batches cut by offers alone needed ~1 GB for these descriptions).
 */
const TIGHT_OLD_GENERATION_MB = 256
/** What the worker's heap may use for these batches: it builds them model by model, one model's offers at a time. */
const WORKER_HEAP_USED_BYTES = 64 * 1024 * 1024
/** Just above what the worker's bound (SYNC_WORKER_HEAP_MB) lets V8 reach: old and young generation and a margin. */
const WORKER_HEAP_LIMIT_BYTES = (SYNC_WORKER_HEAP_MB.old + 3 * SYNC_WORKER_HEAP_MB.young + 16) * 1024 * 1024

/** A sync here: 11-15 s alone on 2 cores; over 60 s once inside the whole suite on a slow machine. */
const SYNC_TIMEOUT_MS = 240_000

/** DuckDB's in-memory tables (bytes): the sync's scratch tables, and the copy made to size one. */
const inMemoryTables = Database.use((db) =>
  db.query<{ bytes: number }>(
    "SELECT coalesce(sum(memory_usage_bytes), 0)::DOUBLE AS bytes FROM duckdb_memory() WHERE tag = 'IN_MEMORY_TABLE'"
  )
).pipe(Effect.map((rows) => rows[0]?.bytes ?? 0))

/** DuckDB's memory for query results it holds (bytes): among them a CTE it materialises. */
const columnData = Database.use((db) =>
  db.query<{ bytes: number }>(
    "SELECT coalesce(sum(memory_usage_bytes), 0)::DOUBLE AS bytes FROM duckdb_memory() WHERE tag = 'COLUMN_DATA'"
  )
).pipe(Effect.map((rows) => rows[0]?.bytes ?? 0))

/** The sync's scratch tables present now (names in its work database). */
const scratchTables = Database.use((db) =>
  db.query<{ name: string }>(
    `SELECT table_name AS name FROM duckdb_tables() WHERE database_name = '${WORK_DB}' ORDER BY table_name`
  )
).pipe(Effect.map((rows) => rows.map((row) => row.name)))

/** A chunk's table of rows to send (modelSender.ts): there only while the sync sends. */
const chunkTablePrefix = `${CHUNK_TABLE.slice(WORK_DB.length + 1)}_`

describe("a products sync's memory", { timeout: SYNC_TIMEOUT_MS }, () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
    await service.run(
      insertProducts([
        {
          itemId: "shoe",
          title: "Trail Runner Shoes, Grey, Size 10",
          description: "A".repeat(DESCRIPTION_BYTES),
          color: "Grey",
          size: "10",
          price: 89,
          history: [[40, 99]],
          currentSinceDays: 2
        }
      ])
    )
    // The live index, in step with the sync state: the next sync is a delta.
    await service.run(SearchSync.use((sync) => sync.syncProducts()))
    // PRODUCTS new products of as many models, each with its own text and a price history.
    await service.run(
      Database.use((db) =>
        Effect.gen(function* () {
          yield* db.run(
            `INSERT INTO products SELECT p.* REPLACE (p.id || '-' || t.i AS id, p.item_id || '-' || t.i AS item_id,
               'Trail Runner ' || t.i || ' Shoes, Grey, Size 10' AS title, t.i || p.description AS description)
             FROM products p, range(1, ${PRODUCTS + 1}) t(i)`
          )
          yield* db.run(
            `INSERT INTO price_history SELECT h.* REPLACE (h.product_id || '-' || t.i AS product_id)
             FROM price_history h, range(1, ${PRODUCTS + 1}) t(i)`
          )
        })
      )
    )
  })
  afterAll(() => service.close())

  /** A products sync, sampling DuckDB's in-memory tables and the heap of the sync's worker as it runs. */
  const sampledSync = async () => {
    // The workers started from here on: the sync's (the service's own started with it).
    const workers: Array<Worker> = []
    const started = (worker: Worker) => workers.push(worker)
    process.on("worker", started)
    const peak = { tableBytes: 0, columnDataBeforeSending: 0, workerHeapLimit: 0, workerHeapUsed: 0 }
    /** The other scratch tables seen beside a chunk's table, i.e. held while the sync sends. */
    const heldWhileSending = new Set<string>()
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        peak.tableBytes = Math.max(peak.tableBytes, await service.run(inMemoryTables))
        const columnBytes = await service.run(columnData)
        const tables = await service.run(scratchTables)
        const sending = tables.some((name) => name.startsWith(chunkTablePrefix))
        if (!sending && !tables.includes("models"))
          peak.columnDataBeforeSending = Math.max(peak.columnDataBeforeSending, columnBytes)
        if (sending) for (const name of tables) if (!name.startsWith(chunkTablePrefix)) heldWhileSending.add(name)
        for (const worker of workers) {
          const heap = await worker.getHeapStatistics().catch(() => undefined)
          if (heap === undefined) continue
          peak.workerHeapLimit = Math.max(peak.workerHeapLimit, heap.heap_size_limit)
          peak.workerHeapUsed = Math.max(peak.workerHeapUsed, heap.used_heap_size)
        }
        // The phases sampled last seconds at this size; every 10 ms, the sampling's
        // queries took a fifth of the file's CPU (52 against 42 s, run alone)
        await new Promise((done) => setTimeout(done, 50))
      }
    })()
    const result = await service.run(SearchSync.use((sync) => sync.syncProducts())).finally(async () => {
      sampling = false
      await sampler
      process.off("worker", started)
    })
    return { result, workers: workers.length, heldWhileSending: [...heldWhileSending].sort(), ...peak }
  }

  it(`keeps a delta of ${PRODUCTS.toLocaleString()} new products within one copy of their rows, its worker within a heap limit`, async () => {
    // What one copy of the catalog's rows takes in DuckDB's memory, measured the way the sync's tables are.
    const copyBytes = await service.run(
      Database.use((db) =>
        Effect.gen(function* () {
          const before = yield* inMemoryTables
          yield* db.run("ATTACH ':memory:' AS sized_copy")
          yield* db.run("CREATE TABLE sized_copy.products AS SELECT * FROM products")
          const after = yield* inMemoryTables
          yield* db.run("DETACH sized_copy")
          return after - before
        })
      )
    )
    expect(copyBytes).toBeGreaterThan(PRODUCTS * DESCRIPTION_BYTES)

    const sync = await sampledSync()
    expect(sync.result).toMatchObject({ upserted: PRODUCTS, deleted: 0 })
    // Before the scratch tables were narrowed, the sync held two wide copies
    // (its work table and its model table) through the whole sending.
    expect(sync.tableBytes).toBeLessThan(1.75 * copyBytes)
    // While it sends, a delta holds one narrow row per product (its model, rank, hash, feed and size) and
    // the affected models: the work table of the key inputs and the keys are gone (at 1M products they
    // held ~300 MB of DuckDB's memory through the sending).
    expect(sync.heldWhileSending).toEqual(["affected", "models"])
    // Its work table is built from the products' key inputs, hashes and sizes: the products CTE the query
    // materialises took every column, a copy of the catalog's rows beside the facts (0.95 copies; 0.18 now).
    expect(sync.columnDataBeforeSending).toBeLessThan(0.4 * copyBytes)
    expect(sync.workers).toBe(1)
    expect(sync.workerHeapLimit).toBeGreaterThan(0)
    expect(sync.workerHeapLimit).toBeLessThan(WORKER_HEAP_LIMIT_BYTES)
  })

  it(`builds ${LONG_PRODUCTS.toLocaleString()} offers of ${LONGEST_DESCRIPTION.toLocaleString()}-character descriptions within a tight worker heap`, async () => {
    // As many products changed to the longest description a feed may carry (a new content hash: they are resent).
    await service.run(
      Database.use((db) =>
        db.run(
          `UPDATE products SET description = id || repeat('B', ${LONGEST_DESCRIPTION} - length(id)),
             content_hash = md5(content_hash || 'long')
           WHERE id IN (SELECT id FROM products ORDER BY id LIMIT ${LONG_PRODUCTS})`
        )
      )
    )
    const sync = await sampledSync()
    // By offers alone they would be one batch, and the worker runs out of heap at this bound: the sync fails.
    expect(sync.result).toMatchObject({ upserted: LONG_PRODUCTS, deleted: 0 })
    expect(SYNC_WORKER_HEAP_MB.old).toBeLessThanOrEqual(TIGHT_OLD_GENERATION_MB)
    expect(sync.workerHeapLimit).toBeGreaterThan(0)
    expect(sync.workerHeapLimit).toBeLessThan(WORKER_HEAP_LIMIT_BYTES)
    expect(sync.workerHeapUsed).toBeLessThan(sync.workerHeapLimit)
    // Model by model: ~17 MB sampled; holding every offer, document and the batch's JSON at once, 106 MB.
    expect(sync.workerHeapUsed).toBeLessThan(WORKER_HEAP_USED_BYTES)
  })
})
