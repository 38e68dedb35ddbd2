import { Context, Effect, Layer, Semaphore } from "effect"
import { AppConfig } from "../../infra/AppConfig.ts"
import type { DatabaseError } from "../../infra/Database.ts"
import { Staging } from "../../infra/Staging.ts"
import { SearchEngine, type SearchError } from "../../infra/SearchEngine.ts"
import { DOCUMENT_VERSION, documentId } from "../../readModel/documents.ts"
import {
  dropProgramSnapshot,
  forEachChangedProgramPage,
  goneProgramIds,
  recordProgramHashes,
  snapshotPrograms
} from "./programDocuments.ts"
import { productSettings, programSettings, settingsHash } from "../../readModel/settings.ts"
import { PRODUCTS_INDEX, PROGRAMS_INDEX } from "../../readModel/indexes.ts"
import { makeIndexTasks } from "./indexTasks.ts"
import { makeModelSender } from "./modelSender.ts"
import { deltaChunkRows, makeProductModels, rebuildChunkRows } from "./productModels.ts"
import { prepareRowFiles, removeRowFiles, rowFilesDir } from "./rowFiles.ts"
import { type SyncPhase, timedPhase } from "./syncPhases.ts"
import { type SyncWorker, syncWorker } from "./syncWorkerPool.ts"
import {
  AFFECTED_TABLE,
  LEGACY_WORK_PREFIX,
  MODELS_TABLE,
  OFFERS_STATE,
  PRODUCT_RANKS_TABLE,
  RANKED_MODELS_TABLE,
  SENT_TABLE,
  WORK_DB
} from "./workTables.ts"

// Keeps the Meilisearch indexes in step with the catalog, read from staging
// (DuckDB: the source of truth, or PostgreSQL's published copy).
//
// - Products: one document per model (modelDocuments.ts). Each product's
//   hash and model, and each model's hash, are kept in `search_sync_state`,
//   so a sync (also after a restart) sends only the models one of whose
//   offers is new, changed or gone, and deletes models left with no offer.
// - Settings or document shape change (or a missing / out-of-step index):
//   the index is rebuilt into a fresh one and swapped in (`swapIndexes`),
//   then the old one is deleted; with no live index yet the built one is
//   renamed into place. Queries never see a half-built index, nor one
//   without its settings.
// - Every task is awaited; a failed task fails the sync, and the sync state
//   is only written after every task succeeded, so the next run retries.
//
// This file is the policy (delta or rebuild, what the state records); the
// Meilisearch tasks are indexTasks.ts, the keying SQL productModels.ts, the
// sending modelSender.ts; the per-row work (keys, documents) runs in a worker
// thread (syncWorker.ts), so a sync never holds the event loop, and the
// batches' rows reach it through files DuckDB writes (rowFiles.ts).

export interface SyncResult {
  readonly upserted: number
  readonly deleted: number
  /** Where a products sync's time went, in order (milliseconds per phase). */
  readonly phases?: ReadonlyArray<SyncPhase>
}

export type { SyncPhase }

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

const settingsKey = (index: string) => `${index}:settings`

// What the live products index was built with. A new document shape is part
// of it: a shape change rebuilds the index and swaps it in whole, so searches
// never meet old and new documents side by side.
const productsIndexHash = `${settingsHash(productSettings)}:${DOCUMENT_VERSION}`
const programsIndexHash = settingsHash(programSettings)

export class SearchSync extends Context.Service<SearchSync, SearchSyncShape>()("app/pipelines/search/SearchSync") {
  static readonly layer = Layer.effect(
    SearchSync,
    Effect.gen(function* () {
      // Staging: the catalog as published (staging IS the Database without
      // PostgreSQL), with the DuckDB SQL below and the sync state beside it.
      const db = yield* Staging
      const search = yield* SearchEngine
      const { backgroundNice, dataDir } = yield* AppConfig
      // What a killed process left there goes at start-up: only a sync fills it.
      const rowsDir = rowFilesDir(dataDir)
      yield* removeRowFiles(rowsDir).pipe(Effect.ignore)
      // One sync per index at a time: two feeds finishing together must not
      // both decide to rebuild, or interleave their state writes.
      const productsLock = yield* Semaphore.make(1)
      const programsLock = yield* Semaphore.make(1)

      const indexTasks = makeIndexTasks(search)
      const { indexExists, documentCount, awaitTasks, enqueueAdd, enqueueDelete, createFresh, swapIn, dropBuild } =
        indexTasks
      const { allModels, changedModels } = makeProductModels(db, rowsDir)
      const { sendModels } = makeModelSender(db, indexTasks, rowsDir)

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

      // ---- products: one document per model ---------------------------------

      /** Records what was sent: every product's hash and model, every affected model's hash. */
      const recordProducts = (rebuilt: boolean) => {
        // A rebuild gathered its offers as it sent them; a delta's model table
        // holds every product, ranked where its model is affected.
        const offers = rebuilt ? `${SENT_TABLE} JOIN ${RANKED_MODELS_TABLE} USING (model_rank)` : MODELS_TABLE
        const models = rebuilt ? offers : `${MODELS_TABLE} WHERE model_rank IS NOT NULL`
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

      const rebuildProducts = (worker: SyncWorker) =>
        Effect.gen(function* () {
          const phases: Array<SyncPhase> = []
          const built = yield* createFresh(PRODUCTS_INDEX, productSettings).pipe(timedPhase(phases, "create index"))
          return yield* Effect.gen(function* () {
            const models = yield* allModels(phases, worker)
            const tasks = yield* sendModels(
              built,
              { ranks: PRODUCT_RANKS_TABLE, chunkRows: rebuildChunkRows, sentTo: SENT_TABLE },
              phases,
              worker
            ).pipe(timedPhase(phases, "build and enqueue batches"))
            yield* awaitTasks(`fill ${built}`, tasks).pipe(timedPhase(phases, "wait for indexing"))
            yield* swapIn(PRODUCTS_INDEX, built).pipe(timedPhase(phases, "swap"))
            const previous = yield* stateCount(PRODUCTS_INDEX)
            yield* recordProducts(true).pipe(timedPhase(phases, "record state"))
            return { upserted: models, deleted: Math.max(0, previous - models), phases }
          }).pipe(Effect.onError(() => dropBuild(built)))
        })

      /**
       * Models gone from the catalog, read and deleted this many at a time:
       * reading the ids and sending them costs the event loop ~5 µs an id
       * (20,000 at once held it 27-41 ms, 5,000 still 25-32 ms; load 7-12).
       */
      const GONE_PAGE = 2_000
      const deltaProducts = (worker: SyncWorker) =>
        Effect.gen(function* () {
          const uid = search.indexUid(PRODUCTS_INDEX)
          const phases: Array<SyncPhase> = []
          const { models, gone } = yield* changedModels(phases, worker)
          const tasks = yield* sendModels(uid, { ranks: MODELS_TABLE, chunkRows: deltaChunkRows }, phases, worker).pipe(
            timedPhase(phases, "build and enqueue batches")
          )
          // Read and deleted a page at a time, in id order: each page's rows
          // and request are work on the event loop.
          let after: string | undefined
          for (let read = 0; read < gone;) {
            const page = yield* db.query<{ model_id: string }>(
              `SELECT model_id FROM ${AFFECTED_TABLE} a
               WHERE NOT EXISTS (SELECT 1 FROM ${MODELS_TABLE} m WHERE m.model_id = a.model_id)
                 ${after === undefined ? "" : "AND model_id > $1"}
               ORDER BY model_id LIMIT ${GONE_PAGE}`,
              after === undefined ? [] : [after]
            )
            if (page.length === 0) break
            tasks.push(
              yield* enqueueDelete(
                uid,
                page.map((row) => row.model_id)
              )
            )
            read += page.length
            after = page[page.length - 1]!.model_id
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
              return yield* Effect.scoped(
                Effect.gen(function* () {
                  // Detached, its tables and their memory are gone, whether the sync succeeded or not.
                  yield* Effect.acquireRelease(db.run(`ATTACH IF NOT EXISTS ':memory:' AS ${WORK_DB}`), () =>
                    db.run(`DETACH DATABASE IF EXISTS ${WORK_DB}`).pipe(Effect.ignore)
                  )
                  // The batches' row files, likewise (the worker is stopped before it goes).
                  yield* Effect.acquireRelease(prepareRowFiles(rowsDir), () =>
                    removeRowFiles(rowsDir).pipe(Effect.ignore)
                  )
                  const delta = yield* canDelta(PRODUCTS_INDEX, productsIndexHash)
                  const worker = yield* syncWorker(backgroundNice)
                  return yield* delta ? deltaProducts(worker) : rebuildProducts(worker)
                })
              )
            })
          )
          .pipe(Effect.withSpan("SearchSync.syncProducts"))

      // ---- programmes: compared in SQL, sent a page at a time (programDocuments.ts) ----

      const syncPrograms = () =>
        programsLock
          .withPermits(1)(
            Effect.gen(function* () {
              yield* snapshotPrograms(db)
              const delta = yield* canDelta(PROGRAMS_INDEX, programsIndexHash)
              const target = delta
                ? search.indexUid(PROGRAMS_INDEX)
                : yield* createFresh(PROGRAMS_INDEX, programSettings)
              const tasks: Array<number> = []
              const upserted = yield* forEachChangedProgramPage(db, PROGRAMS_INDEX, !delta, (documents) =>
                enqueueAdd(target, documents).pipe(Effect.map((task) => void tasks.push(task)))
              )
              const gone = delta ? yield* goneProgramIds(db, PROGRAMS_INDEX) : []
              if (gone.length > 0) tasks.push(yield* enqueueDelete(target, gone.map(documentId)))
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
                  yield* recordProgramHashes(tx, PROGRAMS_INDEX)
                  yield* tx.run("INSERT INTO search_sync_state VALUES ($1, 'settings', NULL, $2)", [
                    settingsKey(PROGRAMS_INDEX),
                    programsIndexHash
                  ])
                })
              )
              return { upserted, deleted: gone.length }
            }).pipe(Effect.ensuring(dropProgramSnapshot(db).pipe(Effect.ignore)))
          )
          .pipe(Effect.withSpan("SearchSync.syncPrograms"))

      const productsIndexOutdated = storedSettingsHash(PRODUCTS_INDEX).pipe(
        Effect.map((stored) => stored !== undefined && stored !== productsIndexHash)
      )

      return SearchSync.of({ syncProducts, syncPrograms, productsIndexOutdated })
    })
  )
}
