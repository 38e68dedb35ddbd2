import { Clock, Effect } from "effect"
import type { SearchParams } from "meilisearch"
import { parseIntent, type Intent } from "../domain/intent/parseIntent.ts"
import type { Vocabulary } from "../domain/intent/vocabulary.ts"
import { dealAnswerOf, facetValues } from "../readModel/modelHits.ts"
import { intentInCurrency } from "./marketIntent.ts"
import { attemptParams, searchAttempts, type Attempt } from "./relaxation.ts"
import { searchBody, type SearchRequests } from "./searchRequests.ts"

// How a phrase is read: the category and brand names intent parsing knows
// (refreshed from the index in the background, never on the request path),
// and each phrase's parse and search plan, remembered for the current
// vocabulary because popular phrases repeat.

/** Category and brand names for intent parsing, refreshed in the background. */
const VOCABULARY_TTL_MS = 60_000

/** An intent search's reading of its phrase: the relaxation ladder and the strict step's request. */
export interface SearchPlan {
  readonly intent: Intent
  readonly ladder: ReadonlyArray<Attempt>
  readonly params: SearchParams
  readonly body: string
}

export const makeIntentPlans = (run: SearchRequests["run"]) => {
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
  /**
   * `models`: how many products the strict request must be able to show (a page's end, or a price-ordered pool);
   * `currency`: the market's, when one is known, and `country` the market's country (marketIntent.ts).
   */
  const planOf = (
    q: string,
    category: string | undefined,
    currency: string | undefined,
    models: number,
    words: Vocabulary,
    country?: string
  ): SearchPlan => {
    const intent = intentInCurrency(intentOf(q, words), currency, country)
    const key = `${models}\u0000${category ?? ""}\u0000${currency ?? ""}\u0000${country ?? ""}\u0000${q}`
    const known = plans.get(key)
    if (known !== undefined) return known
    const ladder = searchAttempts(intent, category)
    const params = attemptParams(ladder[0], models)
    return remember(plans, key, { intent, ladder, params, body: searchBody(ladder[0].q, params) })
  }

  return { refreshVocabulary, currentVocabulary, intentOf, planOf }
}
