import { Effect } from "effect"
import type { Intent } from "../domain/intent/parseIntent.ts"
import { attemptParams, constraintProbes, STEP_TEXT, unmetConstraint, type Attempt } from "./relaxation.ts"
import type { SearchRequests } from "./searchRequests.ts"
import type { IntentResult } from "./searchTypes.ts"
import { choosing, shownOffer, shownOffers } from "./shownOffers.ts"

// When the strict reading of a phrase finds nothing: the later steps of the
// relaxation ladder (relaxation.ts) and the probes that name an unmet
// constraint, sent as one multi-search and read in ladder order.

export const makeRelaxedSearch = (requests: SearchRequests) => {
  const { uid } = requests

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
      const results = yield* requests.multiSearch(queries)
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

  return { relax }
}
