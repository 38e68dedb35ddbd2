import { Context, Effect, Layer, Option } from "effect"
import type { SearchParams } from "meilisearch"
import type { Intent } from "../domain/intent/parseIntent.ts"
import type { Vocabulary } from "../domain/intent/vocabulary.ts"
import { Metrics } from "../infra/Metrics.ts"
import { SearchEngine, type SearchError } from "../infra/SearchEngine.ts"
import { catalogIdOf } from "../readModel/documents.ts"
import { modelIdOf } from "../readModel/productIds.ts"
import {
  type DealOffer,
  DEAL_RETRIEVED_FIELDS,
  MODEL_RETRIEVED_FIELDS,
  offerDocument,
  type ShownOffer,
  variantsOf
} from "../readModel/modelDocuments.ts"
import { dealAnswerOf, modelAnswerOf } from "../readModel/modelHits.ts"
import { makeIntentPlans } from "./intentPlans.ts"
import { countryFilter, currencyFilter, intentInCurrency } from "./marketIntent.ts"
import { cheapestAnswer, cheapestWanted, strictModels } from "./cheapest.ts"
import { ExchangeRates } from "./ExchangeRates.ts"
import { cheapestFirst, convertedPrices, SAME_CURRENCY } from "./priceOrder.ts"
import { makeRelaxedSearch } from "./relaxedSearch.ts"
import { and, filtersWithCategoryParam, namesTheProduct, OVERFETCH, paramFilter, STEP_TEXT } from "./relaxation.ts"
import { makeSearchRequests, ROUND_TRIPS, searchBody } from "./searchRequests.ts"
import type { DealsQuery, FoundModel, IntentQuery, IntentResult, ProductsQuery } from "./searchTypes.ts"
import { choosing, shownOffer, shownOffers } from "./shownOffers.ts"

// Product search over the Meilisearch products index for the discovery feed
// and the /api/v1 product search. The index holds one document per product
// model (readModel/modelDocuments.ts), so hits are distinct products:
// one Meilisearch query per request; when the strict reading finds nothing,
// one multi-search carries the relaxation ladder (relaxation.ts). Each hit
// shows its best offer that meets the filter, rendered from the index
// document alone.
//
// The parts: round trips and their metrics (searchRequests.ts), the phrase's
// reading (intentPlans.ts), the relaxation step (relaxedSearch.ts), the
// offers shown (shownOffers.ts), the types (searchTypes.ts).

export { ROUND_TRIPS, searchBody }
export type { DealsQuery, FoundModel, IntentQuery, IntentResult, ProductsQuery }

export interface DiscoverySearchShape {
  deals(query: DealsQuery): Effect.Effect<{ documents: ReadonlyArray<DealOffer>; intent?: Intent }, SearchError>
  search(query: IntentQuery): Effect.Effect<IntentResult, SearchError>
  /** One offer per model, the best meeting the filters; `total` counts models. */
  products(query: ProductsQuery): Effect.Effect<{ documents: ReadonlyArray<ShownOffer>; total: number }, SearchError>
  /** The same search with every offer of each model (for the MCP catalog tools). */
  models(query: ProductsQuery): Effect.Effect<{ models: ReadonlyArray<FoundModel>; total: number }, SearchError>
  /** A phrase read by the intent reader of the search page, with the catalog's current vocabulary. */
  readIntent(phrase: string): Effect.Effect<Intent>
  /** One offer by its id (the deal id), for landing pages. */
  document(id: string): Effect.Effect<Option.Option<ShownOffer>, SearchError>
  /** The model an offer id belongs to, with that offer shown; or the model a product id names, its best offer shown. */
  modelOf(id: string): Effect.Effect<Option.Option<FoundModel>, SearchError>
  /** Reloads category and brand names from the index now. */
  readonly refreshVocabulary: Effect.Effect<Vocabulary, SearchError>
}

export class DiscoverySearch extends Context.Service<DiscoverySearch, DiscoverySearchShape>()(
  "app/discovery/DiscoverySearch"
) {
  static readonly layer = Layer.effect(
    DiscoverySearch,
    Effect.gen(function* () {
      const requests = makeSearchRequests(yield* SearchEngine, yield* Metrics)
      const exchangeRates = yield* ExchangeRates
      const { run } = requests
      const { refreshVocabulary, currentVocabulary, intentOf, planOf } = makeIntentPlans(run)
      const { relax } = makeRelaxedSearch(requests)

      const deals = (query: DealsQuery) =>
        Effect.gen(function* () {
          const phrase = query.q?.trim() ?? ""
          const intent =
            phrase === ""
              ? undefined
              : intentInCurrency(intentOf(phrase, yield* currentVocabulary), query.currency, query.country)
          const filters = [
            "is_deal = true",
            ...(intent === undefined
              ? [
                  ...paramFilter("categories", query.category),
                  ...(query.currency === undefined ? [] : [currencyFilter(query.currency)]),
                  ...(query.country === undefined ? [] : [countryFilter(query.country)])
                ]
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

      const search = (query: IntentQuery) =>
        Effect.gen(function* () {
          const offset = query.offset ?? 0
          const want = offset + query.limit
          const words = yield* currentVocabulary
          // Price words with product words: every product that names them is read, then cheapest first
          // (by amount within each currency, unless the caller converts them: prices of two currencies
          // are never ordered as one number as they stand).
          // Without a market (no currency asked for) an answer spans currencies: converted at the
          // reference rates when they are loaded, so "cheap X" is cheapest first across them.
          const cheapest = cheapestWanted(intentOf(query.q, words))
            ? (query.priceComparison ??
              (query.currency === undefined ? convertedPrices(yield* exchangeRates.current) : undefined) ??
              SAME_CURRENCY)
            : undefined
          const { intent, ladder, params, body } = planOf(
            query.q,
            query.category,
            query.currency,
            strictModels(intentOf(query.q, words), want),
            words,
            query.country
          )
          const strict = ladder[0]
          // an answer ordered by converted prices says so (the converted figures and the rates' day)
          const convertedNote = cheapest?.converted === undefined ? {} : { converted: cheapest.converted }
          const response = yield* run(body, dealAnswerOf)
          const everything = response.hits.length < (params.limit ?? 0)
          if (cheapest !== undefined) {
            const found = yield* choosing(() =>
              cheapestAnswer(response.hits, params, strict.q, intent.categories.length > 0, cheapest)
            )
            if (found.length > 0) {
              return {
                documents: found.slice(offset, want),
                total: found.length,
                intent,
                includesOutOfStock: false,
                step: "strict",
                ...convertedNote
              } satisfies IntentResult
            }
          }
          // One pass over the hits: each shown offer is chosen once, then filed
          // by whether the product's own fields (not only its description) matched.
          const { named, describedOnly, namedTotal } = yield* choosing(() => {
            const named: Array<DealOffer> = []
            const describedOnly: Array<DealOffer> = []
            let namedTotal = 0
            for (const hit of response.hits) {
              const names = namesTheProduct(hit)
              if (names) namedTotal++
              const list = names ? named : describedOnly
              if (list.length >= want) continue
              const shown = shownOffer(hit, params, strict.q)
              if (shown !== undefined) list.push(shown)
            }
            return { named, describedOnly, namedTotal }
          })
          const page = (found: ReadonlyArray<DealOffer>) =>
            (cheapest === undefined ? found : cheapestFirst(found, cheapest)).slice(offset, want)
          if (named.length > 0) {
            return {
              documents: page(named),
              // only products that name the words count, in the total too
              total: everything ? namedTotal : Math.max(namedTotal, response.estimatedTotalHits ?? 0),
              intent,
              includesOutOfStock: false,
              step: "strict",
              ...convertedNote
            } satisfies IntentResult
          }
          // Every word matched, but only with descriptions: the same hits answer, no further query.
          if (describedOnly.length > 0) {
            return {
              documents: page(describedOnly),
              total: everything ? response.hits.length - namedTotal : (response.estimatedTotalHits ?? 0),
              intent,
              includesOutOfStock: false,
              step: "descriptions",
              relaxation: STEP_TEXT.descriptions,
              ...convertedNote
            } satisfies IntentResult
          }
          const relaxed = yield* relax(intent, ladder, {
            phrase: query.q.trim(),
            category: query.category,
            offset,
            limit: query.limit,
            cheapest
          })
          return relaxed.documents.length > 0 ? { ...relaxed, ...convertedNote } : relaxed
        })

      const models = (query: ProductsQuery) =>
        Effect.gen(function* () {
          const params: SearchParams = {
            filter: and(query.filters),
            limit: query.limit,
            offset: query.offset,
            attributesToRetrieve: MODEL_RETRIEVED_FIELDS,
            ...(query.sort ? { sort: [...query.sort] } : {}),
            ...(query.strategy ? { matchingStrategy: query.strategy } : {})
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

      /**
       * The model holding an offer (one query filtered on the offer ids models
       * carry), or the model a product id names, its best offer shown.
       */
      const modelOf = (id: string) => {
        const modelId = modelIdOf(id)
        return modelId === undefined && catalogIdOf(id) === undefined
          ? Effect.succeed(Option.none<FoundModel>())
          : run(
              searchBody("", {
                filter: modelId === undefined ? `offer_ids = ${JSON.stringify(id)}` : `id = ${JSON.stringify(modelId)}`,
                limit: 1,
                attributesToRetrieve: MODEL_RETRIEVED_FIELDS
              }),
              modelAnswerOf
            ).pipe(
              Effect.map((response) => {
                const hit = response.hits[0]
                const offers = hit?.offer_list.map((offer) => offerDocument(hit, offer)) ?? []
                const shown = modelId === undefined ? offers.find((offer) => offer.id === id) : offers[0]
                return shown === undefined || hit === undefined
                  ? Option.none<FoundModel>()
                  : Option.some<FoundModel>({ shown: { ...shown, variants: variantsOf(hit) }, offers })
              })
            )
      }

      const document = (id: string) => modelOf(id).pipe(Effect.map(Option.map((model) => model.shown)))

      const readIntent = (phrase: string) => Effect.map(currentVocabulary, (words) => intentOf(phrase, words))

      return DiscoverySearch.of({ deals, search, products, models, readIntent, document, modelOf, refreshVocabulary })
    })
  )
}
