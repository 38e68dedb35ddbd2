import { Clock, Context, Effect, Layer, Semaphore } from "effect"
import type { Settings } from "meilisearch"
import { randomBytes } from "node:crypto"
import { availableParallelism } from "node:os"
import { appendTextOrNull, type DatabaseError } from "../../infra/Database.ts"
import { Staging } from "../../infra/Staging.ts"
import { SearchEngine, SearchError } from "../../infra/SearchEngine.ts"
import { groupKey } from "../../domain/catalog/modelKey.ts"
import { DOCUMENT_VERSION, productDocument } from "../../readModel/documents.ts"
import { modelDocuments } from "../../readModel/modelDocuments.ts"
import {
  BATCH_SIZE,
  batchChunks,
  type ModelBatch,
  modelBatches,
  OFFERS_IN_FIRST_CHUNK,
  OFFERS_PER_CHUNK
} from "./modelBatches.ts"
import { programDocuments } from "./programDocuments.ts"
import { productRowOf, productRowsJsonSql } from "./productRowsJson.ts"
import { PRODUCT_FACT_JOINS, PRODUCT_ROW_COLUMNS, productFactsCtes } from "../../readModel/productFactsSql.ts"
import { productSettings, programSettings, settingsHash } from "../../readModel/settings.ts"
import { PRODUCTS_INDEX, PROGRAMS_INDEX } from "../../readModel/indexes.ts"

// Keeps the Meilisearch indexes in step with the catalog, read from staging
// (DuckDB: the source of truth, or PostgreSQL's published copy).
//
// - Products: one document per model (modelDocuments.ts). Each product's
//   hash and model, and each model's hash, are kept in `search_sync_state`,
//   so a sync (also after a restart) sends only the models one of whose
//   offers is new, changed or gone, and deletes models left with no offer.
// - Settings or document shape change (or a missing / out-of-step index):
//   the index is rebuilt into a fresh one and swapped in (`swapIndexes`,
//   rename: false), then the old one is deleted; queries never see a
//   half-built index.
// - Every task is awaited; a failed task fails the sync, and the sync state
//   is only written after every task succeeded, so the next run retries.

export interface SyncResult {
  readonly upserted: number
  readonly deleted: number
  /** Where a products sync's time went, in order (milliseconds per phase). */
  readonly phases?: ReadonlyArray<SyncPhase>
}

export interface SyncPhase {
  readonly name: string
  readonly ms: number
}

export type SyncError = SearchError | DatabaseError

export interface SearchSyncShape {
  /** Syncs the products of one feed (or of every feed when omitted). */
  syncProducts(feed?: string): Effect.Effect<SyncResult, SyncError>
  syncPrograms(): Effect.Effect<SyncResult, SyncError>
  /**
   * True when the live products index was built with other settings or an
   * older document shape than this code's (recorded by a previous release):
   * searches cannot read it until a sync rebuilds it.
   */
  readonly productsIndexOutdated: Effect.Effect<boolean, SyncError>
}

/** Enqueue requests in flight while the next batch is read from DuckDB. */
const SEND_CONCURRENCY = 2
const TASK_TIMEOUT_MS = 30 * 60_000
/**
 * The sync's scratch tables live in an in-memory database attached beside the
 * catalog for the sync's length: never written to the catalog file, its WAL
 * or its checkpoints. Copying the 1M-row products table into a table of the
 * catalog file took 6.3 s, into memory 1.1 s (DuckDB, one thread); a chunk's
 * sort 1.9 s vs 0.85 s. What passes DuckDB's memory limit spills to its temp
 * directory as before.
 */
const WORK_DB = "search_sync_work"
const WORK_TABLE = `${WORK_DB}.products`
const KEYS_TABLE = `${WORK_DB}.keys`
/** Filled by an appender, which names the table and its database apart. */
const INPUT_KEYS = "input_keys"
const INPUT_KEYS_TABLE = `${WORK_DB}.${INPUT_KEYS}`
const AFFECTED_TABLE = `${WORK_DB}.affected`
const MODELS_TABLE = `${WORK_DB}.models`
const CHUNK_TABLE = `${WORK_DB}.chunk`
// A rebuild's tables, narrow: in memory they stay resident, and a wide
// 1M-row table of keys (model id and key per product) held ~140 MB more.
/** A rebuild's models: model_rank, model_id, model_key (one row per model). */
const RANKED_MODELS_TABLE = `${WORK_DB}.ranked_models`
/** A rebuild's products: id, model_rank. */
const PRODUCT_RANKS_TABLE = `${WORK_DB}.product_ranks`
/** A rebuild's sent offers (id, feed, hash, model_rank), gathered chunk by chunk for the sync state. */
const SENT_TABLE = `${WORK_DB}.sent`
/** The prefix of the scratch tables earlier releases kept in the catalog itself (dropped if a killed sync left any). */
const LEGACY_WORK_PREFIX = "search_sync_work_"
/** Sync state of each product (its hash and model, as 'hash:model id'); `products` rows are per model. */
const OFFERS_STATE = "products:offers"

/** The fields the model key is built from. */
interface KeyInput {
  readonly title: string
  readonly gtin: string | null
  readonly color: string | null
  readonly size: string | null
  readonly condition: string | null
}

/**
 * Where sendModels reads: `ranks` has a row (model_rank) per offer; the
 * offers' rows carry model_id, model_rank, hash and the ProductRow columns.
 * A delta's `rows` is a table in rank order, read batch by batch; a rebuild's
 * `chunkRows(from, to)` selects the rows of the models ranked in (from, to]
 * in rank order, stored chunk by chunk, each chunk's offers also recorded
 * into `sentTo` (id, feed, hash, model_rank) for the sync state.
 */
type ModelSource =
  | { readonly ranks: string; readonly rows: string }
  | {
      readonly ranks: string
      readonly chunkRows: (from: number, to: number) => string
      readonly sentTo: string
    }

const settingsKey = (index: string) => `${index}:settings`

// What the live products index was built with. A new document shape is part
// of it: a shape change rebuilds the index and swaps it in whole, so searches
// never meet old and new documents side by side.
const productsIndexHash = `${settingsHash(productSettings)}:${DOCUMENT_VERSION}`
const programsIndexHash = settingsHash(programSettings)

// The hash of everything a product's offer is built from. Recency enters it
// in whole days (capped), so a deal's score refreshes without resending the
// whole catalog daily.
const offerHash = `md5(concat_ws('|', '${DOCUMENT_VERSION}', p.content_hash, p.current_price::VARCHAR, p.availability,
      p.updated_at::DATE::VARCHAR, coalesce(ref.ref_price::VARCHAR, '-'), coalesce(ref.ref_at::DATE::VARCHAR, '-'),
      coalesce((ref.ref_days >= 3)::VARCHAR, '-'), coalesce(low.low90::VARCHAR, '-'),
      least(floor(date_diff('hour', coalesce(s.since, p.updated_at), now()) / 24), 15)::VARCHAR,
      least(floor(date_diff('hour', coalesce(s.first_at, now()), coalesce(s.since, now())) / 24), 30)::VARCHAR
    )) AS hash`

/** The product's row in the table of keyed inputs (null-safe: most inputs lack a colour, size or GTIN). */
const inputKeyJoin = (products: string) =>
  `JOIN ${INPUT_KEYS_TABLE} ik ON ik.title = ${products}.title AND ik.gtin IS NOT DISTINCT FROM ${products}.gtin
     AND ik.color IS NOT DISTINCT FROM ${products}.color AND ik.size IS NOT DISTINCT FROM ${products}.size
     AND ik.condition IS NOT DISTINCT FROM ${products}.condition`

// A delta's work table, one row per product: the catalog row, its
// price-history facts and its hash, unkeyed (an unchanged product keeps the
// model its state names).
const workQuery = `
  CREATE OR REPLACE TABLE ${WORK_TABLE} AS
  WITH ${productFactsCtes("")}
  SELECT ${PRODUCT_ROW_COLUMNS}, ${offerHash}
  FROM p
  ${PRODUCT_FACT_JOINS}
`

/**
 * A rebuild's rows of the models ranked in (from, to]: their products' price
 * facts and hash, computed for this chunk only and in rank order. No table of
 * all 1M products first: the first chunk is ready once the products are keyed
 * (Meilisearch idled through the 6.6 s work table before), and the facts'
 * work is spread over the sending, where it was one block before it.
 */
const rebuildChunkRows = (from: number, to: number) => `
  WITH ${productFactsCtes(`WHERE id IN (SELECT id FROM ${PRODUCT_RANKS_TABLE} WHERE model_rank > ${from} AND model_rank <= ${to})`)}
  SELECT m.model_id, k.model_rank, ${PRODUCT_ROW_COLUMNS}, ${offerHash}, m.model_key
  FROM p ${PRODUCT_FACT_JOINS}
  JOIN ${PRODUCT_RANKS_TABLE} k ON k.id = p.id
  JOIN ${RANKED_MODELS_TABLE} m ON m.model_rank = k.model_rank
  ORDER BY k.model_rank`

/** Runs `effect`, recording how long it took as phase `name`. */
const timedPhase =
  (phases: Array<SyncPhase>, name: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.gen(function* () {
      const started = yield* Clock.currentTimeMillis
      const value = yield* effect
      phases.push({ name, ms: (yield* Clock.currentTimeMillis) - started })
      return value
    })

const notFoundCode = (error: SearchError) => {
  const cause = error.cause as { cause?: { code?: string } } | undefined
  return cause?.cause?.code === "index_not_found"
}

export class SearchSync extends Context.Service<SearchSync, SearchSyncShape>()("app/pipelines/search/SearchSync") {
  static readonly layer = Layer.effect(
    SearchSync,
    Effect.gen(function* () {
      // Staging: the catalog as published (staging IS the Database without
      // PostgreSQL), with the DuckDB SQL below and the sync state beside it.
      const db = yield* Staging
      const search = yield* SearchEngine
      // One sync per index at a time: two feeds finishing together must not
      // both decide to rebuild, or interleave their state writes.
      const productsLock = yield* Semaphore.make(1)
      const programsLock = yield* Semaphore.make(1)

      const indexExists = (uid: string) =>
        search
          .use(`get index ${uid}`, (client) => client.getRawIndex(uid))
          .pipe(
            Effect.as(true),
            Effect.catchIf(
              (error) => notFoundCode(error),
              () => Effect.succeed(false)
            )
          )

      const documentCount = (uid: string) =>
        search
          .use(`stats ${uid}`, (client) => client.index(uid).getStats())
          .pipe(Effect.map((stats) => stats.numberOfDocuments))

      const storedSettingsHash = (index: string) =>
        db
          .query<{ hash: string }>("SELECT hash FROM search_sync_state WHERE index_name = $1", [settingsKey(index)])
          .pipe(Effect.map((rows) => rows[0]?.hash))

      const stateCount = (index: string) =>
        db
          .query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM search_sync_state WHERE index_name = $1", [index])
          .pipe(Effect.map((rows) => rows[0]?.n ?? 0))

      /** True when the live index can take a delta; false when it must be rebuilt. */
      const canDelta = (index: string, indexHash: string) =>
        Effect.gen(function* () {
          const uid = search.indexUid(index)
          if (!(yield* indexExists(uid))) return false
          if ((yield* storedSettingsHash(index)) !== indexHash) return false
          // An index that lost documents (wiped server, manual edits) is out
          // of step with our state: rebuild rather than trust the delta.
          return (yield* documentCount(uid)) === (yield* stateCount(index))
        })

      /** Waits for every enqueued task (they run in order) and fails on the first failed one. */
      const awaitTasks = (what: string, uids: ReadonlyArray<number>) =>
        uids.length === 0
          ? Effect.void
          : search
              .use(what, (client) => client.tasks.waitForTasks(uids, { timeout: TASK_TIMEOUT_MS, interval: 50 }))
              .pipe(
                Effect.flatMap((tasks) => {
                  const failed = tasks.find((task) => task.status !== "succeeded")
                  return failed === undefined
                    ? Effect.void
                    : Effect.fail(
                        new SearchError({
                          message: `${what}: task ${failed.uid} ${failed.status}: ${failed.error?.message ?? "no message"}`,
                          unavailable: false
                        })
                      )
                })
              )

      const enqueueAdd = (uid: string, documents: ReadonlyArray<object>) =>
        search
          .use(`add documents to ${uid}`, (client) =>
            client.index(uid).addDocuments(documents as Array<Record<string, unknown>>, { primaryKey: "id" })
          )
          .pipe(Effect.map((task) => task.taskUid))

      const enqueueDelete = (uid: string, ids: ReadonlyArray<string>) =>
        search
          .use(`delete documents from ${uid}`, (client) => client.index(uid).deleteDocuments([...ids]))
          .pipe(Effect.map((task) => task.taskUid))

      /** Creates a fresh index with `settings`, ready to be filled and swapped in. */
      const createFresh = (index: string, settings: Settings) =>
        Effect.gen(function* () {
          const uid = search.indexUid(`${index}__build_${randomBytes(4).toString("hex")}`)
          yield* search.task(`create ${uid}`, (client) => client.createIndex(uid, { primaryKey: "id" }))
          yield* search.task(`settings ${uid}`, (client) => client.index(uid).updateSettings(settings))
          return uid
        })

      /** Swaps a built index in under the live uid and deletes the old one. */
      const swapIn = (index: string, builtUid: string) =>
        Effect.gen(function* () {
          const live = search.indexUid(index)
          if (!(yield* indexExists(live))) {
            yield* search.task(`create ${live}`, (client) => client.createIndex(live, { primaryKey: "id" }))
          }
          yield* search.task(`swap ${live}`, (client) =>
            client.swapIndexes([{ indexes: [live, builtUid], rename: false }])
          )
          yield* search.task(`delete old ${index}`, (client) => client.deleteIndex(builtUid))
        })

      const dropBuild = (uid: string) =>
        search.use(`drop ${uid}`, (client) => client.deleteIndexIfExists(uid)).pipe(Effect.ignore)

      // ---- products: one document per model ---------------------------------

      /**
       * Keys each distinct (title, GTIN, colour, size, condition) of `products`
       * once (`products`: a FROM clause), into the table of keyed inputs: the key is a pure function of them
       * and models repeat them across stores (200k products: 84k inputs).
       */
      const keyInputs = (products: string, phases: Array<SyncPhase>) =>
        Effect.gen(function* () {
          const inputs = yield* db
            .query<KeyInput>(`SELECT DISTINCT title, gtin, color, size, condition FROM ${products}`)
            .pipe(timedPhase(phases, "read key inputs"))
          // Keyed before the append takes the writer.
          const keys = yield* Effect.sync(() => inputs.map((input) => groupKey(input.gtin, input.title, input))).pipe(
            timedPhase(phases, `key ${inputs.length} inputs in JS`)
          )
          yield* db.run(
            `CREATE OR REPLACE TABLE ${INPUT_KEYS_TABLE}
             (title VARCHAR, gtin VARCHAR, color VARCHAR, size VARCHAR, condition VARCHAR, model_key VARCHAR)`
          )
          yield* db.append(
            INPUT_KEYS,
            (appender) => {
              for (const [i, input] of inputs.entries()) {
                appendTextOrNull(appender, input.title)
                appendTextOrNull(appender, input.gtin)
                appendTextOrNull(appender, input.color)
                appendTextOrNull(appender, input.size)
                appendTextOrNull(appender, input.condition)
                appender.appendVarchar(keys[i])
                appender.endRow()
              }
            },
            { database: WORK_DB }
          )
        })

      /**
       * A rebuild: each product's model (key, id, rank) in a narrow table, from
       * the catalog itself; the price facts follow chunk by chunk (rebuildChunkRows).
       */
      const allModels = (phases: Array<SyncPhase>) =>
        Effect.gen(function* () {
          // Meilisearch idles until the first batch: meanwhile DuckDB may use every core.
          const configured = yield* db.query<{ threads: number }>(
            "SELECT current_setting('threads')::INTEGER AS threads"
          )
          const threads = configured[0]?.threads ?? 1
          yield* Effect.acquireUseRelease(
            db.run(`SET threads = ${Math.max(threads, availableParallelism())}`),
            () =>
              Effect.gen(function* () {
                yield* keyInputs("products", phases)
                yield* Effect.gen(function* () {
                  yield* db.run(
                    `CREATE OR REPLACE TABLE ${RANKED_MODELS_TABLE} AS
                     SELECT row_number() OVER (ORDER BY md5(model_key))::INTEGER AS model_rank, md5(model_key) AS model_id, model_key
                     FROM (SELECT DISTINCT model_key FROM ${INPUT_KEYS_TABLE})`
                  )
                  yield* db.run(
                    `CREATE OR REPLACE TABLE ${PRODUCT_RANKS_TABLE} AS
                     SELECT p.id, m.model_rank
                     FROM products p ${inputKeyJoin("p")} JOIN ${RANKED_MODELS_TABLE} m ON m.model_key = ik.model_key`
                  )
                  yield* db.run(`DROP TABLE ${INPUT_KEYS_TABLE}`)
                }).pipe(timedPhase(phases, "product models"))
              }),
            () => db.run(`SET threads = ${threads}`).pipe(Effect.ignore)
          ).pipe(timedPhase(phases, "keys (before the first chunk)"))
          yield* db.run(
            `CREATE OR REPLACE TABLE ${SENT_TABLE} (id VARCHAR, feed VARCHAR, hash VARCHAR, model_rank INTEGER)`
          )
          const counts = yield* db.query<{ models: number }>(
            `SELECT count(*)::INTEGER AS models FROM ${RANKED_MODELS_TABLE}`
          )
          return counts[0]?.models ?? 0
        })

      /** A delta: the models some offer of which is new, changed or gone, into the model table. */
      const changedModels = (phases: Array<SyncPhase>) =>
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
          yield* keyInputs(`${WORK_TABLE} w WHERE ${unkeyed}`, phases)
          yield* db.run(
            `INSERT INTO ${KEYS_TABLE} SELECT w.id, md5(ik.model_key), true FROM ${WORK_TABLE} w ${inputKeyJoin("w")}
             WHERE ${unkeyed}`
          )
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
              // Ranked on the narrow model ids, stored in rank order: each batch's
              // range then reads a few row groups (zone maps), not the whole wide
              // table once per batch as an unordered table made it.
              `CREATE OR REPLACE TABLE ${MODELS_TABLE} AS
             WITH ranked AS (
               SELECT model_id, row_number() OVER (ORDER BY model_id) AS model_rank FROM (
                 SELECT DISTINCT k.model_id FROM ${KEYS_TABLE} k
                 WHERE k.model_id IN (SELECT model_id FROM ${AFFECTED_TABLE})
               )
             )
             SELECT k.model_id, r.model_rank, w.*
             FROM ${WORK_TABLE} w JOIN ${KEYS_TABLE} k USING (id) JOIN ranked r ON r.model_id = k.model_id
             ORDER BY r.model_rank`
            )
            .pipe(timedPhase(phases, "ranked model table"))
          const counts = yield* db.query<{ models: number; gone: number }>(
            `SELECT (SELECT count(DISTINCT model_id) FROM ${MODELS_TABLE})::INTEGER AS models,
               (SELECT count(*) FROM ${AFFECTED_TABLE} a
                WHERE NOT EXISTS (SELECT 1 FROM ${MODELS_TABLE} m WHERE m.model_id = a.model_id))::INTEGER AS gone`
          )
          return { models: counts[0]?.models ?? 0, gone: counts[0]?.gone ?? 0 }
        })

      /**
       * Streams the models of `source` to Meilisearch in batches (modelBatches.ts);
       * returns the enqueued task uids. A table in rank order is read at once; a
       * rebuild chunk by chunk: each chunk's rows are built into a table of their
       * own while the previous chunk is being sent, so Meilisearch gets its first
       * batch after one (small) chunk, not after all of them.
       */
      const sendModels = (uid: string, source: ModelSource, phases: Array<SyncPhase>) =>
        Effect.gen(function* () {
          const started = yield* Clock.currentTimeMillis
          const now = new Date(started)
          // Summed over batches and chunks, which overlap: where the sending time goes.
          const spent = { chunk: 0, read: 0, build: 0, enqueue: 0 }
          let firstAt: number | undefined

          // At most SEND_CONCURRENCY batches in memory at once, across chunks too.
          const inFlight = yield* Semaphore.make(SEND_CONCURRENCY)
          const sendBatch = (table: string, { from, to }: ModelBatch) =>
            Effect.gen(function* () {
              const t0 = yield* Clock.currentTimeMillis
              // Literal bounds (our own integers): DuckDB prunes row groups by zone
              // maps only for constants; a bound parameter made each batch scan
              // the whole table.
              const rows = yield* db.query<{ row: string }>(
                productRowsJsonSql(table, `model_rank > ${from} AND model_rank <= ${to}`)
              )
              const t1 = yield* Clock.currentTimeMillis
              const documents = modelDocuments(rows.map(({ row }) => productDocument(productRowOf(row), now)))
              const t2 = yield* Clock.currentTimeMillis
              const task = yield* enqueueAdd(uid, documents)
              const t3 = yield* Clock.currentTimeMillis
              spent.read += t1 - t0
              spent.build += t2 - t1
              spent.enqueue += t3 - t2
              firstAt ??= t3 - started
              return task
            }).pipe(inFlight.withPermits(1))
          const sendBatches = (table: string, batches: ReadonlyArray<ModelBatch>) =>
            Effect.forEach(batches, (batch) => sendBatch(table, batch), { concurrency: SEND_CONCURRENCY })

          const sendChunk =
            (chunkRows: (from: number, to: number) => string, sentTo: string) =>
            (batches: ReadonlyArray<ModelBatch>, index: number) =>
              Effect.gen(function* () {
                const chunkTable = `${CHUNK_TABLE}_${index}`
                const t0 = yield* Clock.currentTimeMillis
                yield* db.run(
                  `CREATE OR REPLACE TABLE ${chunkTable} AS ${chunkRows(batches[0].from, batches[batches.length - 1].to)}`
                )
                yield* db.run(`INSERT INTO ${sentTo} SELECT id, feed, hash, model_rank FROM ${chunkTable}`)
                spent.chunk += (yield* Clock.currentTimeMillis) - t0
                return yield* sendBatches(chunkTable, batches).pipe(
                  Effect.ensuring(db.run(`DROP TABLE IF EXISTS ${chunkTable}`).pipe(Effect.ignore))
                )
              })

          const counts = yield* db.query<{ offers: number }>(
            `SELECT count(*)::INTEGER AS offers FROM ${source.ranks} GROUP BY model_rank ORDER BY model_rank`
          )
          const offersPerModel = counts.map((row) => row.offers)
          const batches = modelBatches(offersPerModel)
          const tasks =
            "rows" in source
              ? yield* sendBatches(source.rows, batches)
              : // Two chunks at a time: one is built (the writer) while the other is read and sent.
                (yield* Effect.forEach(
                  batchChunks(batches, offersPerModel, OFFERS_PER_CHUNK, OFFERS_IN_FIRST_CHUNK),
                  sendChunk(source.chunkRows, source.sentTo),
                  { concurrency: 2 }
                )).flat()
          phases.push(
            { name: "first batch enqueued (after counts)", ms: firstAt ?? 0 },
            { name: "  chunks: facts into their tables (summed)", ms: spent.chunk },
            { name: "  batches: read rows (summed)", ms: spent.read },
            { name: "  batches: build documents (summed)", ms: spent.build },
            { name: "  batches: JSON + HTTP enqueue (summed)", ms: spent.enqueue }
          )
          return tasks
        })

      /** Records what was sent: every product's hash and model, every affected model's hash. */
      const recordProducts = (rebuilt: boolean) => {
        // A rebuild gathered its offers as it sent them; a delta's model table holds only the affected models.
        const offers = rebuilt
          ? `${SENT_TABLE} JOIN ${RANKED_MODELS_TABLE} USING (model_rank)`
          : `${WORK_TABLE} w JOIN ${KEYS_TABLE} k USING (id)`
        const models = rebuilt ? offers : MODELS_TABLE
        return db.transaction((tx) =>
          Effect.gen(function* () {
            yield* tx.run(
              `DELETE FROM search_sync_state WHERE index_name = '${OFFERS_STATE}'
                 OR (index_name = '${PRODUCTS_INDEX}' AND (${rebuilt ? "TRUE" : `id IN (SELECT model_id FROM ${AFFECTED_TABLE})`}))`
            )
            yield* tx.run(
              `INSERT INTO search_sync_state SELECT '${OFFERS_STATE}', id, feed, hash || ':' || model_id FROM ${offers}`
            )
            yield* tx.run(
              // An order-free digest of the model's offer hashes: an ordered string_agg
              // over 1M offers ran DuckDB out of its 1 GB memory limit.
              `INSERT INTO search_sync_state SELECT '${PRODUCTS_INDEX}', model_id, NULL,
                 md5(count(*)::VARCHAR || ':' || sum(hash(hash))::VARCHAR)
               FROM ${models} GROUP BY model_id`
            )
            if (rebuilt) {
              yield* tx.run("DELETE FROM search_sync_state WHERE index_name = $1", [settingsKey(PRODUCTS_INDEX)])
              yield* tx.run("INSERT INTO search_sync_state VALUES ($1, 'settings', NULL, $2)", [
                settingsKey(PRODUCTS_INDEX),
                productsIndexHash
              ])
            }
          })
        )
      }

      const rebuildProducts = Effect.gen(function* () {
        const phases: Array<SyncPhase> = []
        const built = yield* createFresh(PRODUCTS_INDEX, productSettings).pipe(timedPhase(phases, "create index"))
        return yield* Effect.gen(function* () {
          const models = yield* allModels(phases)
          const tasks = yield* sendModels(
            built,
            { ranks: PRODUCT_RANKS_TABLE, chunkRows: rebuildChunkRows, sentTo: SENT_TABLE },
            phases
          ).pipe(timedPhase(phases, "build and enqueue batches"))
          yield* awaitTasks(`fill ${built}`, tasks).pipe(timedPhase(phases, "wait for indexing"))
          yield* swapIn(PRODUCTS_INDEX, built).pipe(timedPhase(phases, "swap"))
          const previous = yield* stateCount(PRODUCTS_INDEX)
          yield* recordProducts(true).pipe(timedPhase(phases, "record state"))
          return { upserted: models, deleted: Math.max(0, previous - models), phases }
        }).pipe(Effect.onError(() => dropBuild(built)))
      })

      const deltaProducts = Effect.gen(function* () {
        const uid = search.indexUid(PRODUCTS_INDEX)
        const phases: Array<SyncPhase> = []
        const { models, gone } = yield* changedModels(phases)
        const tasks = yield* sendModels(uid, { ranks: MODELS_TABLE, rows: MODELS_TABLE }, phases).pipe(
          timedPhase(phases, "build and enqueue batches")
        )
        const goneIds = yield* db.query<{ model_id: string }>(
          `SELECT model_id FROM ${AFFECTED_TABLE} a WHERE NOT EXISTS (SELECT 1 FROM ${MODELS_TABLE} m WHERE m.model_id = a.model_id)`
        )
        for (let start = 0; start < gone; start += BATCH_SIZE) {
          tasks.push(
            yield* enqueueDelete(
              uid,
              goneIds.slice(start, start + BATCH_SIZE).map((row) => row.model_id)
            )
          )
        }
        yield* awaitTasks(`sync ${uid}`, tasks).pipe(timedPhase(phases, "wait for indexing"))
        yield* recordProducts(false).pipe(timedPhase(phases, "record state"))
        return { upserted: models, deleted: gone, phases }
      })

      // Models span feeds (one model at several stores), so every sync reads
      // the whole catalog; `feed` names what triggered it.
      const syncProducts = (_feed?: string) =>
        productsLock
          .withPermits(1)(
            Effect.gen(function* () {
              // Scratch tables an earlier release kept in the catalog file, left there by a killed sync.
              const legacy = yield* db.query<{ name: string }>(
                `SELECT format('"{}"."{}"."{}"', database_name, schema_name, table_name) AS name FROM duckdb_tables()
                 WHERE database_name <> '${WORK_DB}' AND starts_with(table_name, '${LEGACY_WORK_PREFIX}')`
              )
              for (const { name } of legacy) yield* db.run(`DROP TABLE IF EXISTS ${name}`)
              return yield* Effect.acquireUseRelease(
                db.run(`ATTACH IF NOT EXISTS ':memory:' AS ${WORK_DB}`),
                () =>
                  Effect.flatMap(canDelta(PRODUCTS_INDEX, productsIndexHash), (delta) =>
                    delta ? deltaProducts : rebuildProducts
                  ),
                // Detached, its tables and their memory are gone, whether the sync succeeded or not.
                () => db.run(`DETACH DATABASE IF EXISTS ${WORK_DB}`).pipe(Effect.ignore)
              )
            })
          )
          .pipe(Effect.withSpan("SearchSync.syncProducts"))

      // ---- programmes (small: hashed and compared in memory) ------------------

      const syncPrograms = () =>
        programsLock
          .withPermits(1)(
            Effect.gen(function* () {
              const documents = yield* programDocuments(db)
              const state = yield* db.query<{ id: string; hash: string }>(
                "SELECT id, hash FROM search_sync_state WHERE index_name = $1",
                [PROGRAMS_INDEX]
              )
              const delta = yield* canDelta(PROGRAMS_INDEX, programsIndexHash)
              const known = new Map(delta ? state.map((row) => [row.id, row.hash]) : [])
              const changed = documents.filter((doc) => known.get(doc.document.program_id) !== doc.hash)
              const present = new Set(documents.map((doc) => doc.document.program_id))
              const gone = delta ? state.filter((row) => !present.has(row.id)).map((row) => row.id) : []
              const target = delta
                ? search.indexUid(PROGRAMS_INDEX)
                : yield* createFresh(PROGRAMS_INDEX, programSettings)
              const tasks: Array<number> = []
              for (let start = 0; start < changed.length; start += BATCH_SIZE) {
                tasks.push(
                  yield* enqueueAdd(
                    target,
                    changed.slice(start, start + BATCH_SIZE).map((doc) => doc.document)
                  )
                )
              }
              if (gone.length > 0) {
                tasks.push(
                  yield* enqueueDelete(
                    target,
                    gone.map((id) => Buffer.from(id, "utf8").toString("base64url"))
                  )
                )
              }
              yield* awaitTasks(`sync ${target}`, tasks).pipe(
                Effect.onError(() => (delta ? Effect.void : dropBuild(target)))
              )
              if (!delta) yield* swapIn(PROGRAMS_INDEX, target)
              yield* db.transaction((tx) =>
                Effect.gen(function* () {
                  yield* tx.run("DELETE FROM search_sync_state WHERE index_name IN ($1, $2)", [
                    PROGRAMS_INDEX,
                    settingsKey(PROGRAMS_INDEX)
                  ])
                  yield* tx.append("search_sync_state", (appender) => {
                    for (const doc of documents) {
                      appender.appendVarchar(PROGRAMS_INDEX)
                      appender.appendVarchar(doc.document.program_id)
                      appender.appendNull()
                      appender.appendVarchar(doc.hash)
                      appender.endRow()
                    }
                    appender.appendVarchar(settingsKey(PROGRAMS_INDEX))
                    appender.appendVarchar("settings")
                    appender.appendNull()
                    appender.appendVarchar(programsIndexHash)
                    appender.endRow()
                  })
                })
              )
              return { upserted: changed.length, deleted: gone.length }
            })
          )
          .pipe(Effect.withSpan("SearchSync.syncPrograms"))

      const productsIndexOutdated = storedSettingsHash(PRODUCTS_INDEX).pipe(
        Effect.map((stored) => stored !== undefined && stored !== productsIndexHash)
      )

      return SearchSync.of({ syncProducts, syncPrograms, productsIndexOutdated })
    })
  )
}
