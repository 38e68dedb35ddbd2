import { MIN_DISCOUNT_FULL, MIN_DISCOUNT_PARTIAL } from "./deal.ts"

// Price drops: the current price against the previous 30-day low and the
// 90-day median, from our own price history.
//
// "Previous" means before the current price started: the current
// observation never counts towards its own reference. Prices are taken as
// in effect over time (price_history stores one row per change), so:
// - low_30d is the lowest price in effect during the 30 days before the
//   current price started: exactly deal.ts's reference price;
// - median_90d is the time-weighted median of the prices in effect during the
//   90 days before the current price started (the price the product sold at
//   for half of that time), a "street price" one cheap day cannot move.
//
// Which products qualify is deal.ts's decision, not a second opinion: a drop
// is what the discovery feed calls a deal (a trusted reference: 30 days of
// history, or a partial history whose lowest price held for 3+ days; a
// discount of at least 10% against a full reference, 20% against a partial
// one; not out of stock). So a new product, or a price that was raised
// yesterday and cut today, is never a drop. The list is further limited to
// prices that changed in the last RECENT_DROP_DAYS (older cuts are the
// normal price by now), and ranked by the drop against the 90-day median,
// then the discount against the 30-day low.

export const MEDIAN_WINDOW_DAYS = 90
export const RECENT_DROP_DAYS = 30
export { MIN_DISCOUNT_FULL, MIN_DISCOUNT_PARTIAL }

export interface PriceSegment {
  readonly price: number
  /** How long this price was in effect inside the window (any unit). */
  readonly duration: number
}

/** The lower time-weighted median: the lowest price in effect for at least half the time at or below it. */
export const timeWeightedMedian = (segments: ReadonlyArray<PriceSegment>): number | null => {
  const sorted = segments.filter((segment) => segment.duration > 0).sort((a, b) => a.price - b.price)
  const total = sorted.reduce((sum, segment) => sum + segment.duration, 0)
  if (total <= 0) return null
  let cumulative = 0
  for (const segment of sorted) {
    cumulative += segment.duration
    if (cumulative * 2 >= total) return segment.price
  }
  return sorted[sorted.length - 1].price
}

/** Percent the current price is below a reference (negative when above), one decimal. */
export const dropPercent = (current: number, reference: number | null): number | null =>
  reference === null || reference <= 0 ? null : Math.round(((reference - current) / reference) * 1000) / 10
