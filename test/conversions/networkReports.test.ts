import { describe, expect, it } from "vitest"
import { formatDecimal } from "../../domain/money/Decimal.ts"
import { parseReport, ReportError } from "../../conversions/reports/index.ts"

// The parsers of the four networks added after CJ, Awin and Impact, on the
// edge cases their documentation leaves to the account: Rakuten's date and
// amount formats, EPN's CSV export and missing currency, Skimlinks' payment
// status, Partnerize's click-level pubref. The feeds themselves are tested
// through the pipeline in moreNetworkFeeds.test.ts.

const summary = (report: ReturnType<typeof parseReport>) =>
  report.records.map(({ line, record }) => ({
    line,
    id: record.networkTxId,
    ref: record.clickRef,
    order: formatDecimal(record.orderAmount),
    commission: formatDecimal(record.commission),
    status: record.status,
    at: record.eventAt.toISOString(),
    ...(record.correctionOf === undefined ? {} : { of: record.correctionOf })
  }))
const rejections = (report: ReturnType<typeof parseReport>) => report.rejected.map(({ line, reason }) => [line, reason])

describe("Rakuten Signature Orders Report", () => {
  const header =
    "Member ID (U1),MID,Advertiser Name,Order ID,Transaction Date,Transaction Time,SKU,Sales,# of Items,Total Commission,Process Date,Process Time\n"

  it("reads m/d/yy dates and thousands separators; sums an order's SKUs; a negative row corrects the order", () => {
    const csv =
      header +
      'u-1,38605,"Example, Inc.",O-1,11/2/26,19:14:05,A,"1,024.50",1,51.22,11/3/26,02:10:44\n' +
      "u-1,38605,Example,O-1,11/2/26,19:14:05,B,10.00,1,0.50,11/3/26,02:10:44\n" +
      "u-1,38605,Example,O-1,11/2/26,19:14:05,B,-10.00,-1,-0.50,12/2/2026,04:31:09\n"
    const report = parseReport("rakuten", csv, { network: "rakuten", currency: "USD" })
    expect(summary(report)).toEqual([
      {
        line: 2,
        id: "O-1",
        ref: "u-1",
        order: "1034.5000",
        commission: "51.7200",
        status: "pending",
        at: "2026-11-02T19:14:05.000Z"
      },
      {
        line: 4,
        id: "O-1~2026-12-02T04:31:09.000Z~B",
        ref: "u-1",
        order: "-10.0000",
        commission: "-0.5000",
        status: "pending",
        at: "2026-11-02T19:14:05.000Z",
        of: "O-1"
      }
    ])
  })

  it("names what is wrong: no currency for the feed, a row with mixed signs, a missing column", () => {
    const row = "u-1,1,E,O-2,2026-11-02,10:00:00,A,-5.00,1,0.25,2026-11-03,10:00:00\n"
    expect(rejections(parseReport("rakuten", header + row, { network: "rakuten" }))).toEqual([
      [2, "currency: the report has none; set the feed's currency (RAKUTEN_CURRENCY)"]
    ])
    expect(rejections(parseReport("rakuten", header + row, { network: "rakuten", currency: "USD" }))).toEqual([
      [2, "Sales: a return has no positive amount"]
    ])
    expect(() => parseReport("rakuten", "Order ID,Sales\nO-1,5\n", { network: "rakuten", currency: "USD" })).toThrow(
      new ReportError("rakuten report: missing column Total Commission")
    )
  })
})

describe("eBay Partner Network transaction detail", () => {
  it("reads the CSV export with the JSON's column names, in the feed's currency", () => {
    const csv =
      "EpnTransactionId,CustomId,Status,Sales,Earnings,EventDate,UpdateDate\n" +
      "533800001,Kc4t,Approved,80.00,3.20,2026-11-07T11:20:05-07:00,2026-12-01T02:00:00-07:00\n" +
      "533800002,,Paid,10.00,0.40,2026-11-07T11:20:05-07:00,\n"
    const report = parseReport("ebay", csv, { network: "ebay-partner-network", currency: "EUR" })
    expect(summary(report)).toEqual([
      {
        line: 2,
        id: "533800001",
        ref: "Kc4t",
        order: "80.0000",
        commission: "3.2000",
        status: "approved",
        at: "2026-11-07T18:20:05.000Z"
      }
    ])
    expect(report.records[0].record.currency).toBe("EUR")
    expect(rejections(report)).toEqual([[3, "Status: expected one of pending, approved, reversed"]])
    const withoutCurrency = parseReport("ebay", csv, { network: "ebay-partner-network" })
    expect(rejections(withoutCurrency)[0][1]).toMatch(
      /^Currency: the report has none; set the feed's currency \(EPN_CURRENCY\)/
    )
  })
})

describe("Skimlinks commission report", () => {
  const commission = (details: Record<string, unknown>) => ({
    commission_id: 1,
    click_details: { custom_id: "Kc4t" },
    transaction_details: {
      basket: { publisher_amount: 1.5, order_amount: 30, currency: "gbp" },
      transaction_date: "2026-11-06 12:30:00",
      ...details
    }
  })

  it("active is pending until paid, cancelled is reversed, anything else is named", () => {
    const report = parseReport(
      "skimlinks",
      JSON.stringify({
        commissions: [
          commission({ status: "active", payment_status: "unpaid" }),
          commission({ status: "active", payment_status: "paid" }),
          commission({ status: "cancelled", payment_status: "unpaid" }),
          commission({ status: "declined" })
        ]
      }),
      { network: "skimlinks" }
    )
    expect(
      report.records.map(({ record }) => [record.status, record.currency, formatDecimal(record.commission)])
    ).toEqual([
      ["pending", "GBP", "1.5000"],
      ["approved", "GBP", "1.5000"],
      ["reversed", "GBP", "1.5000"]
    ])
    expect(rejections(report)).toEqual([[4, "transaction_details.status: expected one of active, cancelled"]])
  })
})

describe("Partnerize conversions report", () => {
  it("takes the click's publisher_reference when the conversion's is empty, and names a missing conversion_value", () => {
    const data = {
      conversion_id: "1101l1",
      currency: "EUR",
      publisher_reference: "",
      click: { publisher_reference: "Kc4t" },
      conversion_time: "2026-11-04 10:22:31",
      conversion_value: { conversion_status: "approved", value: 200, publisher_commission: 16 }
    }
    const report = parseReport(
      "partnerize",
      JSON.stringify({
        conversions: [{ conversion_data: data }, { conversion_data: { ...data, conversion_value: null } }]
      }),
      { network: "partnerize" }
    )
    expect(summary(report)).toEqual([
      {
        line: 1,
        id: "1101l1",
        ref: "Kc4t",
        order: "200.0000",
        commission: "16.0000",
        status: "approved",
        at: "2026-11-04T10:22:31.000Z"
      }
    ])
    expect(rejections(report)).toEqual([[2, "conversion_data.conversion_value: expected an object"]])
  })
})
