import { Context, Effect, Layer, Option } from "effect"
import type { Hit, SearchParams, SearchResponse } from "meilisearch"
import { parseIntent, type Intent } from "../domain/intent/parseIntent.ts"
import type { Vocabulary } from "../domain/intent/vocabulary.ts"
import { Metrics } from "../infra/Metrics.ts"
import { SearchEngine, SearchError, toSearchError } from "../infra/SearchEngine.ts"
import { catalogIdOf, type ProductDocument } from "../readModel/documents.ts"
import { PRODUCTS_INDEX } from "../readModel/indexes.ts"
import {
  and,
  attemptParams,
  constraintProbes,
  filtersWithCategoryParam,
  namesTheProduct,
  OVERFETCH,
  paramFilter,
  searchAttempts,
  STEP_TEXT,
  unmetConstraint,
  type Attempt,
  type LadderStep
} from "./relaxation.ts"

// Product search over the Meilisearch products index for the discovery feed
// and the /api/v1 product search. One Meilisearch query per request; when the
// strict reading finds nothing, one multi-search carries the relaxation
// ladder (relaxation.ts). Every result is rendered from the index document
// alone.

/** A search that takes longer is answered 503: callers were promised an answer within 1 s. */
const SEARCH_TIMEOUT = "800 millis"
/** Meilisearch requests made by product searches: one per direct answer, two on the relaxation path. */
export const ROUND_TRIPS = "search_round_trips_total"
/** Category and brand names for intent parsing, refreshed in the background. */
const VOCABULARY_TTL_MS = 60_000

export interface DealsQuery {
  readonly q?: string | undefined
  readonly category?: string | undefined
  readonly store?: string | undefined
  readonly limit: number
}

export interface IntentQuery {
  readonly q: string
  readonly category?: string | undefined
  readonly limit: number
}

export interface ProductsQuery {
  readonly q: string
  readonly filters: ReadonlyArray<string>
  readonly limit: number
  readonly offset: number
}

export interface IntentResult {
  readonly documents: ReadonlyArray<ProductDocument>
  readonly intent: Intent
  /** True when nothing in stock matched and out-of-stock products are shown. */
  readonly includesOutOfStock: boolean
  /** The ladder step that answered ("strict" when every word and filter matched). */
  readonly step?: LadderStep
  /** What was relaxed, for guidance (absent on the strict reading). */
  readonly relaxation?: string
  /** When nothing matched: which hard constraint (price, currency, category) excluded what. */
  readonly unmet?: string
}

export interface DiscoverySearchShape {
  deals(query: DealsQuery): Effect.Effect<{ documents: ReadonlyArray<ProductDocument>; intent?: Intent }, SearchError>
  search(query: IntentQuery): Effect.Effect<IntentResult, SearchError>
  products(query: ProductsQuery): Effect.Effect<{ documents: ReadonlyArray<ProductDocument>; total: number }, SearchError>
  /** One document by its id (the deal id), for landing pages. */
  document(id: string): Effect.Effect<Option.Option<ProductDocument>, SearchError>
  /** Reloads category and brand names from the index now. */
  readonly refreshVocabulary: Effect.Effect<Vocabulary, SearchError>
}

/** Fails a Meilisearch call that outlives SEARCH_TIMEOUT as "unavailable" (503 at the edge). */
const withinDeadline = (what: string) =>
  Effect.timeoutOrElse({
    duration: SEARCH_TIMEOUT,
    orElse: () => Effect.fail(new SearchError({ message: `${what}: Meilisearch did not answer in time`, unavailable: true }))
  })

const indexMissing = (error: SearchError) =>
  (error.cause as { cause?: { code?: string } } | undefined)?.cause?.code === "index_not_found"

const empty: SearchResponse<ProductDocument> = {
  hits: [],
  query: "",
  processingTimeMs: 0,
  limit: 0,
  offset: 0,
  estimatedTotalHits: 0
} as unknown as SearchResponse<ProductDocument>

export class DiscoverySearch extends Context.Service<DiscoverySearch, DiscoverySearchShape>()(
  "app/discovery/DiscoverySearch"
) {
  static readonly layer = Layer.effect(
    DiscoverySearch,
    Effect.gen(function*() {
      const engine = yield* SearchEngine
      const metrics = yield* Metrics
      const uid = engine.indexUid(PRODUCTS_INDEX)
      const queriesSent = metrics.counter("search_queries_total", "Meilisearch product queries sent")
      const roundTrips = metrics.counter(ROUND_TRIPS, "Meilisearch requests for product searches (a multi-search is one)")
      const fallbacks = metrics.counter("search_fallback_queries_total", "Relaxation multi-searches after an empty strict reading")
      const failures = metrics.counter("search_failures_total", "Product searches that failed (answered 503)")
      const morePages = metrics.counter("search_more_pages_total", "Further pages fetched because variants of few products filled the first")

      const run = (q: string, params: SearchParams): Effect.Effect<SearchResponse<ProductDocument>, SearchError> =>
        Effect.tryPromise({
          try: (signal) => {
            queriesSent.inc()
            roundTrips.inc()
            return engine.client.index(uid).search<ProductDocument>(q, params, { signal })
          },
          catch: toSearchError("search")
        }).pipe(
          withinDeadline("search"),
          // No products index yet (nothing ingested): an empty catalog, not an outage.
          Effect.catchIf(indexMissing, () => Effect.succeed(empty as SearchResponse<ProductDocument>)),
          Effect.tapError(() => Effect.sync(() => failures.inc()))
        )

      /**
       * One offer per product from an over-fetched page. When the page came
       * back full yet holds fewer than `limit` products (one model in five
       * colours at ten stores fills it), the next hits are fetched in a page
       * 4x bigger, at most MORE_PAGES times, and only while the previous
       * page still brought new products (in a catalog of hundreds of offers
       * per model, deeper pages rarely do).
       */
      const distinctProducts = (
        q: string,
        params: SearchParams,
        limit: number,
        keep: (hit: Hit<ProductDocument>) => boolean = () => true
      ) =>
        Effect.gen(function*() {
          let pageSize = params.limit ?? limit * OVERFETCH
          const first = yield* run(q, { ...params, limit: pageSize })
          const hits = [...first.hits]
          // Further pages only when variants crowd the page, not when `keep` set hits aside.
          let all = onePerProduct(hits, limit)
          let worthAnother = first.hits.length === pageSize
          for (let page = 0; page < MORE_PAGES && all.length < limit && worthAnother; page++) {
            morePages.inc()
            const before = all.length
            const offset = hits.length
            pageSize *= 4
            const next = yield* run(q, { ...params, offset, limit: pageSize })
            hits.push(...next.hits)
            all = onePerProduct(hits, limit)
            worthAnother = next.hits.length === pageSize && all.length > before
          }
          return { documents: onePerProduct(hits.filter(keep), limit), all }
        })

      let vocabulary: Vocabulary = { categories: [], brands: [] }
      let loadedAt = 0
      let refreshing = false
      const refreshVocabulary = Effect.gen(function*() {
        const response = yield* run("", { limit: 0, facets: ["categories", "brand"] })
        const names = (facet: string) => Object.keys(response.facetDistribution?.[facet] ?? {})
        vocabulary = { categories: names("categories"), brands: names("brand") }
        loadedAt = Date.now()
        return vocabulary
      })
      // Never on the request path: a stale vocabulary is refreshed by a
      // background fiber while the request uses what we have.
      const currentVocabulary = Effect.suspend(() => {
        if (Date.now() - loadedAt > VOCABULARY_TTL_MS && !refreshing) {
          refreshing = true
          return refreshVocabulary.pipe(
            Effect.ignore,
            Effect.ensuring(Effect.sync(() => {
              refreshing = false
            })),
            Effect.forkDetach,
            Effect.as(vocabulary)
          )
        }
        return Effect.succeed(vocabulary)
      })

      // Popular phrases repeat: keep their parse for the current vocabulary.
      const intents = new Map<string, Intent>()
      let intentsFor: Vocabulary | undefined
      const intentOf = (phrase: string, words: Vocabulary): Intent => {
        if (intentsFor !== words) {
          intents.clear()
          intentsFor = words
        }
        let intent = intents.get(phrase)
        if (intent === undefined) {
          intent = parseIntent(phrase, words)
          if (intents.size >= 5_000) intents.delete(intents.keys().next().value as string)
          intents.set(phrase, intent)
        }
        return intent
      }

      const deals = (query: DealsQuery) =>
        Effect.gen(function*() {
          const phrase = query.q?.trim() ?? ""
          const intent = phrase === "" ? undefined : intentOf(phrase, yield* currentVocabulary)
          const filters = [
            "is_deal = true",
            ...(intent === undefined ? paramFilter("categories", query.category) : filtersWithCategoryParam(intent, query.category)),
            ...paramFilter("store", query.store)
          ]
          const { documents } = yield* distinctProducts(intent?.broadQuery ?? "", {
            filter: and(filters),
            limit: query.limit * OVERFETCH,
            // Without a phrase the best deals come first; with one, relevance
            // (ties broken by deal score in the ranking rules).
            ...(intent === undefined || intent.broadQuery === "" ? { sort: ["deal_score:desc"] } : {})
          }, query.limit)
          return { documents, ...(intent ? { intent } : {}) }
        })

      /** The later ladder steps and the constraint probes, in one multi-search round trip. */
      const relax = (intent: Intent, category: string | undefined, ladder: ReadonlyArray<Attempt>, limit: number) =>
        Effect.gen(function*() {
          const steps = ladder.slice(1)
          const probes = constraintProbes(intent, ladder[ladder.length - 1])
          const queries = [
            ...steps.map((attempt) => ({ indexUid: uid, q: attempt.q, ...attemptParams(attempt, limit) })),
            ...probes.map((probe) => ({ indexUid: uid, ...probe.params }))
          ]
          fallbacks.inc()
          const response = yield* Effect.tryPromise({
            try: (signal) => {
              queriesSent.inc(queries.length)
              roundTrips.inc()
              return engine.client.multiSearch<{ queries: typeof queries }, ProductDocument>({ queries }, { signal })
            },
            catch: toSearchError("multi-search")
          }).pipe(
            withinDeadline("multi-search"),
            Effect.catchIf(indexMissing, () => Effect.succeed({ results: [] as Array<SearchResponse<ProductDocument>> })),
            Effect.tapError(() => Effect.sync(() => failures.inc()))
          )
          const results = response.results
          for (const [index, attempt] of steps.entries()) {
            const hits = results[index]?.hits ?? []
            if (hits.length > 0) {
              return {
                documents: onePerProduct(hits, limit),
                intent,
                includesOutOfStock: !attempt.inStock,
                step: attempt.step,
                relaxation: STEP_TEXT[attempt.step]
              } satisfies IntentResult
            }
          }
          const unmet = unmetConstraint(
            intent,
            category,
            probes.map((probe, i) => {
              const result = results[steps.length + i]
              return { probe, hit: result?.hits[0], total: result?.estimatedTotalHits ?? 0 }
            })
          )
          return { documents: [], intent, includesOutOfStock: false, ...(unmet ? { unmet } : {}) } satisfies IntentResult
        })

      const search = (query: IntentQuery) =>
        Effect.gen(function*() {
          const intent = intentOf(query.q, yield* currentVocabulary)
          const ladder = searchAttempts(intent, query.category)
          const strict = ladder[0]
          const response = yield* distinctProducts(strict.q, attemptParams(strict, query.limit), query.limit, namesTheProduct)
          if (response.documents.length > 0) {
            return { documents: response.documents, intent, includesOutOfStock: false, step: "strict" } satisfies IntentResult
          }
          // Every word matched, but only with descriptions: the same hits answer, no further query.
          if (response.all.length > 0) {
            return {
              documents: response.all,
              intent,
              includesOutOfStock: false,
              step: "descriptions",
              relaxation: STEP_TEXT.descriptions
            } satisfies IntentResult
          }
          return yield* relax(intent, query.category, ladder, query.limit)
        })

      const products = (query: ProductsQuery) =>
        run(query.q, { filter: and(query.filters), limit: query.limit, offset: query.offset }).pipe(
          Effect.map((response) => ({ documents: response.hits, total: response.estimatedTotalHits ?? response.hits.length }))
        )

      const document = (id: string) =>
        catalogIdOf(id) === undefined
          ? Effect.succeed(Option.none<ProductDocument>())
          : Effect.tryPromise({
            try: () => engine.client.index(uid).getDocument<ProductDocument>(id),
            catch: toSearchError("get document")
          }).pipe(
            Effect.map(Option.some),
            withinDeadline("get document"),
            Effect.catchIf(
              (error) => !error.unavailable && /not found/i.test(error.message),
              () => Effect.succeed(Option.none<ProductDocument>())
            )
          )

      return DiscoverySearch.of({ deals, search, products, document, refreshVocabulary })
    })
  )
}

/** Further pages (4x, then 16x the first) when variants crowd the first: a request stays at most 3 queries. */
const MORE_PAGES = 2

export const onePerProduct = (hits: ReadonlyArray<ProductDocument>, limit: number): Array<ProductDocument> => {
  const seen = new Set<string>()
  const out: Array<ProductDocument> = []
  for (const hit of hits) {
    if (out.length >= limit) break
    const key = hit.group_key ?? hit.id
    if (seen.has(key)) continue
    seen.add(key)
    out.push(hit)
  }
  return out
}
