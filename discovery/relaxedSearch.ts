import { Effect } from "effect"
import type { Intent } from "../domain/intent/parseIntent.ts"
import type { DealModel, DealOffer } from "../readModel/modelDocuments.ts"
import { cheapestFirst, type PriceComparison } from "./priceOrder.ts"
import { attemptParams, constraintProbes, STEP_TEXT, unmetConstraint, type Attempt, type Probe } from "./relaxation.ts"
import type { SearchRequests } from "./searchRequests.ts"
import type { IntentResult } from "./searchTypes.ts"
import { cheapestOffersByCurrency, choosing, shownOffer, shownOffers } from "./shownOffers.ts"
import { cheapestPerCurrency, suggestionsFor } from "./suggestions.ts"

// When the strict reading of a phrase finds nothing: the later steps of the
// relaxation ladder (relaxation.ts) and the probes that name an unmet
// constraint, sent as one multi-search and read in ladder order.

/** What one page of a relaxed search asks for. */
export interface RelaxedPage {
  readonly phrase: string
  readonly category: string | undefined
  readonly offset: number
  readonly limit: number
  /** Set for price words: cheapest first within comparable prices. */
  readonly cheapest?: PriceComparison | undefined
}

/** Each currency's cheapest offer of each probed model, meeting the probe's filter (never across currencies). */
const cheapestOffers = (hits: ReadonlyArray<DealModel>, probe: Probe): Array<DealOffer> =>
  hits.flatMap((hit) => cheapestOffersByCurrency(hit, probe.params.filter as string | undefined, probe.params.q))

export const makeRelaxedSearch = (requests: SearchRequests) => {
  const { uid } = requests

  /** The later ladder steps and the constraint probes, in one multi-search round trip. */
  const relax = (intent: Intent, ladder: ReadonlyArray<Attempt>, page: RelaxedPage) =>
    Effect.gen(function* () {
      const want = page.offset + page.limit
      const steps = ladder.slice(1)
      const probes = constraintProbes(intent, ladder[ladder.length - 1])
      const stepParams = steps.map((attempt) => attemptParams(attempt, want))
      const queries = [
        ...steps.map((attempt, i) => ({ indexUid: uid, q: attempt.q, ...stepParams[i] })),
        ...probes.map((probe) => ({ indexUid: uid, ...probe.params }))
      ]
      const results = yield* requests.multiSearch(queries)
      return yield* choosing((): IntentResult => {
        for (const [index, attempt] of steps.entries()) {
          const hits = results[index]?.hits ?? []
          const found = shownOffers(hits, attempt.q, stepParams[index], want)
          if (found.length > 0) {
            const ordered = page.cheapest === undefined ? found : cheapestFirst(found, page.cheapest)
            const everything = hits.length < (stepParams[index].limit ?? 0)
            return {
              documents: ordered.slice(page.offset, want),
              total: everything ? found.length : Math.max(found.length, results[index]?.estimatedTotalHits ?? 0),
              intent,
              includesOutOfStock: !attempt.inStock,
              step: attempt.step,
              relaxation: STEP_TEXT[attempt.step]
            }
          }
        }
        const probed = probes.map((probe, i) => {
          const result = results[steps.length + i]
          const hit = result?.hits[0]
          return {
            probe,
            hits: result?.hits ?? [],
            hit: hit === undefined ? undefined : shownOffer(hit, probe.params),
            total: result?.estimatedTotalHits ?? 0
          }
        })
        const cheapestProbe = probed.find((p) => p.probe.kind === "cheapest")
        const cheapest =
          cheapestProbe === undefined
            ? []
            : cheapestPerCurrency(cheapestOffers(cheapestProbe.hits, cheapestProbe.probe))
        // the bound's own currency first
        const bound = intent.price?.currency
        const ordered = [...cheapest].sort((a, b) => Number(b.currency === bound) - Number(a.currency === bound))
        const unmet = unmetConstraint(intent, page.category, probed, ordered)
        const suggestions = suggestionsFor({
          phrase: page.phrase,
          intent,
          category: page.category,
          cheapest: ordered,
          outsideCategory: probed.find((p) => p.probe.kind === "category")?.total ?? 0
        })
        return {
          documents: [],
          total: 0,
          intent,
          includesOutOfStock: false,
          ...(unmet ? { unmet } : {}),
          ...(suggestions.length > 0 ? { suggestions } : {})
        }
      })
    })

  return { relax }
}
