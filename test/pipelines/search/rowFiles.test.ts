import { Effect } from "effect"
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Worker } from "node:worker_threads"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SearchEngine } from "../../../infra/SearchEngine.ts"
import { Staging } from "../../../infra/Staging.ts"
import { groupKey } from "../../../domain/catalog/modelKey.ts"
import { keyInputsCopySql, modelKeyLines, modelKeysReadSql } from "../../../pipelines/search/keyFiles.ts"
import { productRowOf, productRowsCopySql, productRowsOf } from "../../../pipelines/search/productRowsJson.ts"
import { ROW_FILES_FOLDER } from "../../../pipelines/search/rowFiles.ts"
import { SearchSync } from "../../../pipelines/search/SearchSync.ts"
import { productDocument, type ProductRow } from "../../../readModel/documents.ts"
import { PRODUCTS_INDEX } from "../../../readModel/indexes.ts"
import { PRODUCT_FACT_JOINS, PRODUCT_ROW_COLUMNS, productFactsCtes } from "../../../readModel/productFactsSql.ts"
import { insertProducts } from "../../support/catalogFixtures.ts"
import { type RunningService, startService, tempDir } from "../../support/TestService.ts"

// A products sync's rows reach its worker thread as files DuckDB writes
// (COPY ...) under DATA_DIR, never as rows read on the event loop: each
// batch's rows, each chunk of key inputs, the models' sizes; the worker's
// model keys come back as a file DuckDB reads. What the files carry must be,
// value for value, what the driver reads (text of any kind, nulls,
// timestamps); they are scratch, gone after every sync and at start-up; and
// a file that cannot be written or built fails the sync with a clear error
// and leaves the live index as it was.

const PRODUCTS = 20_000
/** Text a row's JSON must carry through: quotes, backslashes, line breaks, tabs, control and non-BMP characters. */
const AWKWARD = `Say "hi" \\ back\nline two\r\n\ttabbed \u0001 \u2028 Café 日本語 😀`
const FIXED_NOW = new Date("2026-03-01T12:00:00Z")

const rowsDir = (service: RunningService) => join(service.dataDir, ROW_FILES_FOLDER)
/** The folder's files, or none when the folder is gone (the sync may remove it at any moment: no exists-then-read). */
const rowFiles = (service: RunningService): Array<string> => {
  try {
    return readdirSync(rowsDir(service))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return []
    throw error
  }
}

const products = (service: RunningService) => service.run(SearchSync.use((sync) => sync.syncProducts()))

/** The live products index's documents. */
const liveDocuments = (service: RunningService) =>
  service.run(
    SearchEngine.use((search) =>
      search.use("stats", (client) => client.index(search.indexUid(PRODUCTS_INDEX)).getStats())
    ).pipe(Effect.map((stats) => stats.numberOfDocuments))
  )

/**
 * This service's indexes still under a build name once Meilisearch has run
 * the deletions queued for them (a failed rebuild drops the index it built),
 * polled for up to 20 s.
 */
const buildIndexesLeft = async (service: RunningService) => {
  const list = () =>
    service.run(
      SearchEngine.use((search) => search.use("indexes", (client) => client.getIndexes({ limit: 1000 }))).pipe(
        Effect.map((indexes) =>
          indexes.results
            .map((index) => index.uid)
            .filter((uid) => uid.startsWith(service.config.meiliIndexPrefix) && uid.includes("__build_"))
        )
      )
    )
  for (let waited = 0; waited < 20_000; waited += 100) {
    if ((await list()).length === 0) return []
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return list()
}

/** Forces the next sync to rebuild (into a fresh index, swapped in only once filled). */
const outOfStepSettings = (service: RunningService) =>
  service.run(
    Staging.use((db) => db.run("DELETE FROM search_sync_state WHERE index_name = $1", [`${PRODUCTS_INDEX}:settings`]))
  )

/** Runs `onStart` on the worker thread the next products sync starts. */
const onSyncWorker = (onStart: (worker: Worker) => void) => {
  process.once("worker", onStart)
  return () => process.off("worker", onStart)
}

/** Calls `seen` (once) as soon as the row files folder exists, polling every millisecond until `stop`. */
const watchFolder = (service: RunningService, seen: (entries: ReadonlyArray<string>) => boolean) => {
  let watching = true
  const done = (async () => {
    while (watching) {
      if (seen(rowFiles(service))) return
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
  })()
  return async () => {
    watching = false
    await done
  }
}

describe("the search sync's row files", () => {
  let service: RunningService
  const stale = tempDir("rowfiles-seed-")
  beforeAll(async () => {
    // What a process killed mid-sync leaves: a batch's file.
    mkdirSync(join(stale.dir, ROW_FILES_FOLDER))
    writeFileSync(join(stale.dir, ROW_FILES_FOLDER, "batch-7.ndjson"), '{"id":"left over"}\n')
    service = await startService({}, { seed: { dataDir: stale.dir } })
    await service.run(
      insertProducts([
        {
          itemId: "awkward",
          title: AWKWARD,
          description: AWKWARD,
          brand: 'Brand "B"',
          price: 12.5,
          history: [[40, 19]]
        },
        { itemId: "plain", title: "Trail Runner Shoes, Grey, Size 10", color: "Grey", size: "10", price: 89 }
      ])
    )
    await service.run(
      Staging.use((db) =>
        Effect.gen(function* () {
          // Nulls where a feed may leave a column empty.
          yield* db.run(
            "UPDATE products SET description = NULL, image_link = NULL, brand = NULL, store_domain = NULL WHERE id = 'fixture:plain'"
          )
          // PRODUCTS more products of as many models: a sync of several batches that takes a while.
          yield* db.run(
            `INSERT INTO products SELECT p.* REPLACE (p.id || '-' || t.i AS id, p.item_id || '-' || t.i AS item_id,
               'Trail Runner ' || t.i || ' Shoes, Grey, Size 10' AS title)
             FROM products p, range(1, ${PRODUCTS}) t(i) WHERE p.id = 'fixture:plain'`
          )
        })
      )
    )
  }, 120_000)
  afterAll(async () => {
    await service.close()
    stale.rm()
  })

  it("are gone at start-up when a killed process left some", () => {
    expect(rowFiles(service)).toEqual([])
  })

  it("carry every row as the driver reads it: text of any kind, nulls, timestamps", async () => {
    const file = join(service.dataDir, "copied.ndjson")
    const { read, copied } = await service.run(
      Staging.use((db) =>
        Effect.gen(function* () {
          // A table shaped as the sender's chunk tables: the sync's own columns, then ProductRow's.
          yield* db.run(
            `CREATE TABLE row_files_chunk AS WITH ${productFactsCtes("WHERE id IN ('fixture:awkward', 'fixture:plain')")}
             SELECT 'model' AS model_id, 1 AS model_rank, 'hash' AS hash, ${PRODUCT_ROW_COLUMNS}
             FROM p ${PRODUCT_FACT_JOINS} ORDER BY p.id`
          )
          const read = yield* db.query<ProductRow>(
            "SELECT * EXCLUDE (model_id, model_rank, hash) FROM row_files_chunk ORDER BY id"
          )
          const copied = yield* db.query(productRowsCopySql("row_files_chunk", "model_rank = 1", file))
          yield* db.run("DROP TABLE row_files_chunk")
          return { read, copied }
        })
      )
    )
    expect(copied).toHaveLength(1)
    const rows = [...productRowsOf(readFileSync(file))]
    expect(rows).toEqual(read)
    expect(rows[0]).toMatchObject({ title: AWKWARD, description: AWKWARD, brand: 'Brand "B"', ref_price: 19 })
    expect(rows[0].ref_at).toBeInstanceOf(Date)
    expect(rows[1]).toMatchObject({ description: null, image_link: null, brand: null, store_domain: null })
    expect(rows.map((row) => productDocument(row, FIXED_NOW))).toEqual(
      read.map((row) => productDocument(row, FIXED_NOW))
    )
    // One object a line: the line breaks inside the text are escaped.
    expect(readFileSync(file, "utf8").trimEnd().split("\n")).toHaveLength(2)
    expect(productRowOf(readFileSync(file, "utf8").split("\n")[0]).title).toBe(AWKWARD)
  })

  it("carry every key input as the driver reads it, and its key back", async () => {
    const inputs = join(service.dataDir, "inputs.ndjson")
    const keys = join(service.dataDir, "keys.ndjson")
    // Any text a feed may carry; a GTIN-less title of 200+ astral letters is keyed cut inside a surrogate pair.
    const astral = "\u{1D400}".repeat(150)
    const rows = [
      [AWKWARD, null, null, null, null],
      [AWKWARD, "00012345678905", null, null, null],
      ["Trail Runner Shoes, Grey, Size 10", null, "Grey", "10", "new"],
      [`Tees ${astral}`, null, null, null, "used"],
      ['Mug "Big"', "not a gtin", "Navy\nBlue", "L\\XL", "refurbished"]
    ] as const
    const { read, copied } = await service.run(
      Staging.use((db) =>
        Effect.gen(function* () {
          yield* db.run(
            "CREATE TABLE key_files_inputs (n INTEGER, title VARCHAR, gtin VARCHAR, color VARCHAR, size VARCHAR, condition VARCHAR)"
          )
          for (const [i, row] of rows.entries())
            yield* db.run("INSERT INTO key_files_inputs VALUES ($1, $2, $3, $4, $5, $6)", [i + 1, ...row])
          // A chunk's bounds: the first row falls outside.
          const copied = yield* db.query(keyInputsCopySql("key_files_inputs", 1, rows.length, inputs))
          writeFileSync(keys, modelKeyLines(readFileSync(inputs, "utf8")).text)
          const read = yield* db.query<{ n: number; model_key: string }>(`${modelKeysReadSql(keys)} ORDER BY n`)
          yield* db.run("DROP TABLE key_files_inputs")
          return { read, copied }
        })
      )
    )
    expect(copied).toHaveLength(1)
    expect(modelKeyLines(readFileSync(inputs, "utf8")).keyed).toBe(rows.length - 1)
    // What the driver made of the key the worker computed: a cut surrogate pair is U+FFFD.
    const expected = rows.slice(1).map(([title, gtin, color, size, condition], i) => ({
      n: i + 2,
      model_key: groupKey(gtin, title, { color, size, condition }).toWellFormed()
    }))
    expect(read).toEqual(expected)
    expect(read[2].model_key).toMatch(/^title:tees \u{1D400}+\uFFFD$/u)
  })

  it("are written during a sync and gone after it", async () => {
    const seen = new Set<string>()
    let mode: number | undefined
    const stop = watchFolder(service, (entries) => {
      for (const entry of entries) seen.add(entry)
      // The catalog's rows: the folder is the service user's alone, as DATA_DIR is.
      if (entries.length > 0) mode ??= statSync(rowsDir(service), { throwIfNoEntry: false })?.mode
      return false
    })
    const result = await products(service).finally(stop)
    expect(result).toMatchObject({ upserted: PRODUCTS + 1, deleted: 0 })
    // Every kind: the batches' rows, the key inputs and their keys, the models' sizes.
    for (const kind of [/^batch-\d+\.ndjson$/, /^inputs-\d+\.ndjson$/, /^keys-\d+\.ndjson$/, /^sizes-\d+\.csv$/])
      expect(
        [...seen].filter((name) => kind.test(name)),
        String(kind)
      ).not.toEqual([])
    expect(seen.has("batch-7.ndjson")).toBe(false)
    expect((mode ?? 0) & 0o777).toBe(0o700)
    expect(existsSync(rowsDir(service))).toBe(false)
    expect(await liveDocuments(service)).toBe(PRODUCTS + 1)
  })

  it("fail the sync clearly when the worker dies, leaving the live index as it was and no file", async () => {
    const before = await liveDocuments(service)
    await outOfStepSettings(service)
    let worker: Worker | undefined
    const stopListening = onSyncWorker((started) => (worker = started))
    // The worker is stopped as soon as DuckDB starts a batch's file.
    let stopped = false
    const stopWatching = watchFolder(service, (entries) => {
      if (worker === undefined || !entries.some((name) => name.startsWith("batch-"))) return false
      stopped = true
      void worker.terminate()
      return true
    })
    const failed = await products(service)
      .then(() => undefined)
      .catch((error: unknown) => error)
      .finally(async () => {
        stopListening()
        await stopWatching()
      })
    expect(stopped).toBe(true)
    expect(String(failed)).toMatch(/search sync worker: exited with code/)
    expect(rowFiles(service)).toEqual([])
    expect(await liveDocuments(service)).toBe(before)
    expect(await buildIndexesLeft(service)).toEqual([])
  })

  // DuckDB writes the batches, the key inputs and the sizes; the worker writes the keys.
  it.each(["batch-{n}.ndjson", "inputs-{n}.ndjson", "keys-{n}.ndjson", "sizes-{n}.csv"])(
    "fail the sync clearly when the disk is full for %s, leaving the live index as it was and no file",
    async (name) => {
      const before = await liveDocuments(service)
      await outOfStepSettings(service)
      // Every name a file of this kind may take leads to /dev/full once the sync has made its folder: each write fails with ENOSPC.
      const stopWatching = watchFolder(service, () => {
        if (!existsSync(rowsDir(service))) return false
        for (let n = 0; n < 1_000; n++) symlinkSync("/dev/full", join(rowsDir(service), name.replace("{n}", String(n))))
        return true
      })
      const failed = await products(service)
        .then(() => undefined)
        .catch((error: unknown) => error)
        .finally(stopWatching)
      expect(String(failed)).toMatch(/No space left on device/i)
      expect(rowFiles(service)).toEqual([])
      expect(await liveDocuments(service)).toBe(before)
      expect(await buildIndexesLeft(service)).toEqual([])
      expect(existsSync("/dev/full")).toBe(true)
    }
  )
})
