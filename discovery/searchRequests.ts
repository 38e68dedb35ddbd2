import { Effect } from "effect"
import type { SearchParams } from "meilisearch"
import type { MetricsShape } from "../infra/Metrics.ts"
import { SearchError, type SearchEngineShape } from "../infra/SearchEngine.ts"
import { dealAnswerOf, type ModelAnswer } from "../readModel/modelHits.ts"
import { PRODUCTS_INDEX } from "../readModel/indexes.ts"

// The Meilisearch round trips of product searches: each one timed out,
// counted and its answer checked, in one place, so the service's methods
// (DiscoverySearch.ts) only say what they ask for.

/**
 * When a search is answered 503 (infra/meiliHttpClient.ts, MeiliDeadline).
 * A Meilisearch that answers nothing for 800 ms is taken for hung: 503
 * within 1 s, as callers were promised. One that keeps answering other
 * requests meanwhile is busy, not gone (a big batch indexing on the same
 * cores held searches seconds in its queue, and the service answered 503 to
 * searches it would have answered): the search waits on, up to 5 s, the
 * Retry-After of that 503, so a caller never waits longer for the answer
 * under way than the 503 would have told it to wait before asking again.
 */
export const SEARCH_DEADLINE = { silentMs: 800, maxMs: 5_000 } as const
/** Meilisearch requests made by product searches: one per direct answer, two on the relaxation path. */
export const ROUND_TRIPS = "search_round_trips_total"

/**
 * A search answer as `read` checked it; a document of another shape is an
 * error the caller answers 503 (the index needs a rebuild), not a crash.
 */
const readAnswer = <M>(read: (answer: unknown) => ModelAnswer<M> | string, answer: unknown) => {
  const checked = read(answer)
  return typeof checked === "string" ? Effect.fail(unexpectedDocument(checked)) : Effect.succeed(checked)
}

export const unexpectedDocument = (problem: string) =>
  new SearchError({ message: `search: unexpected document in the index (${problem})`, unavailable: true })

const indexMissing = (error: SearchError) =>
  (error.cause as { cause?: { code?: string } } | undefined)?.cause?.code === "index_not_found"

const empty = { hits: [], estimatedTotalHits: 0 }

/** The request body of one search: built here, so the bench sends Meilisearch exactly what the service sends. */
export const searchBody = (q: string, params: SearchParams) => JSON.stringify({ q, ...params })

export type SearchRequests = ReturnType<typeof makeSearchRequests>

export const makeSearchRequests = (engine: SearchEngineShape, metrics: MetricsShape) => {
  const uid = engine.indexUid(PRODUCTS_INDEX)
  const queriesSent = metrics.counter("search_queries_total", "Meilisearch product queries sent")
  const roundTrips = metrics.counter(ROUND_TRIPS, "Meilisearch requests for product searches (a multi-search is one)")
  const fallbacks = metrics.counter(
    "search_fallback_queries_total",
    "Relaxation multi-searches after an empty strict reading"
  )
  const failures = metrics.counter("search_failures_total", "Product searches that failed (answered 503)")

  /**
   * One Meilisearch query, its answer checked by `read` (modelHits.ts); `counted`
   * queries are a search's own round trips (the vocabulary's refresh is not).
   */
  const run = <M>(
    body: string,
    read: (answer: unknown) => ModelAnswer<M> | string,
    counted = true
  ): Effect.Effect<ModelAnswer<M>, SearchError> =>
    Effect.suspend(() => {
      if (counted) {
        queriesSent.inc()
        roundTrips.inc()
      }
      // The deadline is the request's own timer (SearchEngine): one search
      // is one callback, no racing timeout fiber.
      return engine.search(uid, body, SEARCH_DEADLINE)
    }).pipe(
      Effect.matchEffect({
        onSuccess: (answer) => readAnswer(read, answer),
        // No products index yet (nothing ingested): an empty catalog, not an outage.
        onFailure: (error) => (indexMissing(error) ? Effect.succeed(empty) : Effect.fail(error))
      }),
      Effect.tapError(() => Effect.sync(() => failures.inc()))
    )

  /** The relaxation's multi-search (`queries` in Meilisearch's form): one round trip, each answer checked. */
  const multiSearch = (queries: ReadonlyArray<object>) => {
    fallbacks.inc()
    return Effect.suspend(() => {
      queriesSent.inc(queries.length)
      roundTrips.inc()
      return engine.multiSearch(JSON.stringify({ queries }), SEARCH_DEADLINE)
    }).pipe(
      Effect.matchEffect({
        onSuccess: (answer) => {
          const list = (answer as { readonly results?: unknown } | undefined)?.results
          return Array.isArray(list)
            ? Effect.forEach(list, (result: unknown) => readAnswer(dealAnswerOf, result))
            : readAnswer(() => "the multi-search answer has no results array", answer).pipe(Effect.as([]))
        },
        onFailure: (error) => (indexMissing(error) ? Effect.succeed([]) : Effect.fail(error))
      }),
      Effect.tapError(() => Effect.sync(() => failures.inc()))
    )
  }

  return { uid, run, multiSearch }
}
