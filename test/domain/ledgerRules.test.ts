import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { attribution, type CreditableLink } from "../../domain/conversions/attribution.ts"
import { type ConversionRecord, type ConversionStatus, STATUSES } from "../../domain/conversions/ConversionRecord.ts"
import {
  type Correction,
  corrected,
  correctionsByConversion,
  correctionTotal,
  moveBy
} from "../../domain/conversions/corrections.ts"
import {
  attributedAtFor,
  ledgerEntry,
  type LedgerEntry,
  lockedShare,
  unstorable
} from "../../domain/conversions/ledgerEntry.ts"
import { rateText, reportingRatesFrom } from "../../domain/conversions/reportingRates.ts"
import { isMove, isStale, keepLatest, type LatestById } from "../../domain/conversions/statusRules.ts"
import { parseRateTable } from "../../domain/money/Currency.ts"
import { parseDecimal } from "../../domain/money/Decimal.ts"

// The ledger's rules on plain values: no database, no service.

const T0 = new Date("2026-03-01T10:00:00Z")
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000)
const money = (text: string) => parseDecimal(text)!

const table = parseRateTable({
  base: "USD",
  as_of: "2026-03-01",
  rates: { GBP: "1.2675", EUR: "1.0842", JPY: "0.0067", KWD: "3.2560" }
})
const usd = reportingRatesFrom(table, "USD")!
const jpy = reportingRatesFrom(table, "JPY")!

const record = (overrides: Partial<ConversionRecord> = {}): ConversionRecord => ({
  network: "awin",
  networkTxId: "412770002",
  clickRef: "Qm7xK2pL9vTa",
  orderAmount: money("247.00"),
  commission: money("12.35"),
  currency: "GBP",
  status: "approved",
  eventAt: T0,
  updatedAt: at(60),
  ...overrides
})

const link: CreditableLink = {
  trackingId: "Qm7xK2pL9vTa",
  partnerId: 1,
  tag: "acme-deals",
  share: "0.7",
  networkId: "awin"
}

const entry = (...args: Parameters<typeof ledgerEntry>): LedgerEntry => {
  const built = ledgerEntry(...args)
  if (typeof built === "string") throw new Error(built)
  return built
}

const statusArb = fc.constantFrom<ConversionStatus>(...STATUSES)
const timeArb = fc.option(
  fc.integer({ min: -3, max: 3 }).map((minutes) => at(minutes)),
  { nil: null }
)
const UNEARNING: ReadonlyArray<string> = ["declined", "reversed"]

describe("which report of a conversion wins", () => {
  const stored = (status: ConversionStatus, updatedAt: Date | null) => ({ status, updatedAt })

  it("an older update time loses; the same or a newer one applies", () => {
    expect(isStale(stored("approved", at(10)), { status: "approved", updatedAt: at(5) })).toBe(true)
    expect(isStale(stored("pending", at(10)), { status: "approved", updatedAt: at(10) })).toBe(false)
    expect(isStale(stored("pending", at(10)), { status: "approved", updatedAt: at(11) })).toBe(false)
  })

  it("a record without an update time moves nothing settled back to pending, but may settle it", () => {
    expect(isStale(stored("approved", at(10)), { status: "pending", updatedAt: null })).toBe(true)
    expect(isStale(stored("pending", at(10)), { status: "pending", updatedAt: null })).toBe(false)
    expect(isStale(stored("pending", at(10)), { status: "approved", updatedAt: null })).toBe(false)
    // Nothing stored says when: the record applies.
    expect(isStale(stored("approved", null), { status: "pending", updatedAt: null })).toBe(false)
  })

  it("a declined or reversed conversion moves back only with a strictly newer update time", () => {
    for (const settled of ["declined", "reversed"] as const) {
      expect(isStale(stored(settled, at(10)), { status: "approved", updatedAt: at(10) })).toBe(true)
      expect(isStale(stored(settled, at(10)), { status: "approved", updatedAt: null })).toBe(true)
      expect(isStale(stored(settled, at(10)), { status: "pending", updatedAt: at(9) })).toBe(true)
      expect(isStale(stored(settled, null), { status: "approved", updatedAt: at(99) })).toBe(true)
      expect(isStale(stored(settled, at(10)), { status: "approved", updatedAt: at(11) })).toBe(false)
    }
    // Between the two unearning statuses the ordinary rule holds.
    expect(isStale(stored("declined", at(10)), { status: "reversed", updatedAt: at(10) })).toBe(false)
  })

  it("a status never regresses without a newer time (property)", () => {
    fc.assert(
      fc.property(statusArb, timeArb, statusArb, timeArb, (storedStatus, storedAt, status, updatedAt) => {
        if (isStale(stored(storedStatus, storedAt), { status, updatedAt })) return
        // Revenue declined or reversed comes back only with a strictly newer time.
        if (UNEARNING.includes(storedStatus) && !UNEARNING.includes(status)) {
          expect(storedAt !== null && updatedAt !== null && updatedAt > storedAt).toBe(true)
        }
        // Both times known: never an older one.
        if (storedAt !== null && updatedAt !== null) expect(updatedAt >= storedAt).toBe(true)
        // A settled, time-stamped conversion goes back to pending only with a time of its own.
        if (storedAt !== null && storedStatus !== "pending" && status === "pending") expect(updatedAt).not.toBeNull()
      })
    )
  })

  it("within one batch the most recently updated record of an id wins, the later one on a tie or without times", () => {
    const batch = [
      record({ networkTxId: "a", updatedAt: at(5), status: "approved" }),
      record({ networkTxId: "a", updatedAt: at(3), status: "pending" }),
      record({ networkTxId: "b", updatedAt: at(1), status: "pending" }),
      record({ networkTxId: "b", updatedAt: at(1), status: "approved" }),
      record({ networkTxId: "c", updatedAt: at(9), status: "approved" }),
      record({ networkTxId: "c", updatedAt: null, status: "declined" })
    ]
    const kept: LatestById<ConversionRecord> = new Map()
    batch.forEach((each, index) => keepLatest(kept, each, index))
    expect([...kept].map(([id, { record, index }]) => [id, record.status, index])).toEqual([
      ["awin:a", "approved", 0],
      ["awin:b", "approved", 3],
      ["awin:c", "declined", 5]
    ])
  })

  it("a first sighting or a change of status or amounts is a move for the history; a re-sighting is not", () => {
    const seen = { status: "approved", orderAmount: "247.0000", commission: "12.3500", currency: "GBP" }
    expect(isMove(undefined, seen)).toBe(true)
    expect(isMove(seen, { ...seen })).toBe(false)
    expect(isMove(seen, { ...seen, status: "reversed" })).toBe(true)
    expect(isMove(seen, { ...seen, commission: "8.3500" })).toBe(true)
    expect(isMove(seen, { ...seen, orderAmount: "200.0000" })).toBe(true)
    expect(isMove(seen, { ...seen, currency: "EUR" })).toBe(true)
  })
})

describe("who a conversion is credited to", () => {
  const links = new Map([[link.trackingId, link]])

  it("the named link on the reporting network; otherwise why not", () => {
    expect(attribution(record(), links)).toEqual({ link, reason: null })
    expect(attribution(record({ clickRef: null }), links)).toEqual({ link: undefined, reason: "no_click_ref" })
    expect(attribution(record({ clickRef: "nope" }), links)).toEqual({ link: undefined, reason: "unknown_link" })
    expect(attribution(record({ network: "cj" }), links)).toEqual({ link: undefined, reason: "network_mismatch" })
    // A link to no affiliate programme is no network's to credit.
    expect(attribution(record(), new Map([[link.trackingId, { ...link, networkId: null }]])).reason).toBe(
      "network_mismatch"
    )
  })
})

describe("what the ledger stores for a record", () => {
  it("converts to the reporting currency and splits 70/30, half-even, the platform taking the exact remainder", () => {
    // 12.35 GBP at 1.2675 = 15.653625 -> 15.65 USD; 70% = 10.955 -> 10.96 (half-even), platform 4.69.
    expect(entry(usd, record(), link, undefined, T0)).toEqual({
      trackingId: "Qm7xK2pL9vTa",
      partnerId: 1,
      tag: "acme-deals",
      reportingCurrency: "USD",
      commissionReporting: money("15.65"),
      orderAmountReporting: money("313.07"), // 247 x 1.2675 = 313.0725
      fxRate: "1.26750000",
      revenueShare: "0.7000",
      partnerShare: money("10.96"),
      platformShare: money("4.69"),
      attributedAt: T0
    })
  })

  it("declined and reversed earn nothing; unattributed, the platform keeps the commission", () => {
    for (const status of ["declined", "reversed"] as const) {
      const settled = entry(usd, record({ status }), link, undefined, T0)
      expect([settled.partnerShare, settled.platformShare]).toEqual([0n, 0n])
    }
    const unattributed = entry(usd, record(), undefined, undefined, T0)
    expect(unattributed).toMatchObject({ trackingId: null, partnerId: null, tag: null, revenueShare: null })
    expect([unattributed.partnerShare, unattributed.platformShare, unattributed.attributedAt]).toEqual([
      0n,
      money("15.65"),
      null
    ])
  })

  it("the partner's share is locked at first attribution to that partner", () => {
    const stored = { trackingId: link.trackingId, partnerId: 1, revenueShare: "0.6000", attributedAt: at(-60) }
    expect(lockedShare(1, stored, "0.8")).toBe("0.6000")
    expect(lockedShare(2, stored, "0.8")).toBe("0.8000")
    expect(lockedShare(1, undefined, "0.8")).toBe("0.8000")
    expect(lockedShare(null, stored, "0.8")).toBeNull()
    const renegotiated = entry(usd, record(), { ...link, share: "0.8" }, stored, T0)
    expect([renegotiated.revenueShare, renegotiated.partnerShare]).toEqual(["0.6000", money("9.39")])
  })

  it("the attribution time is kept while the link stays the same", () => {
    const stored = { trackingId: link.trackingId, attributedAt: at(-60) }
    expect(attributedAtFor(link, stored, T0)).toEqual(at(-60))
    expect(attributedAtFor({ trackingId: "other" }, stored, T0)).toEqual(T0)
    expect(attributedAtFor(link, { ...stored, attributedAt: null }, T0)).toEqual(T0)
    expect(attributedAtFor(undefined, stored, T0)).toBeNull()
  })

  it("refuses a currency without a rate and an amount too large for DECIMAL(18,4) once converted", () => {
    expect(unstorable(usd, record({ currency: "CHF" }))).toBe("currency: no USD rate for CHF in the rate table")
    expect(ledgerEntry(usd, record({ currency: "CHF" }), link, undefined, T0)).toBe(
      "currency: no USD rate for CHF in the rate table"
    )
    // 999,999,999,999 USD is about 149 trillion JPY: over 10^14.
    expect(unstorable(jpy, record({ currency: "USD", orderAmount: money("999999999999") }))).toBe(
      "order_amount: too large once converted to JPY"
    )
    expect(unstorable(usd, record())).toBeUndefined()
  })

  it("reporting rates: one rounding to the reporting currency's minor unit; none without a rate for it", () => {
    expect(usd.toReporting(money("12.35"), "GBP")).toEqual({ value: money("15.65"), rateText: "1.26750000" })
    expect(usd.toReporting(money("1"), "USD")).toEqual({ value: money("1"), rateText: "1.00000000" })
    // EUR -> JPY through the base as one fraction: 1.0842 / 0.0067 = 161.82089552..., whole yen.
    expect(jpy.toReporting(money("10"), "EUR")).toEqual({ value: money("1618"), rateText: "161.82089552" })
    expect(rateText({ numerator: 1n, denominator: 3n })).toBe("0.33333333")
    expect(reportingRatesFrom(table, "CHF")).toBeUndefined()
  })

  it("partner + platform = the reporting commission exactly, for any amount, currency, share and status (property)", () => {
    const shareArb = fc
      .integer({ min: 0, max: 10_000 })
      .map((basisPoints) => `${Math.floor(basisPoints / 10_000)}.${String(basisPoints % 10_000).padStart(4, "0")}`)
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        fc.constantFrom("USD", "GBP", "EUR", "JPY", "KWD"),
        fc.constantFrom(usd, jpy),
        shareArb,
        statusArb,
        (commission, currency, rates, share, status) => {
          const built = entry(rates, record({ commission, currency, status }), { ...link, share }, undefined, T0)
          if (UNEARNING.includes(status)) {
            expect([built.partnerShare, built.platformShare]).toEqual([0n, 0n])
          } else {
            expect(built.partnerShare + built.platformShare).toBe(built.commissionReporting)
          }
          // Every amount in the reporting currency is in whole minor units (cents; whole yen).
          const step = 10n ** BigInt(4 - rates.minorUnits)
          for (const value of [built.commissionReporting, built.partnerShare, built.platformShare])
            expect(value % step).toBe(0n)
        }
      )
    )
  })
})

describe("corrections", () => {
  const sale = record({ network: "cj", networkTxId: "sale-1", commission: money("10"), orderAmount: money("100") })
  const correction = (id: string, commission: string, order = "0", currency = "GBP"): Correction => ({
    id: `cj:${id}`,
    conversionId: "cj:sale-1",
    currency,
    orderAmount: money(order),
    commission: money(commission)
  })

  it("move the amounts by their sum; a conversion left with nothing to earn is reversed", () => {
    expect(corrected(sale, [correction("c1", "-4", "-40")])).toMatchObject({
      commission: money("6"),
      orderAmount: money("60"),
      status: "approved"
    })
    expect(corrected(sale, [correction("c1", "-4"), correction("c2", "-6")])).toMatchObject({
      commission: 0n,
      status: "reversed"
    })
    // Declined stays declined: only earning statuses become reversed.
    expect(corrected({ ...sale, status: "declined" }, [correction("c1", "-10")])?.status).toBe("declined")
    expect(moveBy({ ...sale, status: "pending" }, { order: 0n, commission: money("-11") }).status).toBe("reversed")
  })

  it("apply only to their conversion in its currency; none applying leaves the record to the caller", () => {
    expect(corrected(sale, [correction("c1", "-4", "0", "USD")])).toBeUndefined()
    expect(corrected(sale, [{ ...correction("c1", "-4"), conversionId: "cj:sale-2" }])).toBeUndefined()
    expect(corrected(sale, [])).toBeUndefined()
    expect(correctionTotal("cj:sale-1", "GBP", [correction("c1", "-4", "0", "USD"), correction("c2", "-1")])).toEqual({
      order: 0n,
      commission: money("-1")
    })
  })

  it("count each correction once: applied twice, in any order, the same as once (property)", () => {
    const correctionsArb = fc.array(
      fc.record({
        id: fc.constantFrom("c1", "c2", "c3", "c4"),
        commission: fc.bigInt({ min: -200_000n, max: 50_000n }),
        order: fc.bigInt({ min: -2_000_000n, max: 500_000n }),
        currency: fc.constantFrom("GBP", "USD")
      }),
      { maxLength: 6 }
    )
    fc.assert(
      fc.property(correctionsArb, statusArb, fc.bigInt({ min: 0n, max: 200_000n }), (drawn, status, commission) => {
        const corrections: Array<Correction> = drawn.map((c) => ({
          id: `cj:${c.id}`,
          conversionId: "cj:sale-1",
          currency: c.currency,
          orderAmount: c.order,
          commission: c.commission
        }))
        // The store keys corrections by id and keeps the first report of each.
        const recorded = [...new Map([...corrections].reverse().map((c) => [c.id, c])).values()]
        const original = { ...sale, status, commission }
        const once = corrected(original, corrections)
        expect(corrected(original, [...corrections, ...corrections])).toEqual(once)
        expect(corrected(original, recorded)).toEqual(once)
        expect(corrected(original, [...recorded].reverse())).toEqual(once)
        // The original reported again is corrected by the same set to the same conversion.
        expect(corrected({ ...original }, corrections)).toEqual(once)
        const applying = recorded.filter((c) => c.currency === "GBP")
        if (applying.length === 0) expect(once).toBeUndefined()
        else {
          const total = applying.reduce((sum, c) => sum + c.commission, 0n)
          expect(once!.commission).toBe(commission + total)
          if (status === "approved" || status === "pending")
            expect(once!.status).toBe(commission + total <= 0n ? "reversed" : status)
          else expect(once!.status).toBe(status)
        }
      })
    )
  })

  it("read by conversion, correct each conversion as the whole list does (property)", () => {
    // A batch's conversions read only their own corrections: the same amounts
    // as over every correction of the batch, duplicates and all (a correction
    // id reported twice naming two conversions counts for the first it named).
    const drawnArb = fc.array(
      fc.record({
        id: fc.constantFrom("c1", "c2", "c3", "c4", "c5"),
        sale: fc.constantFrom("sale-1", "sale-2", "sale-3"),
        commission: fc.bigInt({ min: -20_000n, max: 5_000n }),
        currency: fc.constantFrom("GBP", "USD")
      }),
      { maxLength: 10 }
    )
    fc.assert(
      fc.property(drawnArb, (drawn) => {
        const corrections: Array<Correction> = drawn.map((c) => ({
          id: `cj:${c.id}`,
          conversionId: `cj:${c.sale}`,
          currency: c.currency,
          orderAmount: 0n,
          commission: c.commission
        }))
        const byConversion = correctionsByConversion(corrections)
        for (const networkTxId of ["sale-1", "sale-2", "sale-3", "sale-4"]) {
          const original = { ...sale, networkTxId }
          expect(corrected(original, byConversion.get(`cj:${networkTxId}`) ?? [])).toEqual(
            corrected(original, corrections)
          )
        }
      })
    )
  })
})
