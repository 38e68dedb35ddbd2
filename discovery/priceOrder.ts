import { comparablePrice, type ExchangeRates } from "../domain/money/exchangeRates.ts"
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
  /** The group that comes first whatever the relevance order (the converted prices, before any currency without a rate). */
  readonly leading?: string
  /** Set when prices are converted: into which currency, at the rates of which day. */
  readonly converted?: ConvertedPrices
}

/** How an answer's prices were made comparable, said in the answer beside each converted figure. */
export interface ConvertedPrices {
  readonly currency: string
  /** The reference rates' day (YYYY-MM-DD). */
  readonly ratesAsOf: string
  /** The rates themselves, so each shown price's converted figure is the one it was ordered by. */
  readonly rates: ExchangeRates
}

const CONVERTED = "converted"

export const SAME_CURRENCY: PriceComparison = {
  groupOf: (offer) => offer.currency,
  amountOf: (offer) => offer.price
}

/**
 * Prices of every currency with a reference rate converted into `target`
 * (domain/money/exchangeRates.ts: the ECB's euro rates), one group cheapest
 * first; offers in a currency without a rate follow, each currency on its
 * own. Undefined when no rates are loaded: then nothing is converted and
 * prices compare only within their currency.
 */
export const convertedPrices = (rates: ExchangeRates, target = "EUR"): PriceComparison | undefined => {
  if (rates.asOf === null) return undefined
  return {
    groupOf: (offer) =>
      comparablePrice(offer.price, offer.currency, rates, target) === undefined ? offer.currency : CONVERTED,
    amountOf: (offer) => comparablePrice(offer.price, offer.currency, rates, target) ?? offer.price,
    leading: CONVERTED,
    converted: { currency: target, ratesAsOf: rates.asOf, rates }
  }
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
  if (comparison.leading !== undefined) rank.set(comparison.leading, 0)
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
