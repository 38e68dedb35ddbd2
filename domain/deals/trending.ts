// Trending: products gaining human clicks, by a time-decayed click score.
//
// Each visit to a product counts: a human (clicks.is_bot = false), unique
// click (clicks.is_unique) on a tracking link tied to the product, one per
// visitor (IP hash), product and hour however many links or clicks. It
// counts exp(-ln2 · age / HALF_LIFE): a visit now is worth 1, one
// HALF_LIFE_HOURS ago 0.5, two ago 0.25. Clicks older than WINDOW_DAYS are
// not read at all (their weight is below 1% and reading them costs time).
//
// "Gaining" compares the last 24 hours with the 24 hours before. A product
// whose clicks are falling (fewer in the last 24 h than in the 24 h before)
// is excluded, however high its score: it was trending, it is not any more.
// A product with no click in the last 24 hours is excluded too.

export const HALF_LIFE_HOURS = 24
export const WINDOW_DAYS = 7
export const COMPARE_HOURS = 24

const HOUR_MS = 3_600_000

/** Weight of one click `ageMs` old (a click from the future counts as now). */
export const clickWeight = (ageMs: number): number =>
  Math.exp((-Math.LN2 * Math.max(0, ageMs)) / HOUR_MS / HALF_LIFE_HOURS)

/** Decayed score of clicks at the given ages; clicks outside the window do not count. */
export const trendingScore = (agesMs: ReadonlyArray<number>): number =>
  agesMs.filter((age) => age < WINDOW_DAYS * 24 * HOUR_MS).reduce((sum, age) => sum + clickWeight(age), 0)

/** Relative change of the last 24 h against the 24 h before; null when there were none before (new interest). */
export const clickGrowth = (clicks24h: number, clicksPrev24h: number): number | null =>
  clicksPrev24h === 0 ? null : (clicks24h - clicksPrev24h) / clicksPrev24h

/** In the list only when clicked in the last 24 h and not falling. */
export const isGaining = (clicks24h: number, clicksPrev24h: number): boolean =>
  clicks24h > 0 && clicks24h >= clicksPrev24h
