import { Effect } from "effect"
import type { SearchParams } from "meilisearch"
import type { SearchError } from "../infra/SearchEngine.ts"
import {
  type DealModel,
  type DealOffer,
  type ModelHit,
  offerDocument,
  type ShownOffer,
  variantsOf
} from "../readModel/modelDocuments.ts"
import { MalformedOffer } from "../readModel/modelHits.ts"
import { cheapestOfferByCurrency, offerFor } from "../readModel/offerFilter.ts"
import type { EmbeddedDealOffer } from "../readModel/offerRows.ts"
import { unexpectedDocument } from "./searchRequests.ts"

// From a page of model hits to the offers a search answer shows: each hit
// shows its best offer that meets the filter, rendered from the index
// document alone. Shared by every search method and the relaxation step.

/**
 * What `choose` picks from a Deal search's hits: a Deal search's offers are
 * checked when the offer choice first reads them (modelHits.ts), so a
 * malformed one fails the search here as readAnswer's checks do.
 */
export const choosing = <A>(choose: () => A): Effect.Effect<A, SearchError> => {
  try {
    return Effect.succeed(choose())
  } catch (error) {
    if (error instanceof MalformedOffer) return Effect.fail(unexpectedDocument(error.message))
    throw error
  }
}

/** A model hit as the offer it shows (offerFilter.ts), or none when no single offer meets the filter. */
export function shownOffer(hit: ModelHit, params: SearchParams, q?: string): ShownOffer | undefined
export function shownOffer(hit: DealModel, params: SearchParams, q?: string): DealOffer | undefined
export function shownOffer(hit: DealModel, params: SearchParams, q = ""): DealOffer | undefined {
  const shown = offerFor<EmbeddedDealOffer>(hit, params.filter as string | undefined, params.sort, q)
  return shown === undefined ? undefined : { ...offerDocument(hit, shown), variants: variantsOf(hit) }
}

/** The offers shown for a page of model hits, at most `limit`. */
export const shownOffers = (
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

/** A model's cheapest offer meeting `filter` in each currency it sells in (offerFilter.ts cheapestOfferByCurrency). */
export const cheapestOffersByCurrency = (hit: DealModel, filter: string | undefined, q = ""): Array<DealOffer> => {
  const out: Array<DealOffer> = []
  for (const offer of cheapestOfferByCurrency<EmbeddedDealOffer>(hit, filter, q).values())
    if (offer !== undefined) out.push({ ...offerDocument(hit, offer), variants: variantsOf(hit) })
  return out
}
