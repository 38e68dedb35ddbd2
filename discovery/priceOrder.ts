import { comparablePrice, type ExchangeRates } from "../domain/money/exchangeRates.ts"
import type { DealOffer } from "../readModel/modelDocuments.ts"

// "Cheap" means cheapest first, but only between prices that can be
// compared: 82.95 EUR is neither more nor less than £69.99 until someone
// converts one into the other. A comparison puts each offer in a group and
// gives its amount within the group; offers of different groups are never
// ordered by amount. The default groups by currency (no conversion); a
// comparison that converts every price into one currency puts them all in
// one group.

/** What a comparison reads of an offer. */
export type PricedOffer = Pick<DealOffer, "price" | "currency">

export interface PriceComparison {
  /** Offers of one group compare by amount; groups keep the order of their most relevant offer. */
  readonly groupOf: (offer: PricedOffer) => string
  readonly amountOf: (offer: PricedOffer) => number
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
export function cheapestFirst<O extends PricedOffer>(offers: ReadonlyArray<O>, comparison?: PriceComparison): Array<O>
/** The same for items priced by `priceOf` (each item's offer). */
export function cheapestFirst<A>(
  items: ReadonlyArray<A>,
  comparison: PriceComparison,
  priceOf: (item: A) => PricedOffer
): Array<A>
export function cheapestFirst<A>(
  items: ReadonlyArray<A>,
  comparison: PriceComparison = SAME_CURRENCY,
  priceOf: (item: A) => PricedOffer = (item) => item as PricedOffer
): Array<A> {
  const rank = new Map<string, number>()
  if (comparison.leading !== undefined) rank.set(comparison.leading, 0)
  return items
    .map((item, at) => {
      const offer = priceOf(item)
      const group = comparison.groupOf(offer)
      // a group's rank is the order its first offer appears in, fixed when first seen
      if (!rank.has(group)) rank.set(group, rank.size)
      return { item, at, rank: rank.get(group)!, amount: comparison.amountOf(offer) }
    })
    .sort((a, b) => a.rank - b.rank || a.amount - b.amount || a.at - b.at)
    .map(({ item }) => item)
}
