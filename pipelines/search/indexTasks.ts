import { Effect } from "effect"
import type { Settings } from "meilisearch"
import { randomBytes } from "node:crypto"
import { SearchError, type SearchEngineShape } from "../../infra/SearchEngine.ts"

// The Meilisearch side of a sync: enqueueing document writes, awaiting their
// tasks, and building a fresh index to swap in. Kept apart from the sync
// policy (SearchSync.ts), which decides what to send, so each reads alone.

const TASK_TIMEOUT_MS = 30 * 60_000

const notFoundCode = (error: SearchError) => {
  const cause = error.cause as { cause?: { code?: string } } | undefined
  return cause?.cause?.code === "index_not_found"
}

export type IndexTasks = ReturnType<typeof makeIndexTasks>

export const makeIndexTasks = (search: SearchEngineShape) => {
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

  /** The same for documents already serialized (a UTF-8 JSON array): no JSON.stringify on the event loop. */
  const enqueueBody = (uid: string, body: Uint8Array) => search.addDocumentsJson(uid, body)

  const enqueueDelete = (uid: string, ids: ReadonlyArray<string>) =>
    search
      .use(`delete documents from ${uid}`, (client) => client.index(uid).deleteDocuments([...ids]))
      .pipe(Effect.map((task) => task.taskUid))

  // Meilisearch runs the tasks of an index in the order they were enqueued, so
  // the steps below are enqueued together and awaited once: each awaited task
  // costs a round of polling, and a failed step still fails the wait.

  /** Creates a fresh index with `settings` (once, before any document), ready to be filled and swapped in. */
  const createFresh = (index: string, settings: Settings) =>
    Effect.gen(function* () {
      const uid = search.indexUid(`${index}__build_${randomBytes(4).toString("hex")}`)
      const created = yield* search.use(`create ${uid}`, (client) => client.createIndex(uid, { primaryKey: "id" }))
      const configured = yield* search.use(`settings ${uid}`, (client) => client.index(uid).updateSettings(settings))
      yield* awaitTasks(`create ${uid}`, [created.taskUid, configured.taskUid])
      return uid
    })

  /**
   * Puts a built index in place under the live uid. When a live index exists
   * the two are swapped and the old one (now under the built uid) deleted.
   * When none exists yet the built one is renamed (`rename: true`, Meilisearch
   * 1.18 and later; the existing index is named first): creating the live
   * index first, empty and without settings, to swap with left searches
   * meanwhile on an index with no filterable attributes, answered 503
   * ("Attribute in_stock is not filterable") until the swap landed.
   */
  const swapIn = (index: string, builtUid: string) =>
    Effect.gen(function* () {
      const live = search.indexUid(index)
      if (!(yield* indexExists(live))) {
        const renamed = yield* search.use(`rename ${builtUid} to ${live}`, (client) =>
          client.swapIndexes([{ indexes: [builtUid, live], rename: true }])
        )
        return yield* awaitTasks(`rename ${builtUid} to ${live}`, [renamed.taskUid])
      }
      const swapped = yield* search.use(`swap ${live}`, (client) =>
        client.swapIndexes([{ indexes: [live, builtUid], rename: false }])
      )
      const deleted = yield* search.use(`delete old ${index}`, (client) => client.deleteIndex(builtUid))
      yield* awaitTasks(`swap ${live}`, [swapped.taskUid, deleted.taskUid])
    })

  const dropBuild = (uid: string) =>
    search.use(`drop ${uid}`, (client) => client.deleteIndexIfExists(uid)).pipe(Effect.ignore)

  return {
    indexExists,
    documentCount,
    awaitTasks,
    enqueueAdd,
    enqueueBody,
    enqueueDelete,
    createFresh,
    swapIn,
    dropBuild
  }
}
