import { hashString, mulberry32, type Rng } from "../lib/prng.ts"
import { AS_OF, roundPrice, type Product } from "./product.ts"

// Price observations for a sample product: one row each time our (imagined)
// hourly pipeline saw its current price change over the 90 days before AS_OF.
// The series ends at the feed's current price and tells the truth the feed's
// claims are judged against: genuine deals dropped 10%+ below everything of
// the previous 30 days, fake sales have sat at the "sale" price for 35+ days.

const HOUR = 3_600_000
const DAY = 24 * HOUR
export const HISTORY_START = AS_OF - 90 * DAY

export type Observation = readonly [at: number, price: number]

/** Distinct whole hours in [from, to], sorted. */
const hours = (rng: Rng, from: number, to: number, n: number): Array<number> => {
  const span = Math.floor((to - from) / HOUR)
  const set = new Set<number>()
  const want = Math.min(n, span + 1)
  while (set.size < want) set.add(from + Math.floor(rng() * (span + 1)) * HOUR)
  return [...set].sort((a, b) => a - b)
}

/** Smallest price at or above x in the store's price style. */
const atLeast = (x: number, cents: 0 | 95 | 99): number => {
  const r = roundPrice(x, cents)
  return r >= x ? r : roundPrice(x < 5 ? x + 0.01 : x + 1, cents)
}

const bump = (x: number): number => Math.round((x + (x < 5 ? 0.1 : 1)) * 100) / 100

/** A wandering price around `base` within [lo, hi] times base, never repeating the previous value. */
const walk = (
  rng: Rng,
  times: ReadonlyArray<number>,
  base: number,
  lo: number,
  hi: number,
  cents: 0 | 95 | 99,
  floor = 0
): Array<Observation> => {
  const out: Array<Observation> = []
  let prev = -1
  for (const at of times) {
    let price = Math.max(roundPrice(base * (lo + rng() * (hi - lo)), cents), floor)
    if (price === prev) price = bump(price)
    out.push([at, price])
    prev = price
  }
  return out
}

/** Appends an observation, nudging the price so consecutive rows always differ. */
const push = (series: Array<Observation>, at: number, price: number): void => {
  const last = series[series.length - 1]
  series.push([at, last !== undefined && last[1] === price ? bump(price) : price])
}

export const historyFor = (key: string, p: Product): Array<Observation> => {
  const rng = mulberry32(hashString(`history|${key}`))
  const cents = p.store.cents
  const c = p.current
  const n = 10 + Math.floor(rng() * 31)
  const t0 = HISTORY_START + Math.floor(rng() * 6) * HOUR
  const series: Array<Observation> = []

  switch (p.dealClass) {
    case "genuine-sale":
    case "genuine-drop": {
      // Before the drop the price never went below current / 0.9.
      const before = p.dealClass === "genuine-sale" ? p.price : roundPrice(c * (1.15 + rng() * 0.3), cents)
      const floor = atLeast(c / 0.895, cents)
      const end = p.changedAt ?? AS_OF - DAY
      const times = [t0, ...hours(rng, t0 + HOUR, end - 2 * HOUR, n - 3)]
      series.push(...walk(rng, times, before, 0.98, 1.05, cents, floor))
      push(series, end - HOUR, Math.max(before, floor))
      push(series, end, c)
      break
    }
    case "mild-sale": {
      // The regular price right before a small sale keeps the 30-day low close to current.
      const end = p.changedAt ?? AS_OF - DAY
      const times = [t0, ...hours(rng, t0 + HOUR, end - 2 * HOUR, n - 3)]
      series.push(...walk(rng, times, p.price, 0.96, 1.0, cents))
      push(series, end - HOUR, p.price)
      push(series, end, c)
      break
    }
    case "fake-sale": {
      // Hovering around the "sale" price, then flat at it for 35+ days; never at the "was" price.
      const end = p.flatSince ?? AS_OF - 40 * DAY
      const times = [t0, ...hours(rng, t0 + HOUR, end - HOUR, n - 2)]
      series.push(...walk(rng, times, c, 0.97, 1.06, cents))
      // The change 35+ days ago was a small rise to today's price: no drop at all.
      const [prevAt, prevPrice] = series[series.length - 1]
      const before = series.length > 1 ? series[series.length - 2][1] : -1
      let under = prevPrice
      while (under >= c || under === before) under = Math.round((under - (c < 5 ? 0.1 : 1)) * 100) / 100
      series[series.length - 1] = [prevAt, under]
      push(series, end, c)
      break
    }
    case "expired-sale": {
      // On sale through October (the feed's expired window), back to regular on 1 November.
      const saleStart = Date.UTC(2026, 9, 1) + Math.floor(rng() * 8) * HOUR
      const saleEnd = Date.UTC(2026, 10, 1) + Math.floor(rng() * 8) * HOUR
      const times = [t0, ...hours(rng, t0 + HOUR, saleStart - HOUR, n - 3)]
      series.push(...walk(rng, times, c, 0.95, 1.06, cents))
      push(series, saleStart, p.salePrice ?? roundPrice(c * 0.85, cents))
      push(series, saleEnd, c)
      break
    }
    case "normal": {
      // A gentle wander; the step before the last stays within 6% of current,
      // so the last change is never a 10% drop.
      const end = AS_OF - (1 + Math.floor(rng() * 20 * 24)) * HOUR
      const times = [t0, ...hours(rng, t0 + HOUR, end - 50 * HOUR, n - 3)]
      series.push(...walk(rng, times, c, 0.9, 1.1, cents))
      // Must differ from both neighbours; stepping down also keeps it under current/0.9.
      const lastWalk = series[series.length - 1][1]
      let near = roundPrice(c * (0.95 + rng() * 0.11), cents)
      while (near === c || near === lastWalk) near = Math.round((near - (c < 5 ? 0.1 : 1)) * 100) / 100
      push(series, end - HOUR * (1 + Math.floor(rng() * 48)), near)
      push(series, end, c)
      break
    }
  }
  // Times increase by construction and push() never repeats a price; checked
  // anyway, with the rule that the series ends at the feed's current price.
  if (series[series.length - 1][1] !== c) throw new Error(`${key}: history does not end at the current price`)
  for (let i = 1; i < series.length; i++) {
    if (series[i][0] <= series[i - 1][0] || series[i][1] === series[i - 1][1])
      throw new Error(`${key}: observation ${i} repeats a time or price`)
  }
  return series
}

/** 30-day rule used by the samples test: current at least 10% under every price in force in the 30 days before the last change. */
export const isGenuineDeal = (series: ReadonlyArray<Observation>): boolean => {
  if (series.length < 2) return false
  const [at, current] = series[series.length - 1]
  const windowStart = at - 30 * DAY
  let low = Infinity
  for (let i = series.length - 2; i >= 0; i--) {
    low = Math.min(low, series[i][1])
    if (series[i][0] <= windowStart) break
  }
  return current <= 0.9 * low
}
