import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { convert, parseRateTable } from "../../domain/money/Currency.ts"
import { divideHalfEven, formatDecimal, parseDecimal, parseRatio, roundTo } from "../../domain/money/Decimal.ts"
import { parseShare, revenueFor, splitCommission } from "../../domain/money/RevenueSplit.ts"

describe("exact decimals", () => {
  it("parses decimal text exactly and refuses what it cannot store", () => {
    expect(parseDecimal("12.3")).toBe(123000n)
    expect(parseDecimal("-0.0100")).toBe(-100n)
    expect(parseDecimal(".5")).toBe(5000n)
    expect(parseDecimal("4.000100")).toBe(40001n) // trailing zeros beyond 4 digits are fine
    expect(parseDecimal("4.00001")).toBeUndefined() // would need rounding: refused
    expect(parseDecimal("1e3")).toBeUndefined()
    expect(parseDecimal("1,049.00")).toBeUndefined()
    expect(parseDecimal("")).toBeUndefined()
    expect(parseDecimal("-")).toBeUndefined()
    expect(formatDecimal(-100n)).toBe("-0.0100")
    expect(formatDecimal(123000n, 2)).toBe("12.30")
  })

  it("0.1 + 0.2 is 0.3 (no binary floating point)", () => {
    expect(formatDecimal(parseDecimal("0.1")! + parseDecimal("0.2")!)).toBe("0.3000")
  })

  it("rounds half to even, symmetrically for negatives", () => {
    expect(divideHalfEven(5n, 2n)).toBe(2n)
    expect(divideHalfEven(7n, 2n)).toBe(4n)
    expect(divideHalfEven(-5n, 2n)).toBe(-2n)
    expect(divideHalfEven(-7n, 2n)).toBe(-4n)
    expect(divideHalfEven(11n, 4n)).toBe(3n)
    expect(roundTo(parseDecimal("0.125")!, 2)).toBe(parseDecimal("0.12"))
    expect(roundTo(parseDecimal("0.135")!, 2)).toBe(parseDecimal("0.14"))
  })

  it("format and parse round-trip for any amount", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n }), (units) => {
        expect(parseDecimal(formatDecimal(units))).toBe(units)
      }),
      { numRuns: 2000 }
    )
  })

  it("half-even division is within half a unit of the exact quotient", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 6n }),
        (n, d) => {
          const q = divideHalfEven(n, d)
          const error = q * d - n // scaled by d
          expect(2n * (error < 0n ? -error : error) <= d).toBe(true)
        }
      ),
      { numRuns: 2000 }
    )
  })
})

describe("currency conversion", () => {
  const table = parseRateTable({ base: "USD", rates: { EUR: "1.0842", GBP: "1.2675", JPY: "0.006645" } })

  it("converts through the base with one rounding to the target's minor unit", () => {
    expect(formatDecimal(convert(table, parseDecimal("10.00")!, "EUR", "USD")!)).toBe("10.8400") // 10.842 -> 10.84
    expect(formatDecimal(convert(table, parseDecimal("790")!, "JPY", "USD")!)).toBe("5.2500") // 5.24955 -> 5.25
    expect(formatDecimal(convert(table, parseDecimal("100")!, "USD", "JPY")!)).toBe("15049.0000") // JPY: no minor unit
    expect(formatDecimal(convert(table, parseDecimal("12.35")!, "GBP", "EUR")!)).toBe("14.4400") // 12.35*1.2675/1.0842 = 14.4378...
    expect(convert(table, 1n, "XAU", "USD")).toBeUndefined()
  })

  it("refuses rate tables with float numbers, bad codes or zero rates", () => {
    expect(() => parseRateTable({ base: "USD", rates: { EUR: 1.08 } })).toThrow(/decimal string/)
    expect(() => parseRateTable({ base: "usd", rates: {} })).toThrow(/base/)
    expect(() => parseRateTable({ base: "USD", rates: { EUR: "0" } })).toThrow(/positive/)
  })
})

describe("revenue split", () => {
  const share70 = parseShare("0.70")!

  it("splits 70/30 by default and gives the platform the exact remainder", () => {
    const split = splitCommission(parseDecimal("10.01")!, share70, 2)
    expect(formatDecimal(split.partner)).toBe("7.0100") // 7.007 -> 7.01
    expect(formatDecimal(split.platform)).toBe("3.0000")
    expect(parseShare("1.2")).toBeUndefined()
    expect(parseShare("abc")).toBeUndefined()
  })

  it("declined and reversed conversions earn nothing; without a partner the platform keeps all", () => {
    expect(revenueFor("reversed", 1000n, share70, 2)).toEqual({ partner: 0n, platform: 0n })
    expect(revenueFor("declined", 1000n, share70, 2)).toEqual({ partner: 0n, platform: 0n })
    expect(revenueFor("approved", 1000n, undefined, 2)).toEqual({ partner: 0n, platform: 1000n })
  })

  // The property the issue asks for: over any set of conversions, with any
  // per-partner share, partner + platform equals the commission exactly, per
  // conversion and in total, and every share is a whole cent.
  it("never creates or loses a cent across many random conversions (property)", () => {
    const cents = fc.bigInt({ min: -(10n ** 9n), max: 10n ** 11n })
    const share = fc.integer({ min: 0, max: 10_000 }).map((bp) => parseRatio((bp / 10_000).toFixed(4))!)
    const conversion = fc.record({ cents, share, minor: fc.constantFrom(0, 2, 3) })
    fc.assert(
      fc.property(fc.array(conversion, { minLength: 1, maxLength: 300 }), (conversions) => {
        let commissionTotal = 0n
        let partnerTotal = 0n
        let platformTotal = 0n
        for (const { cents, share, minor } of conversions) {
          const commission = cents * 10n ** BigInt(4 - minor) // a whole minor-unit amount at scale 4
          const { partner, platform } = splitCommission(commission, share, minor)
          expect(partner + platform).toBe(commission)
          expect(partner % 10n ** BigInt(4 - minor)).toBe(0n) // whole minor units
          const exact = commission * share.numerator // partner is within half a minor unit of the exact share
          const diff = partner * share.denominator - exact
          expect(2n * (diff < 0n ? -diff : diff) <= share.denominator * 10n ** BigInt(4 - minor)).toBe(true)
          commissionTotal += commission
          partnerTotal += partner
          platformTotal += platform
        }
        expect(partnerTotal + platformTotal).toBe(commissionTotal)
      }),
      { numRuns: 500 }
    )
  })
})
