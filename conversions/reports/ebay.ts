import type { ConversionRecord } from "../ConversionRecord.ts"
import { amount, currency, optionalText, optionalTime, RowError, status, text, time } from "./fields.ts"
import { nonNegative, type ParsedReport, parseJsonOrCsv, type ReportOptions } from "./Report.ts"

// eBay Partner Network Transaction Detail Report
// (GET /Mediapartners/{AccountSID}/Reports/ebay_partner_transaction_detail.json,
// partnerhelp.ebay.com "Transaction Detail Report Changes and Reporting API
// Migration Guidelines" and "Getting started: Partner Reporting via the New API
// Endpoints"): { "@nextpageuri", "Records": [...] } (the impact.com report
// envelope), or the .csv export with the same column names. Fields read:
// EpnTransactionId, CustomId (our tracking id, sent as customid on the link),
// Status (Pending | Approved | Reversed), Sales and Earnings (the transaction's
// current amounts; DeltaSales/DeltaEarnings are the change since it was last
// reported), EventDate and UpdateDate (ISO 8601 with an offset). The report
// carries no currency column: amounts are in the account's payout currency,
// which the feed names (options.currency, EPN_CURRENCY in the ready-made feed).
// A return or a partial refund is the transaction itself changing: read by
// date_type=update_date, it arrives with its new Earnings (or Status
// Reversed) and the ledger keeps the history in conversion_events.
const STATUS = { pending: "pending", approved: "approved", reversed: "reversed" } as const

const toRecord =
  (options: ReportOptions) =>
  (item: Record<string, unknown>): ConversionRecord => {
    const code = optionalText(item.Currency, "Currency") ?? options.currency
    if (code === undefined || code === "")
      throw new RowError(
        "Currency: the report has none; set the feed's currency (EPN_CURRENCY): the account's payout currency"
      )
    return {
      network: options.network,
      networkTxId: text(item.EpnTransactionId, "EpnTransactionId"),
      clickRef: optionalText(item.CustomId, "CustomId"),
      orderAmount: nonNegative(amount(item.Sales, "Sales"), "Sales"),
      commission: nonNegative(amount(item.Earnings, "Earnings"), "Earnings"),
      currency: currency(code, "Currency"),
      status: status(item.Status, "Status", STATUS),
      eventAt: time(item.EventDate, "EventDate"),
      updatedAt: optionalTime(item.UpdateDate, "UpdateDate")
    }
  }

export const parseEbay = (content: string, options: ReportOptions): ParsedReport =>
  parseJsonOrCsv(content, {
    name: "ebay partner network report",
    listOf: (json) => (Array.isArray(json) ? json : (json as { Records?: unknown })?.Records),
    listPath: "Records",
    requiredColumns: ["EpnTransactionId", "Earnings", "Status"],
    toRecord: toRecord(options)
  })
