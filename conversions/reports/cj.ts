import type { ConversionRecord, ConversionStatus } from "../ConversionRecord.ts"
import { amount, currency, optionalText, optionalTime, RowError, status, text, time } from "./fields.ts"
import { nonNegative, type ParsedReport, parseJsonOrCsv, type ReportOptions } from "./Report.ts"

// CJ commission detail: the Commission Detail API's GraphQL response
// ({ data: { publisherCommissions: { records: [...] } } }, or the bare records
// array) or its CSV export with the same column names.
// Fields read: commissionId, shopperId (our sid), saleAmountPubCurrency,
// pubCommissionAmountPubCurrency, pubCurrency (if present, else the feed's
// configured `currency`), actionStatus, eventDate, postingDate.
// Status: new and extended (locking date pushed back) are pending; locked and
// closed are approved. A `corrected` record is CJ's adjustment: its amounts are
// authoritative and may be negative (a partial refund); kept as approved so it
// nets against the original, or reversed when it corrects the commission to 0.
const STATUS = {
  new: "pending",
  extended: "pending",
  locked: "approved",
  closed: "approved",
  corrected: "corrected"
} as const

const toRecord =
  (options: ReportOptions) =>
  (item: Record<string, unknown>): ConversionRecord => {
    const reported = status(item.actionStatus, "actionStatus", STATUS)
    const corrected = reported === "corrected"
    const order = amount(item.saleAmountPubCurrency, "saleAmountPubCurrency")
    const commission = amount(item.pubCommissionAmountPubCurrency, "pubCommissionAmountPubCurrency")
    if (!corrected) {
      nonNegative(order, "saleAmountPubCurrency")
      nonNegative(commission, "pubCommissionAmountPubCurrency")
    }
    const code = item.pubCurrency ?? options.currency
    if (code === undefined || code === "") throw new RowError("pubCurrency: required (or set `currency` on the feed)")
    const normalised: ConversionStatus = corrected
      ? commission === 0n
        ? "reversed"
        : "approved"
      : (reported as ConversionStatus)
    return {
      network: options.network,
      networkTxId: text(item.commissionId, "commissionId"),
      clickRef: optionalText(item.shopperId, "shopperId"),
      orderAmount: order,
      commission,
      currency: currency(code, "pubCurrency"),
      status: normalised,
      eventAt: time(item.eventDate, "eventDate"),
      updatedAt: optionalTime(item.postingDate, "postingDate")
    }
  }

export const parseCj = (content: string, options: ReportOptions): ParsedReport =>
  parseJsonOrCsv(content, {
    name: "cj report",
    listOf: (json) =>
      Array.isArray(json)
        ? json
        : (json as { data?: { publisherCommissions?: { records?: unknown } } })?.data?.publisherCommissions?.records,
    listPath: "data.publisherCommissions.records",
    requiredColumns: ["commissionId", "actionStatus", "eventDate"],
    toRecord: toRecord(options)
  })
