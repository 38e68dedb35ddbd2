// Deal facts for one product, computed from our own price history.
//
// A feed's "was" price (RRP, product_price_old, list price) is a claim by the
// merchant, not an observation: it is shown as context, never used to decide
// that something is a deal (EU Omnibus Art. 6a; Wirecutter's "street price").
//
// What we accept as a reference price:
// - the lowest price we observed in the 30 days before the current price
//   started ("full" history: we have watched the product for the whole window);
// - with less history, the lowest earlier price we did observe ("partial"),
//   which must have been in effect for at least MIN_PRIOR_DAYS, so a price
//   raised yesterday and cut today cannot manufacture a discount; partial
//   references need a deeper cut (MIN_DISCOUNT_PARTIAL) to count as a deal.
// - no earlier observation at all: no reference, not a deal (however large
//   the feed's claimed saving).

export const REFERENCE_WINDOW_DAYS = 30
export const MIN_PRIOR_DAYS = 3
export const MIN_DISCOUNT_FULL = 10
export const MIN_DISCOUNT_PARTIAL = 20

export type Availability = "in_stock" | "out_of_stock" | "preorder" | "backorder"

export interface PriceFacts {
  readonly currentPrice: number
  readonly availability: string
  /** Lowest price in effect during the 30 days before the current price started, if any. */
  readonly referencePrice: number | null
  /** When the reference price was observed (in effect, inside the window). */
  readonly referenceObservedAt: Date | null
  /** How long (days) the reference-price row was in effect inside the window. */
  readonly referenceDays: number | null
  /** Days of history we hold before the current price started. */
  readonly historyDaysBefore: number
  /** Lowest price in effect during the last 90 days, current included. */
  readonly low90: number | null
  /** Days since the current price started. */
  readonly daysSinceChange: number
}

export interface DealFacts {
  readonly referencePrice: number | null
  readonly referenceObservedAt: string | null
  readonly referenceKind: "full" | "partial" | null
  /** Percent below the reference, rounded down to an integer; 0 when none. */
  readonly discount: number
  readonly isDeal: boolean
  /** 0..100, higher is better. */
  readonly dealScore: number
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value))

/** Percent the current price is below the reference (0 when not below). */
export const discountPercent = (current: number, reference: number | null): number =>
  reference === null || reference <= 0 || current >= reference
    ? 0
    : Math.floor(((reference - current) / reference) * 100 + 1e-9)

/**
 * Score: discount depth (up to 50), closeness to the 90-day low (up to 25),
 * recency of the price change (up to 15), availability (up to 10).
 */
export const dealScore = (facts: PriceFacts, discount: number): number => {
  const depth = clamp(discount, 0, 50)
  const low = facts.low90 ?? facts.currentPrice
  // 25 at or below the 90-day low, falling to 0 at 20% above it.
  const aboveLow = low > 0 ? (facts.currentPrice - low) / low : 0
  const closeness = 25 * clamp(1 - aboveLow / 0.2, 0, 1)
  // 15 for a change today, linearly to 0 after two weeks.
  const recency = 15 * clamp(1 - facts.daysSinceChange / 14, 0, 1)
  const stock = facts.availability === "in_stock" ? 10 : facts.availability === "out_of_stock" ? 0 : 4
  return Math.round((depth + closeness + recency + stock) * 10) / 10
}

export const referenceKind = (facts: PriceFacts): "full" | "partial" | null => {
  if (facts.referencePrice === null) return null
  if (facts.historyDaysBefore >= REFERENCE_WINDOW_DAYS) return "full"
  return (facts.referenceDays ?? 0) >= MIN_PRIOR_DAYS ? "partial" : null
}

export const dealFacts = (facts: PriceFacts): DealFacts => {
  const kind = referenceKind(facts)
  const reference = kind === null ? null : facts.referencePrice
  const discount = discountPercent(facts.currentPrice, reference)
  const threshold = kind === "full" ? MIN_DISCOUNT_FULL : MIN_DISCOUNT_PARTIAL
  const isDeal = kind !== null && discount >= threshold && facts.availability !== "out_of_stock"
  return {
    referencePrice: reference,
    referenceObservedAt:
      kind === null || facts.referenceObservedAt === null ? null : facts.referenceObservedAt.toISOString().slice(0, 10),
    referenceKind: kind,
    discount,
    isDeal,
    dealScore: isDeal ? dealScore(facts, discount) : 0
  }
}
