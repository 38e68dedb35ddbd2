import { Effect } from "effect"
import type { DuckDbShape } from "../../infra/Database.ts"
import { DOCUMENT_VERSION } from "../../readModel/documents.ts"
import { PRODUCT_FACT_JOINS, PRODUCT_ROW_COLUMNS, productFactsCtes } from "../../readModel/productFactsSql.ts"
import { keyInputsCopySql, modelKeysReadSql } from "./keyFiles.ts"
import { offerBytesSql } from "./modelBatches.ts"
import { removeRowFile, rowFileNames } from "./rowFiles.ts"
import { type SyncPhase, timedPhase } from "./syncPhases.ts"
import type { SyncWorker } from "./syncWorkerPool.ts"
import {
  AFFECTED_TABLE,
  INPUT_KEYS_TABLE,
  INPUT_NUMBER_KEYS_TABLE,
  KEYS_TABLE,
  MODELS_TABLE,
  NUMBERED_INPUTS_TABLE,
  OFFERS_STATE,
  PRODUCT_RANKS_TABLE,
  RANKED_MODELS_TABLE,
  SENT_TABLE,
  WORK_TABLE
} from "./workTables.ts"

// The SQL that puts each product under its model (DuckDB, in the sync's
// work database): a rebuild ranks every model and reads the products' facts
// chunk by chunk; a delta keeps unchanged products on the model the sync
// state names and keys only the rest. The sync policy (SearchSync.ts) picks
// which of the two runs; the sender (modelSender.ts) reads what they leave.

// The hash of everything a product's offer is built from. Recency enters it
// in whole days (capped), so a deal's score refreshes without resending the
// whole catalog daily.
const offerHash = `md5(concat_ws('|', '${DOCUMENT_VERSION}', p.content_hash, p.current_price::VARCHAR, p.availability,
      p.updated_at::DATE::VARCHAR, coalesce(ref.ref_price::VARCHAR, '-'), coalesce(ref.ref_at::DATE::VARCHAR, '-'),
      coalesce((ref.ref_days >= 3)::VARCHAR, '-'), coalesce(low.low90::VARCHAR, '-'),
      least(floor(date_diff('hour', coalesce(s.since, p.updated_at), now()) / 24), 15)::VARCHAR,
      least(floor(date_diff('hour', coalesce(s.first_at, now()), coalesce(s.since, now())) / 24), 30)::VARCHAR
    )) AS hash`

/** What a product's model key is made of: the columns of the work table a delta keys with. */
const KEY_INPUT_COLUMNS = ["title", "gtin", "color", "size", "condition"] as const

/** The product's row in the table of keyed inputs (null-safe: most inputs lack a colour, size or GTIN). */
const inputKeyJoin = (products: string) =>
  `JOIN ${INPUT_KEYS_TABLE} ik ON ik.title = ${products}.title AND ik.gtin IS NOT DISTINCT FROM ${products}.gtin
     AND ik.color IS NOT DISTINCT FROM ${products}.color AND ik.size IS NOT DISTINCT FROM ${products}.size
     AND ik.condition IS NOT DISTINCT FROM ${products}.condition`

// A delta's work table, one row per product: what the delta decides with
// (its hash, and the inputs of its model key), not the catalog row. The
// rows a delta sends are read chunk by chunk (deltaChunkRows), as a
// rebuild's are: a work table of every catalog row (and a model table of
// the affected ones, every one after a new 1M-product feed) held two wide
// copies of the catalog in DuckDB's memory, which filled its whole memory
// limit for the length of the sync.
//
// Its facts' products CTE (read three times, so DuckDB materialises it)
// takes only what the facts are computed from (id, first price and when it
// was seen); the table's own columns are read from the catalog itself (the
// main query's p is the products table, not the CTE). With every column
// in the CTE (descriptions, links) it held ~800 MB at 1M products, past
// DuckDB's 1 GB limit beside the facts' hash tables (it spilled).
const workQuery = `
  CREATE OR REPLACE TABLE ${WORK_TABLE} AS
  WITH ${productFactsCtes("", "id, first_seen_at, first_price")}
  SELECT p.id, p.feed, ${KEY_INPUT_COLUMNS.map((column) => `p.${column}`).join(", ")}, ${offerHash}, ${offerBytesSql("p")} AS bytes
  FROM products p
  ${PRODUCT_FACT_JOINS}
`

/**
 * A rebuild's rows of the models ranked in (from, to]: their products' price
 * facts and hash, computed for this chunk only and in rank order. No table of
 * all 1M products first: the first chunk is ready once the products are keyed
 * (Meilisearch idled through the 6.6 s work table before), and the facts'
 * work is spread over the sending, where it was one block before it.
 */
export const rebuildChunkRows = (from: number, to: number) => `
  WITH ${productFactsCtes(`WHERE id IN (SELECT id FROM ${PRODUCT_RANKS_TABLE} WHERE model_rank > ${from} AND model_rank <= ${to})`)}
  SELECT m.model_id, k.model_rank, ${PRODUCT_ROW_COLUMNS}, ${offerHash}, m.model_key
  FROM p ${PRODUCT_FACT_JOINS}
  JOIN ${PRODUCT_RANKS_TABLE} k ON k.id = p.id
  JOIN ${RANKED_MODELS_TABLE} m ON m.model_rank = k.model_rank
  ORDER BY k.model_rank`

/**
 * A delta's rows of the affected models ranked in (from, to]: their products'
 * price facts, computed for this chunk only and in rank order, with the hash
 * the work table recorded (what the sync state keeps).
 */
export const deltaChunkRows = (from: number, to: number) => `
  WITH ${productFactsCtes(`WHERE id IN (SELECT id FROM ${MODELS_TABLE} WHERE model_rank > ${from} AND model_rank <= ${to})`)}
  SELECT m.model_id, m.model_rank, ${PRODUCT_ROW_COLUMNS}, m.hash
  FROM p ${PRODUCT_FACT_JOINS}
  JOIN ${MODELS_TABLE} m ON m.id = p.id
  ORDER BY m.model_rank`

/**
 * Key inputs per file: the event loop's work per chunk is a few statements,
 * whatever its size, so chunks are large (fewer statements) yet bound what
 * the worker holds: a chunk's text and its keys (50k inputs: ~10 MB).
 */
export const KEY_CHUNK = 50_000

export type ProductModels = ReturnType<typeof makeProductModels>

/**
 * `db`: staging (DuckDB), with the work database attached; `rowFilesDir`:
 * the folder the key inputs' and keys' files go to (rowFiles.ts), there while a sync runs.
 */
export const makeProductModels = (db: DuckDbShape, rowFilesDir: string) => {
  const nextInputsFile = rowFileNames(rowFilesDir, "inputs")
  const nextKeysFile = rowFileNames(rowFilesDir, "keys")

  /**
   * Keys each distinct (title, GTIN, colour, size, condition) of `products`
   * once (`products`: a FROM clause), into the table of keyed inputs: the key
   * is a pure function of them and models repeat them across stores (200k
   * products: 84k inputs). The inputs are numbered in DuckDB and go to the
   * worker thread KEY_CHUNK at a time through files, their keys come back
   * the same way (keyFiles.ts): no input nor key is ever a JS value on the
   * event loop, and no array of every input is ever held.
   */
  const keyInputs = (products: string, phases: Array<SyncPhase>, worker: SyncWorker) =>
    Effect.gen(function* () {
      yield* db
        .run(
          // Stored in number order (an integer sort), so each chunk's range reads its own row groups only.
          `CREATE OR REPLACE TABLE ${NUMBERED_INPUTS_TABLE} AS
           SELECT row_number() OVER ()::INTEGER AS n, * FROM (SELECT DISTINCT title, gtin, color, size, condition FROM ${products})
           ORDER BY n`
        )
        .pipe(timedPhase(phases, "number key inputs"))
      const counted = yield* db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${NUMBERED_INPUTS_TABLE}`)
      const inputs = counted[0]?.n ?? 0
      yield* db.run(`CREATE OR REPLACE TABLE ${INPUT_NUMBER_KEYS_TABLE} (n INTEGER, model_key VARCHAR)`)
      const chunks = Array.from({ length: Math.ceil(inputs / KEY_CHUNK) }, (_, i) => i * KEY_CHUNK)
      // Two chunks at a time: DuckDB writes or reads one while the worker keys the other.
      yield* Effect.forEach(
        chunks,
        (from) => {
          const inputsFile = nextInputsFile()
          const keysFile = nextKeysFile()
          return Effect.gen(function* () {
            yield* db.query(keyInputsCopySql(NUMBERED_INPUTS_TABLE, from, from + KEY_CHUNK, inputsFile))
            yield* worker.keys(inputsFile, keysFile)
            yield* db.run(`INSERT INTO ${INPUT_NUMBER_KEYS_TABLE} ${modelKeysReadSql(keysFile)}`)
          }).pipe(
            // The worker deletes the inputs once read; a COPY that failed part
            // way (a full disk) or a worker that died leaves them to this.
            Effect.ensuring(Effect.andThen(removeRowFile(inputsFile), removeRowFile(keysFile)))
          )
        },
        { concurrency: 2, discard: true }
      ).pipe(timedPhase(phases, `key ${inputs} inputs in the worker`))
      yield* db.run(
        `CREATE OR REPLACE TABLE ${INPUT_KEYS_TABLE} AS
         SELECT i.title, i.gtin, i.color, i.size, i.condition, k.model_key
         FROM ${NUMBERED_INPUTS_TABLE} i JOIN ${INPUT_NUMBER_KEYS_TABLE} k USING (n)`
      )
      yield* db.run(`DROP TABLE ${NUMBERED_INPUTS_TABLE}`)
      yield* db.run(`DROP TABLE ${INPUT_NUMBER_KEYS_TABLE}`)
    })

  /**
   * A rebuild: each product's model (key, id, rank) in a narrow table, from
   * the catalog itself; the price facts follow chunk by chunk (rebuildChunkRows).
   */
  const allModels = (phases: Array<SyncPhase>, worker: SyncWorker) =>
    Effect.gen(function* () {
      // DuckDB keeps the instance's thread count (DUCKDB_THREADS, default one
      // core fewer than the machine): a SET threads here would hold for every
      // connection, the redirects' reads and the click applies included.
      yield* Effect.gen(function* () {
        yield* keyInputs("products", phases, worker)
        yield* Effect.gen(function* () {
          yield* db.run(
            `CREATE OR REPLACE TABLE ${RANKED_MODELS_TABLE} AS
             SELECT row_number() OVER (ORDER BY md5(model_key))::INTEGER AS model_rank, md5(model_key) AS model_id, model_key
             FROM (SELECT DISTINCT model_key FROM ${INPUT_KEYS_TABLE})`
          )
          yield* db.run(
            `CREATE OR REPLACE TABLE ${PRODUCT_RANKS_TABLE} AS
             SELECT p.id, m.model_rank, ${offerBytesSql("p")} AS bytes
             FROM products p ${inputKeyJoin("p")} JOIN ${RANKED_MODELS_TABLE} m ON m.model_key = ik.model_key`
          )
          yield* db.run(`DROP TABLE ${INPUT_KEYS_TABLE}`)
        }).pipe(timedPhase(phases, "product models"))
      }).pipe(timedPhase(phases, "keys (before the first chunk)"))
      yield* db.run(
        `CREATE OR REPLACE TABLE ${SENT_TABLE} (id VARCHAR, feed VARCHAR, hash VARCHAR, model_rank INTEGER)`
      )
      const counts = yield* db.query<{ models: number }>(
        `SELECT count(*)::INTEGER AS models FROM ${RANKED_MODELS_TABLE}`
      )
      return counts[0]?.models ?? 0
    })

  /** A delta: the models some offer of which is new, changed or gone, into the model table. */
  const changedModels = (phases: Array<SyncPhase>, worker: SyncWorker) =>
    Effect.gen(function* () {
      yield* db.run(workQuery).pipe(timedPhase(phases, "work table"))
      // Product -> model: an unchanged product keeps the model it had (its
      // key is built from fields its hash covers); the others are keyed now.
      yield* db.run(
        `CREATE OR REPLACE TABLE ${KEYS_TABLE} AS
         SELECT w.id, split_part(st.hash, ':', 2) AS model_id, false AS changed FROM ${WORK_TABLE} w
         JOIN search_sync_state st ON st.index_name = '${OFFERS_STATE}' AND st.id = w.id
         WHERE split_part(st.hash, ':', 1) = w.hash`
      )
      const unkeyed = `NOT EXISTS (SELECT 1 FROM ${KEYS_TABLE} k WHERE k.id = w.id)`
      yield* keyInputs(`${WORK_TABLE} w WHERE ${unkeyed}`, phases, worker)
      yield* db.run(
        `INSERT INTO ${KEYS_TABLE} SELECT w.id, md5(ik.model_key), true FROM ${WORK_TABLE} w ${inputKeyJoin("w")}
         WHERE ${unkeyed}`
      )
      yield* db.run(`DROP TABLE ${INPUT_KEYS_TABLE}`)
      // Every product is keyed: what follows reads the work table's id, feed,
      // hash and size only. A dropped column's memory goes at once (DuckDB
      // rewrites nothing): the ranked model table's sort below, beside the
      // work and key tables, is one of the moments a 1M delta's memory peaks
      // (the work table's key inputs were ~140 MB of it).
      for (const column of KEY_INPUT_COLUMNS) yield* db.run(`ALTER TABLE ${WORK_TABLE} DROP COLUMN ${column}`)
      // Models to send: those of changed products, before and after, and
      // those that lost a product.
      yield* db
        .run(
          `CREATE OR REPLACE TABLE ${AFFECTED_TABLE} AS
         SELECT DISTINCT model_id FROM (
           SELECT model_id FROM ${KEYS_TABLE} WHERE changed
           UNION ALL SELECT split_part(st.hash, ':', 2) FROM search_sync_state st
           WHERE st.index_name = '${OFFERS_STATE}'
             AND NOT EXISTS (SELECT 1 FROM ${KEYS_TABLE} k WHERE k.id = st.id AND NOT k.changed)
         )`
        )
        .pipe(timedPhase(phases, "affected models"))
      yield* db
        .run(
          // The one table the sending and the sync state read: a narrow row
          // per product (its model, hash, feed and size), ranked when its
          // model is affected, in rank order (each chunk's range then reads a
          // few row groups: zone maps). The wide work table and the keys go
          // now, before the sending, whose chunk tables sit beside it: at 1M
          // products they held ~300 MB more of DuckDB's memory for its length.
          `CREATE OR REPLACE TABLE ${MODELS_TABLE} AS
         WITH ranked AS (
           SELECT model_id, row_number() OVER (ORDER BY model_id) AS model_rank FROM (
             SELECT DISTINCT k.model_id FROM ${KEYS_TABLE} k
             WHERE k.model_id IN (SELECT model_id FROM ${AFFECTED_TABLE})
           )
         )
         SELECT k.model_id, r.model_rank, w.id, w.feed, w.hash, w.bytes
         FROM ${WORK_TABLE} w JOIN ${KEYS_TABLE} k USING (id) LEFT JOIN ranked r ON r.model_id = k.model_id
         ORDER BY r.model_rank NULLS LAST`
        )
        .pipe(timedPhase(phases, "ranked model table"))
      yield* db.run(`DROP TABLE ${WORK_TABLE}`)
      yield* db.run(`DROP TABLE ${KEYS_TABLE}`)
      const counts = yield* db.query<{ models: number; gone: number }>(
        `SELECT (SELECT count(DISTINCT model_id) FROM ${MODELS_TABLE} WHERE model_rank IS NOT NULL)::INTEGER AS models,
           (SELECT count(*) FROM ${AFFECTED_TABLE} a
            WHERE NOT EXISTS (SELECT 1 FROM ${MODELS_TABLE} m WHERE m.model_id = a.model_id))::INTEGER AS gone`
      )
      return { models: counts[0]?.models ?? 0, gone: counts[0]?.gone ?? 0 }
    })

  return { allModels, changedModels }
}
