import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { formatDecimal } from "../../domain/money/Decimal.ts"
import { parseCsv } from "../../conversions/reports/csv.ts"
import { parseReport, ReportError } from "../../conversions/reports/index.ts"

const sample = (name: string) => readFileSync(new URL(`../../data/samples/reports/${name}`, import.meta.url), "utf8")
const summary = (records: ReadonlyArray<{ line: number; record: any }>) =>
  records.map(({ line, record }) => ({
    line,
    id: record.networkTxId,
    ref: record.clickRef,
    order: formatDecimal(record.orderAmount),
    commission: formatDecimal(record.commission),
    currency: record.currency,
    status: record.status
  }))

describe("Awin transactions", () => {
  it("reads every status and currency, and rejects bad rows with their item number", () => {
    const report = parseReport("awin", sample("awin-transactions.json"), { network: "awin" })
    expect(report.rowsRead).toBe(8)
    expect(summary(report.records)).toEqual([
      {
        line: 1,
        id: "412770001",
        ref: "Qm7xK2pL9vTa",
        order: "90.0000",
        commission: "4.5000",
        currency: "GBP",
        status: "pending"
      },
      {
        line: 2,
        id: "412770002",
        ref: "Qm7xK2pL9vTa",
        order: "247.0000",
        commission: "12.3500",
        currency: "GBP",
        status: "approved"
      },
      {
        line: 3,
        id: "412770003",
        ref: "Hn4cW8rZ1sYb",
        order: "120.0000",
        commission: "6.0000",
        currency: "EUR",
        status: "declined"
      },
      {
        line: 4,
        id: "412770004",
        ref: "Bd6fJ3tN5gUe",
        order: "66.6000",
        commission: "3.3300",
        currency: "EUR",
        status: "reversed"
      },
      {
        line: 5,
        id: "412770005",
        ref: "Zz9NotOurs00",
        order: "21.0000",
        commission: "1.0500",
        currency: "GBP",
        status: "approved"
      },
      {
        line: 6,
        id: "412770006",
        ref: null,
        order: "44.0000",
        commission: "2.2000",
        currency: "GBP",
        status: "pending"
      }
    ])
    const first = report.records[0].record
    expect(first.network).toBe("awin")
    expect(first.eventAt.toISOString()).toBe("2026-11-02T10:14:03.000Z") // no offset: read as UTC
    expect(first.updatedAt).toBeNull()
    expect(report.records[1].record.updatedAt?.toISOString()).toBe("2026-11-12T08:00:00.000Z")
    expect(report.rejected.map(({ line, reason }) => ({ line, reason }))).toEqual([
      { line: 7, reason: "commissionAmount: expected { amount, currency }" },
      { line: 8, reason: "commissionStatus: expected one of pending, approved, declined, deleted" }
    ])
  })

  it("keeps JSON numbers exact (no float round trip)", () => {
    const report = parseReport(
      "awin",
      JSON.stringify([
        {
          id: 1,
          commissionStatus: "approved",
          transactionDate: "2026-01-01T00:00:00Z",
          saleAmount: { amount: "0", currency: "USD" },
          commissionAmount: { amount: "0", currency: "USD" }
        }
      ]).replace(/"amount":"0"/g, '"amount":9007199254740.9931'),
      { network: "awin" }
    )
    expect(formatDecimal(report.records[0].record.commission)).toBe("9007199254740.9931")
  })

  it("fails the whole report when it is not JSON or not an array", () => {
    expect(() => parseReport("awin", "<html>", { network: "awin" })).toThrow(ReportError)
    expect(() => parseReport("awin", '{"error":"unauthorised"}', { network: "awin" })).toThrow(/expected an array/)
  })
})

describe("CJ commission detail", () => {
  it("reads the GraphQL JSON: every actionStatus, corrections as records of their own, the account's currency", () => {
    const report = parseReport("cj", sample("cj-commissions.json"), { network: "cj", currency: "USD" })
    expect(summary(report.records)).toEqual([
      {
        line: 1,
        id: "3081120001",
        ref: "Hn4cW8rZ1sYb",
        order: "199.9900",
        commission: "16.0000",
        currency: "USD",
        status: "pending"
      },
      {
        line: 2,
        id: "3081120002",
        ref: "Hn4cW8rZ1sYb",
        order: "75.0000",
        commission: "6.0000",
        currency: "USD",
        status: "pending"
      },
      {
        line: 3,
        id: "3081120003",
        ref: "Bd6fJ3tN5gUe",
        order: "310.4000",
        commission: "24.8300",
        currency: "USD",
        status: "approved"
      },
      {
        line: 4,
        id: "3081120004",
        ref: "Ar9kP1mX7wQz",
        order: "89.9500",
        commission: "7.2000",
        currency: "USD",
        status: "approved"
      },
      {
        line: 5,
        id: "3081120005",
        ref: "Bd6fJ3tN5gUe",
        order: "-100.0000",
        commission: "-8.0000",
        currency: "USD",
        status: "pending"
      },
      {
        line: 6,
        id: "3081120006",
        ref: null,
        order: "-40.0000",
        commission: "-3.2000",
        currency: "USD",
        status: "pending"
      },
      {
        line: 7,
        id: "3081120007",
        ref: "Hn4cW8rZ1sYb",
        order: "12.3450",
        commission: "1.0000",
        currency: "USD",
        status: "pending"
      }
    ])
    // original: false -> a correction of the transaction named by originalActionId, with CJ's reason
    expect(report.records.map(({ record }) => [record.correctionOf, record.correctionReason])).toEqual([
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
      ["3081120003", "RETURNED_MERCHANDISE"],
      ["3081110999", "CANT_SHIP_OR_SOLD_OUT"],
      [undefined, undefined]
    ])
    expect(report.rejected).toHaveLength(1)
    expect(report.rejected[0]).toMatchObject({
      line: 8,
      reason: expect.stringMatching(/^pubCommissionAmountPubCurrency: not a decimal/)
    })
  })

  it("without the account's currency reads CJ's USD amounts as USD, never the account's amounts", () => {
    const report = parseReport("cj", sample("cj-commissions.json"), { network: "cj" })
    expect(report.records.every(({ record }) => record.currency === "USD")).toBe(true)
    expect(report.rejected[0].reason).toMatch(/^pubCommissionAmountUsd: not a decimal/)
    const eur = parseReport("cj", sample("cj-commissions.json"), { network: "cj", currency: "EUR" })
    expect(eur.records.every(({ record }) => record.currency === "EUR")).toBe(true)
  })

  it("reads the CSV export with the feed's currency and names lines (header = line 1)", () => {
    const report = parseReport("cj", sample("cj-commissions.csv"), { network: "cj", currency: "USD" })
    expect(
      report.records.map(({ line, record }) => [line, record.networkTxId, record.status, record.currency])
    ).toEqual([
      [2, "3081130001", "pending", "USD"],
      [4, "3081130003", "approved", "USD"],
      [5, "3081130004", "pending", "USD"]
    ])
    expect(report.rejected.map(({ line, reason }) => [line, reason.split(":")[0]])).toEqual([
      [3, "saleAmountPubCurrency"],
      [6, "actionStatus"]
    ])
    const noCurrency = parseReport("cj", sample("cj-commissions.csv"), { network: "cj" })
    expect(noCurrency.records).toHaveLength(0)
    expect(noCurrency.rejected[0].reason).toMatch(/set the feed's currency \(CJ_CURRENCY\)/)
  })

  it("a CSV without the required columns fails the whole report", () => {
    expect(() => parseReport("cj", "a,b\n1,2\n", { network: "cj" })).toThrow(/missing column commissionId/)
  })
})

describe("Impact actions", () => {
  it("reads the Actions JSON with offsets", () => {
    const report = parseReport("impact", sample("impact-actions.json"), { network: "impact" })
    expect(summary(report.records).map(({ id, status, currency, ref }) => [id, status, currency, ref])).toEqual([
      ["59942.4410.552001", "pending", "USD", "Qm7xK2pL9vTa"],
      ["59942.4410.552002", "approved", "USD", "Bd6fJ3tN5gUe"],
      ["59942.4410.552003", "reversed", "USD", "Bd6fJ3tN5gUe"],
      ["95888.5120.100041", "approved", "AUD", "Ar9kP1mX7wQz"],
      ["85173.5120.100042", "pending", "EUR", null]
    ])
    expect(report.records[0].record.eventAt.toISOString()).toBe("2026-11-08T21:45:10.000Z")
    expect(report.records[1].record.updatedAt?.toISOString()).toBe("2026-11-03T10:00:00.000Z") // ClearedDate
    expect(report.rejected).toEqual([
      expect.objectContaining({ line: 6, reason: "Currency: not an ISO 4217 currency code" })
    ])
  })

  it("reads the CSV export", () => {
    const report = parseReport("impact", sample("impact-actions.csv"), { network: "impact" })
    expect(report.records.map(({ line, record }) => [line, record.status, record.currency])).toEqual([
      [2, "approved", "USD"],
      [3, "reversed", "USD"],
      [4, "pending", "GBP"]
    ])
    expect(report.rejected.map(({ line, reason }) => [line, reason.split(":")[0]])).toEqual([[5, "Amount"]])
  })
})

describe("generic format", () => {
  it("reads every status, per-row networks and zero-decimal currencies", () => {
    const report = parseReport("generic", sample("generic-conversions.csv"), { network: "other" })
    expect(
      report.records.map(({ record }) => [record.network, record.networkTxId, record.status, record.currency])
    ).toEqual([
      ["rakuten", "RK-90001", "approved", "JPY"],
      ["rakuten", "RK-90002", "pending", "JPY"],
      ["tradedoubler", "TD-5501", "approved", "SEK"],
      ["tradedoubler", "TD-5502", "declined", "SEK"],
      ["tradedoubler", "TD-5503", "reversed", "DKK"],
      ["webgains", "WG-1", "pending", "PLN"],
      ["webgains", "WG-2", "pending", "XAU"] // valid code; the ledger rejects it for want of a rate
    ])
    expect(report.rejected.map(({ line, reason }) => [line, reason.split(":")[0]])).toEqual([
      [9, "status"],
      [10, "transaction_id"]
    ])
  })

  it("reads JSON too, with the feed's network as the default", () => {
    const report = parseReport(
      "generic",
      JSON.stringify({
        conversions: [
          {
            transaction_id: "x1",
            order_amount: "10",
            commission: "1.5",
            currency: "eur",
            status: "approved",
            event_time: "2026-11-01"
          }
        ]
      }),
      { network: "dev" }
    )
    expect(report.records[0].record).toMatchObject({
      network: "dev",
      networkTxId: "x1",
      currency: "EUR",
      clickRef: null
    })
    expect(report.records[0].record.eventAt.toISOString()).toBe("2026-11-01T00:00:00.000Z")
  })
})

describe("CSV reader", () => {
  it("handles quotes, embedded newlines, CRLF and a BOM, and reports start lines", () => {
    const { header, records } = parseCsv('\uFEFFa,b\r\n"x,1","multi\nline"\r\n\r\n"q""q",2\r\n')
    expect(header).toEqual(["a", "b"])
    expect(records).toEqual([
      { line: 2, values: { a: "x,1", b: "multi\nline" } },
      { line: 5, values: { a: 'q"q', b: "2" } }
    ])
    expect(() => parseCsv('a\n"open')).toThrow(/unterminated/)
  })
})

describe("impossible dates", () => {
  // JavaScript's Date turns 30 February into 2 March: a report row must be rejected instead, with its line and reason.
  it("rejects 30 February, 31 April, month 13 and 24:30 with the line and field, in every format", () => {
    const rows = [
      ["T1", "2026-02-30T10:00:00Z"],
      ["T2", "2026-04-31"],
      ["T3", "2026-13-01T00:00:00Z"],
      ["T4", "2026-11-01T24:30:00Z"],
      ["T5", "2028-02-29T10:00:00+01:00"] // a leap day is real
    ]
    const csv = [
      "transaction_id,click_ref,order_amount,commission,currency,status,event_time",
      ...rows.map(([id, at]) => `${id},,10.00,1.00,EUR,pending,${at}`)
    ].join("\n")
    const generic = parseReport("generic", csv, { network: "dev" })
    expect(generic.records.map(({ line, record }) => [line, record.eventAt.toISOString()])).toEqual([
      [6, "2028-02-29T09:00:00.000Z"]
    ])
    expect(generic.rejected.map(({ line, reason }) => [line, reason])).toEqual([
      [2, "event_time: not a valid date-time: day 30 does not exist in 2026-02 (28 days)"],
      [3, "event_time: not a valid date-time: day 31 does not exist in 2026-04 (30 days)"],
      [4, "event_time: not a valid date-time: month 13 does not exist"],
      [5, "event_time: not a valid date-time: time 24:30:00 does not exist"]
    ])

    const awin = parseReport(
      "awin",
      JSON.stringify([
        {
          id: "1",
          commissionStatus: "approved",
          saleAmount: { amount: "10", currency: "GBP" },
          commissionAmount: { amount: "1", currency: "GBP" },
          transactionDate: "2026-11-01T10:00:00",
          validationDate: "2026-02-29T10:00:00"
        }
      ]),
      { network: "awin" }
    )
    expect(awin.rejected.map(({ line, reason }) => [line, reason])).toEqual([
      [1, "validationDate: not a valid date-time: day 29 does not exist in 2026-02 (28 days)"]
    ])

    const cj = parseReport(
      "cj",
      "commissionId,shopperId,actionStatus,saleAmountPubCurrency,pubCommissionAmountPubCurrency,eventDate\n" +
        "9,,new,10.00,1.00,2026-06-31T00:00:00Z\n",
      { network: "cj", currency: "USD" }
    )
    expect(cj.rejected.map(({ line, reason }) => [line, reason])).toEqual([
      [2, "eventDate: not a valid date-time: day 31 does not exist in 2026-06 (30 days)"]
    ])

    const impact = parseReport(
      "impact",
      JSON.stringify({
        Actions: [
          {
            Id: "1",
            SubId1: "",
            Amount: "10",
            Payout: "1",
            Currency: "USD",
            State: "PENDING",
            EventDate: "2026-11-31T00:00:00-05:00"
          }
        ]
      }),
      { network: "impact" }
    )
    expect(impact.rejected.map(({ line, reason }) => [line, reason])).toEqual([
      [1, "EventDate: not a valid date-time: day 31 does not exist in 2026-11 (30 days)"]
    ])
  })
})
