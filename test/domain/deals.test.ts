import { describe, expect, it } from "vitest"
import { conversionEstimate, earningsFormula, earningsPerClick, partnerShareOf } from "../../domain/deals/earnings.ts"
import { dropPercent, timeWeightedMedian } from "../../domain/deals/priceDrop.ts"
import { clickGrowth, clickWeight, isGaining, trendingScore } from "../../domain/deals/trending.ts"

const HOUR = 3_600_000

describe("trending score", () => {
  it("halves a click's weight every 24 hours and ignores clicks outside the 7-day window", () => {
    expect(clickWeight(0)).toBe(1)
    expect(clickWeight(24 * HOUR)).toBeCloseTo(0.5, 12)
    expect(clickWeight(48 * HOUR)).toBeCloseTo(0.25, 12)
    expect(clickWeight(-5 * HOUR)).toBe(1)
    expect(trendingScore([0, 24 * HOUR, 8 * 24 * HOUR])).toBeCloseTo(1.5, 12)
  })

  it("gaining: clicked in the last 24 h and not fewer than the 24 h before; growth null without a baseline", () => {
    expect(isGaining(3, 1)).toBe(true)
    expect(isGaining(2, 2)).toBe(true)
    expect(isGaining(1, 3)).toBe(false)
    expect(isGaining(0, 0)).toBe(false)
    expect(clickGrowth(3, 1)).toBe(2)
    expect(clickGrowth(2, 0)).toBeNull()
  })
})

describe("price drop figures", () => {
  it("time-weighted median: the price in effect for half the time, not the middle row", () => {
    // Three rows, but 160 held for 80 of 100 days.
    expect(
      timeWeightedMedian([
        { price: 200, duration: 10 },
        { price: 180, duration: 10 },
        { price: 160, duration: 80 }
      ])
    ).toBe(160)
    expect(
      timeWeightedMedian([
        { price: 200, duration: 32 },
        { price: 180, duration: 35 },
        { price: 160, duration: 23 }
      ])
    ).toBe(180)
    expect(
      timeWeightedMedian([
        { price: 10, duration: 1 },
        { price: 20, duration: 1 }
      ])
    ).toBe(10)
    expect(timeWeightedMedian([])).toBeNull()
  })

  it("drop percent against a reference, one decimal, negative above it", () => {
    expect(dropPercent(120, 180)).toBe(33.3)
    expect(dropPercent(110, 100)).toBe(-10)
    expect(dropPercent(10, null)).toBeNull()
  })
})

describe("expected earnings per click", () => {
  it("uses the observed conversion rate only with enough clicks", () => {
    expect(conversionEstimate(99, 50)).toMatchObject({ rate: 0.02, source: "default" })
    expect(conversionEstimate(200, 6)).toMatchObject({ rate: 0.03, source: "observed" })
    expect(conversionEstimate(100, 0)).toMatchObject({ rate: 0, source: "observed" })
  })

  it("CPS scales with price; CPA, CPL and CPC do not", () => {
    expect(earningsPerClick(earningsFormula("CPS", 8, 0.03), 500)).toBeCloseTo(1.2, 12)
    expect(earningsPerClick(earningsFormula("cpa", 30, 0.02), 40)).toBeCloseTo(0.6, 12)
    expect(earningsPerClick(earningsFormula("CPA", 30, 0.02), 4000)).toBeCloseTo(0.6, 12)
    expect(earningsPerClick(earningsFormula("CPL", 2, 0.02), 10)).toBeCloseTo(0.1, 12)
    expect(earningsPerClick(earningsFormula("CPC", 0.15, 0.02), 10)).toBeCloseTo(0.15, 12)
    expect(earningsPerClick(earningsFormula("barter", 5, 0.02), 10)).toBe(0)
  })

  it("the partner's share is split like a commission, at 4 decimals, half to even", () => {
    expect(partnerShareOf(1.2, 0.7)).toBe(0.84)
    expect(partnerShareOf(0.288, 0.7)).toBe(0.2016)
    expect(partnerShareOf(0.0005, 0.7)).toBe(0.0004) // 0.00035 -> 0.0004 (half to even)
    expect(partnerShareOf(0.0015, 0.5)).toBe(0.0008) // 0.00075 -> 0.0008
    expect(partnerShareOf(0.0025, 0.5)).toBe(0.0012) // 0.00125 -> 0.0012
    expect(partnerShareOf(-1, 0.7)).toBe(0)
  })
})
