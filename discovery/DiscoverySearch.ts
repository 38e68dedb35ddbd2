import { Clock, Context, Effect, Layer, Option } from "effect"
import type { SearchParams } from "meilisearch"
import { parseIntent, type Intent } from "../domain/intent/parseIntent.ts"
import type { Vocabulary } from "../domain/intent/vocabulary.ts"
import { Metrics } from "../infra/Metrics.ts"
import { SearchEngine, SearchError } from "../infra/SearchEngine.ts"
import { catalogIdOf, type ProductDocument } from "../readModel/documents.ts"
import {
  type DealModel,
  type DealOffer,
  DEAL_RETRIEVED_FIELDS,
  MODEL_RETRIEVED_FIELDS,
  type ModelHit,
  offerDocument,
  type ShownOffer,
  variantsOf
} from "../readModel/modelDocuments.ts"
import { dealAnswerOf, facetValues, MalformedOffer, type ModelAnswer, modelAnswerOf } from "../readModel/modelHits.ts"
import { offerFor } from "../readModel/offerFilter.ts"
import type { EmbeddedDealOffer } from "../readModel/offerRows.ts"
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
// and the /api/v1 product search. The index holds one document per product
// model (readModel/modelDocuments.ts), so hits are distinct products:
// one Meilisearch query per request; when the strict reading finds nothing,
// one multi-search carries the relaxation ladder (relaxation.ts). Each hit
// shows its best offer that meets the filter, rendered from the index
// document alone.

/** A search that takes longer is answered 503: callers were promised an answer within 1 s. */
const SEARCH_TIMEOUT_MS = 800
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

/** A model found by a search: the offer it shows and every offer it has (best first). */
export interface FoundModel {
  readonly shown: ShownOffer
  readonly offers: ReadonlyArray<ProductDocument>
}

export interface IntentResult {
  readonly documents: ReadonlyArray<DealOffer>
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
  deals(query: DealsQuery): Effect.Effect<{ documents: ReadonlyArray<DealOffer>; intent?: Intent }, SearchError>
  search(query: IntentQuery): Effect.Effect<IntentResult, SearchError>
  /** One offer per model, the best meeting the filters; `total` counts models. */
  products(query: ProductsQuery): Effect.Effect<{ documents: ReadonlyArray<ShownOffer>; total: number }, SearchError>
  /** The same search with every offer of each model (for the MCP catalog tools). */
  models(query: ProductsQuery): Effect.Effect<{ models: ReadonlyArray<FoundModel>; total: number }, SearchError>
  /** One offer by its id (the deal id), for landing pages. */
  document(id: string): Effect.Effect<Option.Option<ShownOffer>, SearchError>
  /** The model an offer id belongs to, with that offer shown. */
  modelOf(id: string): Effect.Effect<Option.Option<FoundModel>, SearchError>
  /** Reloads category and brand names from the index now. */
  readonly refreshVocabulary: Effect.Effect<Vocabulary, SearchError>
}

/**
 * A search answer as `read` checked it; a document of another shape is an
 * error the caller answers 503 (the index needs a rebuild), not a crash.
 */
const readAnswer = <M>(read: (answer: unknown) => ModelAnswer<M> | string, answer: unknown) => {
  const checked = read(answer)
  return typeof checked === "string" ? Effect.fail(unexpectedDocument(checked)) : Effect.succeed(checked)
}

const unexpectedDocument = (problem: string) =>
  new SearchError({ message: `search: unexpected document in the index (${problem})`, unavailable: true })

/**
 * What `choose` picks from a Deal search's hits: a Deal search's offers are
 * checked when the offer choice first reads them (modelHits.ts), so a
 * malformed one fails the search here as readAnswer's checks do.
 */
const choosing = <A>(choose: () => A): Effect.Effect<A, SearchError> => {
  try {
    return Effect.succeed(choose())
  } catch (error) {
    if (error instanceof MalformedOffer) return Effect.fail(unexpectedDocument(error.message))
    throw error
  }
}

const indexMissing = (error: SearchError) =>
  (error.cause as { cause?: { code?: string } } | undefined)?.cause?.code === "index_not_found"

const empty = { hits: [], estimatedTotalHits: 0 }

/** An intent search's reading of its phrase: the relaxation ladder and the strict step's request. */
interface SearchPlan {
  readonly intent: Intent
  readonly ladder: ReadonlyArray<Attempt>
  readonly params: SearchParams
  readonly body: string
}

/** The request body of one search: built here, so the bench sends Meilisearch exactly what the service sends. */
export const searchBody = (q: string, params: SearchParams) => JSON.stringify({ q, ...params })

/** A model hit as the offer it shows (offerFilter.ts), or none when no single offer meets the filter. */
function shownOffer(hit: ModelHit, params: SearchParams, q?: string): ShownOffer | undefined
function shownOffer(hit: DealModel, params: SearchParams, q?: string): DealOffer | undefined
function shownOffer(hit: DealModel, params: SearchParams, q = ""): DealOffer | undefined {
  const shown = offerFor<EmbeddedDealOffer>(hit, params.filter as string | undefined, params.sort, q)
  return shown === undefined ? undefined : { ...offerDocument(hit, shown), variants: variantsOf(hit) }
}

/** The offers shown for a page of model hits, at most `limit`. */
const shownOffers = (
  hits: ReadonlyArray<DealModel>,
  q: string,
  params: SearchParams,
  limit: number
): Array<DealOffer> => {
  const out: Array<DealOffer> = []
  for (const hit of hits) {
    if (out.length >= limit) break
    const shown = shownOffer(hit, params, q)
    if (shown !== undefined) out.push(shown)
  }
  return out
}

export class DiscoverySearch extends Context.Service<DiscoverySearch, DiscoverySearchShape>()(
  "app/discovery/DiscoverySearch"
) {
  static readonly layer = Layer.effect(
    DiscoverySearch,
    Effect.gen(function* () {
      const engine = yield* SearchEngine
      const metrics = yield* Metrics
      const uid = engine.indexUid(PRODUCTS_INDEX)
      const queriesSent = metrics.counter("search_queries_total", "Meilisearch product queries sent")
      const roundTrips = metrics.counter(
        ROUND_TRIPS,
        "Meilisearch requests for product searches (a multi-search is one)"
      )
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
          return engine.search(uid, body, SEARCH_TIMEOUT_MS)
        }).pipe(
          Effect.matchEffect({
            onSuccess: (answer) => readAnswer(read, answer),
            // No products index yet (nothing ingested): an empty catalog, not an outage.
            onFailure: (error) => (indexMissing(error) ? Effect.succeed(empty) : Effect.fail(error))
          }),
          Effect.tapError(() => Effect.sync(() => failures.inc()))
        )

      let vocabulary: Vocabulary = { categories: [], brands: [] }
      let loadedAt = 0
      let refreshing = false
      const refreshVocabulary = Effect.gen(function* () {
        const response = yield* run(searchBody("", { limit: 0, facets: ["categories", "brand"] }), dealAnswerOf, false)
        vocabulary = { categories: facetValues(response, "categories"), brands: facetValues(response, "brand") }
        loadedAt = yield* Clock.currentTimeMillis
        return vocabulary
      })
      // Never on the request path: a stale vocabulary is refreshed by a
      // background fiber while the request uses what we have.
      const currentVocabulary = Effect.flatMap(Clock.currentTimeMillis, (now) => {
        if (now - loadedAt > VOCABULARY_TTL_MS && !refreshing) {
          refreshing = true
          return refreshVocabulary.pipe(
            Effect.ignore,
            Effect.ensuring(
              Effect.sync(() => {
                refreshing = false
              })
            ),
            Effect.forkDetach,
            Effect.as(vocabulary)
          )
        }
        return Effect.succeed(vocabulary)
      })

      // Popular phrases repeat: keep their parse (and an intent search's
      // plan: its ladder and first request body) for the current vocabulary.
      const intents = new Map<string, Intent>()
      const plans = new Map<string, SearchPlan>()
      let intentsFor: Vocabulary | undefined
      const remember = <A>(cache: Map<string, A>, key: string, value: A) => {
        if (cache.size >= 5_000) cache.delete(cache.keys().next().value as string)
        cache.set(key, value)
        return value
      }
      const intentOf = (phrase: string, words: Vocabulary): Intent => {
        if (intentsFor !== words) {
          intents.clear()
          plans.clear()
          intentsFor = words
        }
        return intents.get(phrase) ?? remember(intents, phrase, parseIntent(phrase, words))
      }
      const planOf = (query: IntentQuery, words: Vocabulary): SearchPlan => {
        const intent = intentOf(query.q, words)
        const key = `${query.limit}\u0000${query.category ?? ""}\u0000${query.q}`
        const known = plans.get(key)
        if (known !== undefined) return known
        const ladder = searchAttempts(intent, query.category)
        const params = attemptParams(ladder[0], query.limit)
        return remember(plans, key, { intent, ladder, params, body: searchBody(ladder[0].q, params) })
      }

      const deals = (query: DealsQuery) =>
        Effect.gen(function* () {
          const phrase = query.q?.trim() ?? ""
          const intent = phrase === "" ? undefined : intentOf(phrase, yield* currentVocabulary)
          const filters = [
            "is_deal = true",
            ...(intent === undefined
              ? paramFilter("categories", query.category)
              : filtersWithCategoryParam(intent, query.category)),
            ...paramFilter("store", query.store)
          ]
          const params: SearchParams = {
            filter: and(filters),
            limit: Math.ceil(query.limit * OVERFETCH),
            attributesToRetrieve: DEAL_RETRIEVED_FIELDS,
            // Without a phrase the best deals come first; with one, relevance
            // (ties broken by deal score in the ranking rules).
            ...(intent === undefined || intent.broadQuery === "" ? { sort: ["deal_score:desc"] } : {})
          }
          const q = intent?.broadQuery ?? ""
          const response = yield* run(searchBody(q, params), dealAnswerOf)
          const documents = yield* choosing(() => shownOffers(response.hits, q, params, query.limit))
          return { documents, ...(intent ? { intent } : {}) }
        })

      /** The later ladder steps and the constraint probes, in one multi-search round trip. */
      const relax = (intent: Intent, category: string | undefined, ladder: ReadonlyArray<Attempt>, limit: number) =>
        Effect.gen(function* () {
          const steps = ladder.slice(1)
          const probes = constraintProbes(intent, ladder[ladder.length - 1])
          const stepParams = steps.map((attempt) => attemptParams(attempt, limit))
          const queries = [
            ...steps.map((attempt, i) => ({ indexUid: uid, q: attempt.q, ...stepParams[i] })),
            ...probes.map((probe) => ({ indexUid: uid, ...probe.params }))
          ]
          fallbacks.inc()
          const results = yield* Effect.suspend(() => {
            queriesSent.inc(queries.length)
            roundTrips.inc()
            return engine.multiSearch(JSON.stringify({ queries }), SEARCH_TIMEOUT_MS)
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
          return yield* choosing((): IntentResult => {
            for (const [index, attempt] of steps.entries()) {
              const documents = shownOffers(results[index]?.hits ?? [], attempt.q, stepParams[index], limit)
              if (documents.length > 0) {
                return {
                  documents,
                  intent,
                  includesOutOfStock: !attempt.inStock,
                  step: attempt.step,
                  relaxation: STEP_TEXT[attempt.step]
                }
              }
            }
            const unmet = unmetConstraint(
              intent,
              category,
              probes.map((probe, i) => {
                const result = results[steps.length + i]
                const hit = result?.hits[0]
                return {
                  probe,
                  hit: hit === undefined ? undefined : shownOffer(hit, probe.params),
                  total: result?.estimatedTotalHits ?? 0
                }
              })
            )
            return { documents: [], intent, includesOutOfStock: false, ...(unmet ? { unmet } : {}) }
          })
        })

      const search = (query: IntentQuery) =>
        Effect.gen(function* () {
          const { intent, ladder, params, body } = planOf(query, yield* currentVocabulary)
          const strict = ladder[0]
          const response = yield* run(body, dealAnswerOf)
          // One pass over the hits: each shown offer is chosen once, then filed
          // by whether the product's own fields (not only its description) matched.
          const { named, describedOnly } = yield* choosing(() => {
            const named: Array<DealOffer> = []
            const describedOnly: Array<DealOffer> = []
            for (const hit of response.hits) {
              if (named.length >= query.limit) break
              const list = namesTheProduct(hit) ? named : describedOnly
              if (list.length >= query.limit) continue
              const shown = shownOffer(hit, params, strict.q)
              if (shown !== undefined) list.push(shown)
            }
            return { named, describedOnly }
          })
          if (named.length > 0) {
            return { documents: named, intent, includesOutOfStock: false, step: "strict" } satisfies IntentResult
          }
          // Every word matched, but only with descriptions: the same hits answer, no further query.
          if (describedOnly.length > 0) {
            return {
              documents: describedOnly,
              intent,
              includesOutOfStock: false,
              step: "descriptions",
              relaxation: STEP_TEXT.descriptions
            } satisfies IntentResult
          }
          return yield* relax(intent, query.category, ladder, query.limit)
        })

      const models = (query: ProductsQuery) =>
        Effect.gen(function* () {
          const params: SearchParams = {
            filter: and(query.filters),
            limit: query.limit,
            offset: query.offset,
            attributesToRetrieve: MODEL_RETRIEVED_FIELDS
          }
          const response = yield* run(searchBody(query.q, params), modelAnswerOf)
          return {
            models: response.hits.flatMap((hit) => {
              const shown = shownOffer(hit, params, query.q)
              return shown === undefined
                ? []
                : [{ shown, offers: hit.offer_list.map((offer) => offerDocument(hit, offer)) }]
            }),
            total: response.estimatedTotalHits ?? response.hits.length
          }
        })

      const products = (query: ProductsQuery) =>
        models(query).pipe(
          Effect.map(({ models, total }) => ({ documents: models.map((model) => model.shown), total }))
        )

      /** The model holding an offer: one query filtered on the offer ids models carry. */
      const modelOf = (id: string) =>
        catalogIdOf(id) === undefined
          ? Effect.succeed(Option.none<FoundModel>())
          : run(
              searchBody("", {
                filter: `offer_ids = ${JSON.stringify(id)}`,
                limit: 1,
                attributesToRetrieve: MODEL_RETRIEVED_FIELDS
              }),
              modelAnswerOf
            ).pipe(
              Effect.map((response) => {
                const hit = response.hits[0]
                const offers = hit?.offer_list.map((offer) => offerDocument(hit, offer)) ?? []
                const shown = offers.find((offer) => offer.id === id)
                return shown === undefined || hit === undefined
                  ? Option.none<FoundModel>()
                  : Option.some({ shown: { ...shown, variants: variantsOf(hit) }, offers })
              })
            )

      const document = (id: string) => modelOf(id).pipe(Effect.map(Option.map((model) => model.shown)))

      return DiscoverySearch.of({ deals, search, products, models, document, modelOf, refreshVocabulary })
    })
  )
}
