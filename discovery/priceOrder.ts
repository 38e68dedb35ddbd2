import type { DealOffer } from "../readModel/modelDocuments.ts"

// "Cheap" means cheapest first, but only between prices that can be
// compared: 82.95 EUR is neither more nor less than £69.99 until someone
// converts one into the other. A comparison puts each offer in a group and
// gives its amount within the group; offers of different groups are never
// ordered by amount. The default groups by currency (no conversion); a
// comparison that converts every price into one currency puts them all in
// one group.

export interface PriceComparison {
  /** Offers of one group compare by amount; groups keep the order of their most relevant offer. */
  readonly groupOf: (offer: DealOffer) => string
  readonly amountOf: (offer: DealOffer) => number
}

export const SAME_CURRENCY: PriceComparison = {
  groupOf: (offer) => offer.currency,
  amountOf: (offer) => offer.price
}

/**
 * Cheapest first within each group, the groups in the order their first
 * offer appears in `offers` (relevance order): the most relevant currency's
 * products come first, cheapest to dearest, then the next currency's.
 */
export const cheapestFirst = (
  offers: ReadonlyArray<DealOffer>,
  comparison: PriceComparison = SAME_CURRENCY
): Array<DealOffer> => {
  const rank = new Map<string, number>()
  for (const offer of offers) {
    const group = comparison.groupOf(offer)
    if (!rank.has(group)) rank.set(group, rank.size)
  }
  return offers
    .map((offer, at) => ({
      offer,
      at,
      group: rank.get(comparison.groupOf(offer))!,
      amount: comparison.amountOf(offer)
    }))
    .sort((a, b) => a.group - b.group || a.amount - b.amount || a.at - b.at)
    .map(({ offer }) => offer)
}
