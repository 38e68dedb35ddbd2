import { describe, expect, it } from "vitest"
import { dealFacts, dealScore, discountPercent, type PriceFacts } from "../../domain/deals/deal.ts"

const base: PriceFacts = {
  currentPrice: 80,
  availability: "in_stock",
  referencePrice: 100,
  referenceObservedAt: new Date("2026-11-01T00:00:00Z"),
  referenceDays: 20,
  historyDaysBefore: 45,
  low90: 80,
  daysSinceChange: 1
}

describe("deal facts", () => {
  it("computes the discount against our own 30-day low, rounded down", () => {
    expect(discountPercent(80, 100)).toBe(20)
    expect(discountPercent(66.67, 100)).toBe(33)
    expect(discountPercent(100, 100)).toBe(0)
    expect(discountPercent(120, 100)).toBe(0)
    expect(discountPercent(50, null)).toBe(0)
  })

  it("is a deal when meaningfully below a full-history reference", () => {
    expect(dealFacts(base)).toMatchObject({
      referencePrice: 100,
      referenceObservedAt: "2026-11-01",
      referenceKind: "full",
      discount: 20,
      isDeal: true
    })
    expect(dealFacts({ ...base, currentPrice: 95 }).isDeal).toBe(false) // 5%: not meaningful
    expect(dealFacts({ ...base, currentPrice: 90 }).isDeal).toBe(true) // 10%: the full-history threshold
  })

  it("needs a deeper cut with partial history, and a prior price that lasted a few days", () => {
    const partial = { ...base, historyDaysBefore: 10, referenceDays: 10 }
    expect(dealFacts({ ...partial, currentPrice: 85 })).toMatchObject({ referenceKind: "partial", isDeal: false })
    expect(dealFacts({ ...partial, currentPrice: 79 })).toMatchObject({ referenceKind: "partial", isDeal: true })
    // raised yesterday, cut today: no trustworthy reference
    expect(dealFacts({ ...partial, historyDaysBefore: 1, referenceDays: 1, currentPrice: 50 })).toMatchObject({
      referencePrice: null,
      referenceKind: null,
      isDeal: false,
      discount: 0
    })
  })

  it("never makes a deal without our own history (feed 'was' prices are not inputs)", () => {
    expect(dealFacts({ ...base, referencePrice: null, referenceObservedAt: null, historyDaysBefore: 0 })).toMatchObject(
      {
        isDeal: false,
        dealScore: 0
      }
    )
  })

  it("does not call an out-of-stock product a deal", () => {
    expect(dealFacts({ ...base, availability: "out_of_stock" }).isDeal).toBe(false)
  })

  it("scores deeper, fresher, lower-than-ever and in-stock deals higher", () => {
    const score = (facts: Partial<PriceFacts>, discount = 20) => dealScore({ ...base, ...facts }, discount)
    expect(score({}, 40)).toBeGreaterThan(score({}, 20))
    expect(score({ daysSinceChange: 0 })).toBeGreaterThan(score({ daysSinceChange: 10 }))
    expect(score({ low90: 80 })).toBeGreaterThan(score({ low90: 70 }))
    expect(score({ availability: "in_stock" })).toBeGreaterThan(score({ availability: "backorder" }))
    expect(score({}, 100)).toBeLessThanOrEqual(100)
    expect(score({ daysSinceChange: 400, low90: 10, availability: "out_of_stock" }, 0)).toBe(0)
  })
})
