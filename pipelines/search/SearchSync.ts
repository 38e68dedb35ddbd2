import { Context, Effect, Layer, Semaphore } from "effect"
import type { Settings } from "meilisearch"
import { randomBytes } from "node:crypto"
import { Database, type DatabaseError } from "../../infra/Database.ts"
import { SearchEngine, SearchError } from "../../infra/SearchEngine.ts"
import { DOCUMENT_VERSION, productDocument, type ProductRow } from "../../readModel/documents.ts"
import { programDocuments } from "./programDocuments.ts"
import { PRODUCT_FACT_JOINS, PRODUCT_ROW_COLUMNS, productFactsCtes } from "../../readModel/productFactsSql.ts"
import { productSettings, programSettings, settingsHash } from "../../readModel/settings.ts"
import { PRODUCTS_INDEX, PROGRAMS_INDEX } from "../../readModel/indexes.ts"

// Keeps the Meilisearch indexes in step with DuckDB (the source of truth).
//
// - Delta: each sent document's hash is kept in `search_sync_state`, so a
//   sync (also after a restart) sends only new or changed documents and
//   deletes the ones whose catalog row is gone.
// - Settings change (or a missing / out-of-step index): the index is rebuilt
//   into a fresh one and swapped in (`swapIndexes`, rename: false), then the
//   old one is deleted; queries never see a half-built index.
// - Every task is awaited; a failed task fails the sync, and the sync state
//   is only written after every task succeeded, so the next run retries.

export interface SyncResult {
  readonly upserted: number
  readonly deleted: number
}

export type SyncError = SearchError | DatabaseError

export interface SearchSyncShape {
  /** Syncs the products of one feed (or of every feed when omitted). */
  syncProducts(feed?: string): Effect.Effect<SyncResult, SyncError>
  syncPrograms(): Effect.Effect<SyncResult, SyncError>
}

// The index names belong to the read model; re-exported for the writer's callers.
export { PRODUCTS_INDEX, PROGRAMS_INDEX }

/** Documents per addDocuments call: big enough to amortise HTTP and task overhead. */
export const BATCH_SIZE = 20_000
/** Enqueue requests in flight while the next batch is read from DuckDB. */
const SEND_CONCURRENCY = 2
const TASK_TIMEOUT_MS = 30 * 60_000
const WORK_TABLE = "search_sync_work_products"

const settingsKey = (index: string) => `${index}:settings`

// One row per product in scope: the catalog row, its price-history facts and
// the hash of everything the document is built from. Recency enters the hash
// in whole days (capped), so a deal's score refreshes without resending the
// whole catalog daily.
const workQuery = (feedFilter: string, changedOnly: boolean) => `
  CREATE OR REPLACE TABLE ${WORK_TABLE} AS
  WITH ${productFactsCtes(feedFilter)},
  rows AS (
    SELECT ${PRODUCT_ROW_COLUMNS},
      md5(concat_ws('|', '${DOCUMENT_VERSION}', p.content_hash, p.current_price::VARCHAR, p.availability,
        p.updated_at::DATE::VARCHAR, coalesce(ref.ref_price::VARCHAR, '-'), coalesce(ref.ref_at::DATE::VARCHAR, '-'),
        coalesce((ref.ref_days >= 3)::VARCHAR, '-'), coalesce(low.low90::VARCHAR, '-'),
        least(floor(date_diff('hour', coalesce(s.since, p.updated_at), now()) / 24), 15)::VARCHAR,
        least(floor(date_diff('hour', coalesce(s.first_at, now()), coalesce(s.since, now())) / 24), 30)::VARCHAR
      )) AS hash
    FROM p
    ${PRODUCT_FACT_JOINS}
  )
  SELECT rows.* FROM rows
  ${changedOnly
    ? `LEFT JOIN search_sync_state st ON st.index_name = '${PRODUCTS_INDEX}' AND st.id = rows.id
       WHERE st.hash IS DISTINCT FROM rows.hash`
    : ""}
`

const notFoundCode = (error: SearchError) => {
  const cause = error.cause as { cause?: { code?: string } } | undefined
  return cause?.cause?.code === "index_not_found"
}

export class SearchSync extends Context.Service<SearchSync, SearchSyncShape>()("app/pipelines/search/SearchSync") {
  static readonly layer = Layer.effect(
    SearchSync,
    Effect.gen(function*() {
      const db = yield* Database
      const search = yield* SearchEngine
      // One sync per index at a time: two feeds finishing together must not
      // both decide to rebuild, or interleave their state writes.
      const productsLock = yield* Semaphore.make(1)
      const programsLock = yield* Semaphore.make(1)

      const indexExists = (uid: string) =>
        search.use(`get index ${uid}`, (client) => client.getRawIndex(uid)).pipe(
          Effect.as(true),
          Effect.catchIf((error) => notFoundCode(error), () => Effect.succeed(false))
        )

      const documentCount = (uid: string) =>
        search.use(`stats ${uid}`, (client) => client.index(uid).getStats()).pipe(
          Effect.map((stats) => stats.numberOfDocuments)
        )

      const storedSettingsHash = (index: string) =>
        db.query<{ hash: string }>(
          "SELECT hash FROM search_sync_state WHERE index_name = $1",
          [settingsKey(index)]
        ).pipe(Effect.map((rows) => rows[0]?.hash))

      const stateCount = (index: string) =>
        db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM search_sync_state WHERE index_name = $1", [index])
          .pipe(Effect.map((rows) => rows[0]?.n ?? 0))

      /** True when the live index can take a delta; false when it must be rebuilt. */
      const canDelta = (index: string, settings: Settings) =>
        Effect.gen(function*() {
          const uid = search.indexUid(index)
          if (!(yield* indexExists(uid))) return false
          if ((yield* storedSettingsHash(index)) !== settingsHash(settings)) return false
          // An index that lost documents (wiped server, manual edits) is out
          // of step with our state: rebuild rather than trust the delta.
          return (yield* documentCount(uid)) === (yield* stateCount(index))
        })

      /** Waits for every enqueued task (they run in order) and fails on the first failed one. */
      const awaitTasks = (what: string, uids: ReadonlyArray<number>) =>
        uids.length === 0
          ? Effect.void
          : search.use(what, (client) => client.tasks.waitForTasks(uids, { timeout: TASK_TIMEOUT_MS, interval: 50 }))
            .pipe(
              Effect.flatMap((tasks) => {
                const failed = tasks.find((task) => task.status !== "succeeded")
                return failed === undefined ? Effect.void : Effect.fail(
                  new SearchError({
                    message: `${what}: task ${failed.uid} ${failed.status}: ${failed.error?.message ?? "no message"}`,
                    unavailable: false
                  })
                )
              })
            )

      const enqueueAdd = (uid: string, documents: ReadonlyArray<object>) =>
        search.use(`add documents to ${uid}`, (client) =>
          client.index(uid).addDocuments(documents as Array<Record<string, unknown>>, { primaryKey: "id" })
        ).pipe(Effect.map((task) => task.taskUid))

      const enqueueDelete = (uid: string, ids: ReadonlyArray<string>) =>
        search.use(`delete documents from ${uid}`, (client) => client.index(uid).deleteDocuments([...ids]))
          .pipe(Effect.map((task) => task.taskUid))

      /** Creates a fresh index with `settings`, ready to be filled and swapped in. */
      const createFresh = (index: string, settings: Settings) =>
        Effect.gen(function*() {
          const uid = search.indexUid(`${index}__build_${randomBytes(4).toString("hex")}`)
          yield* search.task(`create ${uid}`, (client) => client.createIndex(uid, { primaryKey: "id" }))
          yield* search.task(`settings ${uid}`, (client) => client.index(uid).updateSettings(settings))
          return uid
        })

      /** Swaps a built index in under the live uid and deletes the old one. */
      const swapIn = (index: string, builtUid: string) =>
        Effect.gen(function*() {
          const live = search.indexUid(index)
          if (!(yield* indexExists(live))) {
            yield* search.task(`create ${live}`, (client) => client.createIndex(live, { primaryKey: "id" }))
          }
          yield* search.task(
            `swap ${live}`,
            (client) => client.swapIndexes([{ indexes: [live, builtUid], rename: false }])
          )
          yield* search.task(`delete old ${index}`, (client) => client.deleteIndex(builtUid))
        })

      const dropBuild = (uid: string) =>
        search.use(`drop ${uid}`, (client) => client.deleteIndexIfExists(uid)).pipe(Effect.ignore)

      // ---- products ----------------------------------------------------------

      /** Streams the work table to Meilisearch in batches; returns the enqueued task uids. */
      const sendWork = (uid: string, total: number) =>
        Effect.gen(function*() {
          const now = new Date()
          const starts: Array<number> = []
          for (let start = 0; start < total; start += BATCH_SIZE) starts.push(start)
          return yield* Effect.forEach(starts, (start) =>
            db.query<ProductRow>(
              `SELECT * FROM ${WORK_TABLE} WHERE rowid >= $1 AND rowid < $2`,
              [start, start + BATCH_SIZE]
            ).pipe(Effect.flatMap((rows) => enqueueAdd(uid, rows.map((row) => productDocument(row, now))))),
            { concurrency: SEND_CONCURRENCY })
        })

      const workCount = db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${WORK_TABLE}`).pipe(
        Effect.map((rows) => rows[0]?.n ?? 0)
      )

      const rebuildProducts = Effect.gen(function*() {
        const built = yield* createFresh(PRODUCTS_INDEX, productSettings)
        return yield* Effect.gen(function*() {
          yield* db.run(workQuery("", false))
          const total = yield* workCount
          yield* awaitTasks(`fill ${built}`, yield* sendWork(built, total))
          yield* swapIn(PRODUCTS_INDEX, built)
          const previous = yield* stateCount(PRODUCTS_INDEX)
          yield* db.transaction((tx) =>
            Effect.gen(function*() {
              yield* tx.run("DELETE FROM search_sync_state WHERE index_name IN ($1, $2)", [
                PRODUCTS_INDEX,
                settingsKey(PRODUCTS_INDEX)
              ])
              yield* tx.run(
                `INSERT INTO search_sync_state SELECT '${PRODUCTS_INDEX}', id, feed, hash FROM ${WORK_TABLE}`
              )
              yield* tx.run("INSERT INTO search_sync_state VALUES ($1, 'settings', NULL, $2)", [
                settingsKey(PRODUCTS_INDEX),
                settingsHash(productSettings)
              ])
            })
          )
          return { upserted: total, deleted: Math.max(0, previous - total) }
        }).pipe(Effect.onError(() => dropBuild(built)))
      })

      const deltaProducts = (feed: string | undefined) =>
        Effect.gen(function*() {
          const uid = search.indexUid(PRODUCTS_INDEX)
          const filter = feed === undefined ? "" : `WHERE feed = '${feed.replaceAll("'", "''")}'`
          yield* db.run(workQuery(filter, true))
          const total = yield* workCount
          const gone = yield* db.query<{ id: string }>(
            `SELECT st.id FROM search_sync_state st
             WHERE st.index_name = $1 ${feed === undefined ? "" : "AND st.feed = $2"}
               AND NOT EXISTS (SELECT 1 FROM products p WHERE p.id = st.id)`,
            feed === undefined ? [PRODUCTS_INDEX] : [PRODUCTS_INDEX, feed]
          )
          const tasks = yield* sendWork(uid, total)
          const goneIds = gone.map((row) => row.id)
          for (let start = 0; start < goneIds.length; start += BATCH_SIZE) {
            const ids = goneIds.slice(start, start + BATCH_SIZE).map((id) => Buffer.from(id, "utf8").toString("base64url"))
            tasks.push(yield* enqueueDelete(uid, ids))
          }
          yield* awaitTasks(`sync ${uid}`, tasks)
          if (total > 0 || goneIds.length > 0) {
            yield* db.transaction((tx) =>
              Effect.gen(function*() {
                yield* tx.run(
                  `DELETE FROM search_sync_state WHERE index_name = '${PRODUCTS_INDEX}'
                   AND (id IN (SELECT id FROM ${WORK_TABLE})
                     OR (${feed === undefined ? "TRUE" : "feed = $1"} AND NOT EXISTS (SELECT 1 FROM products p WHERE p.id = search_sync_state.id)))`,
                  feed === undefined ? [] : [feed]
                )
                yield* tx.run(`INSERT INTO search_sync_state SELECT '${PRODUCTS_INDEX}', id, feed, hash FROM ${WORK_TABLE}`)
              })
            )
          }
          return { upserted: total, deleted: goneIds.length }
        })

      const syncProducts = (feed?: string) =>
        productsLock.withPermits(1)(
          Effect.gen(function*() {
            const result = (yield* canDelta(PRODUCTS_INDEX, productSettings))
              ? yield* deltaProducts(feed)
              : yield* rebuildProducts
            yield* db.run(`DROP TABLE IF EXISTS ${WORK_TABLE}`)
            return result
          })
        ).pipe(Effect.withSpan("SearchSync.syncProducts"))

      // ---- programmes (small: hashed and compared in memory) ------------------

      const syncPrograms = () =>
        programsLock.withPermits(1)(
          Effect.gen(function*() {
            const documents = yield* programDocuments(db)
            const state = yield* db.query<{ id: string; hash: string }>(
              "SELECT id, hash FROM search_sync_state WHERE index_name = $1",
              [PROGRAMS_INDEX]
            )
            const delta = yield* canDelta(PROGRAMS_INDEX, programSettings)
            const known = new Map(delta ? state.map((row) => [row.id, row.hash]) : [])
            const changed = documents.filter((doc) => known.get(doc.document.program_id) !== doc.hash)
            const present = new Set(documents.map((doc) => doc.document.program_id))
            const gone = delta ? state.filter((row) => !present.has(row.id)).map((row) => row.id) : []
            const target = delta ? search.indexUid(PROGRAMS_INDEX) : yield* createFresh(PROGRAMS_INDEX, programSettings)
            const tasks: Array<number> = []
            for (let start = 0; start < changed.length; start += BATCH_SIZE) {
              tasks.push(yield* enqueueAdd(target, changed.slice(start, start + BATCH_SIZE).map((doc) => doc.document)))
            }
            if (gone.length > 0) {
              tasks.push(yield* enqueueDelete(target, gone.map((id) => Buffer.from(id, "utf8").toString("base64url"))))
            }
            yield* awaitTasks(`sync ${target}`, tasks).pipe(Effect.onError(() => (delta ? Effect.void : dropBuild(target))))
            if (!delta) yield* swapIn(PROGRAMS_INDEX, target)
            yield* db.transaction((tx) =>
              Effect.gen(function*() {
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
                  appender.appendVarchar(settingsHash(programSettings))
                  appender.endRow()
                })
              })
            )
            return { upserted: changed.length, deleted: gone.length }
          })
        ).pipe(Effect.withSpan("SearchSync.syncPrograms"))

      return SearchSync.of({ syncProducts, syncPrograms })
    })
  )
}
