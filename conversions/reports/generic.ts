import { formatDecimal } from "../../domain/money/Decimal.ts"
import type { ConversionRecord } from "../ConversionRecord.ts"
import { amount, currency, optionalText, optionalTime, RowError, status, text, time } from "./fields.ts"
import { nonNegative, type ParsedReport, parseJsonOrCsv, type ReportOptions } from "./Report.ts"

// Our own format for any other network (and the postback body): CSV with a
// header row, or JSON (an array, or { "conversions": [...] }), columns:
//   network         optional; defaults to the feed's network
//   transaction_id  required, the network's transaction id
//   click_ref       our tracking id as the network's sub-id returned it (empty: unattributed)
//   order_amount    required, decimal
//   commission      required, decimal
// A row with a negative amount (a refund or a partial return) is not a
// conversion but a correction of the conversion with the same transaction_id:
// its amounts are the change (both <= 0), it is kept once in
// conversion_corrections and moves that conversion's amounts, with the change
// in conversion_events (conversions/ConversionCorrections.ts). Its own id is
// the transaction_id with its time and amounts, so the same row read again is
// the same correction, never a second refund. A postback may not send one
// (genericRecord without corrections).
//   currency        required, ISO 4217
//   status          pending | approved | declined | reversed
//   event_time      required, ISO 8601 (no offset = UTC)
//   updated_time    optional, ISO 8601
export const GENERIC_COLUMNS = [
  "network",
  "transaction_id",
  "click_ref",
  "order_amount",
  "commission",
  "currency",
  "status",
  "event_time",
  "updated_time"
] as const

const STATUS = { pending: "pending", approved: "approved", declined: "declined", reversed: "reversed" } as const
const NETWORK_SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/

/** The correction's own id: the row's transaction, time and amounts (stable across re-reads of the same report). */
const correctionId = (transactionId: string, at: Date, order: bigint, commission: bigint) =>
  `${transactionId}~${at.toISOString()}~${formatDecimal(order)}~${formatDecimal(commission)}`

export const genericRecord =
  (options: ReportOptions, { corrections = true }: { readonly corrections?: boolean } = {}) =>
  (item: Record<string, unknown>): ConversionRecord => {
    const network = optionalText(item.network, "network") ?? options.network
    if (!NETWORK_SLUG.test(network)) throw new RowError("network: expected a network slug (a-z, 0-9, _ and -)")
    const transactionId = text(item.transaction_id, "transaction_id")
    const orderAmount = amount(item.order_amount, "order_amount")
    const commission = amount(item.commission, "commission")
    const record = {
      network,
      networkTxId: transactionId,
      clickRef: optionalText(item.click_ref, "click_ref"),
      orderAmount,
      commission,
      currency: currency(item.currency, "currency"),
      status: status(item.status, "status", STATUS),
      eventAt: time(item.event_time, "event_time"),
      updatedAt: optionalTime(item.updated_time, "updated_time")
    }
    if (orderAmount >= 0n && commission >= 0n) return record
    if (!corrections) {
      nonNegative(orderAmount, "order_amount")
      nonNegative(commission, "commission")
    }
    // A refund takes money back: a positive amount next to a negative one is no refund we can file.
    nonPositive(orderAmount, "order_amount")
    nonPositive(commission, "commission")
    return {
      ...record,
      networkTxId: correctionId(transactionId, record.updatedAt ?? record.eventAt, orderAmount, commission),
      correctionOf: transactionId
    }
  }

const nonPositive = (value: bigint, field: string) => {
  if (value > 0n)
    throw new RowError(`${field}: must not be positive on a correction (a row with a negative amount is a refund)`)
}

export const parseGeneric = (content: string, options: ReportOptions): ParsedReport =>
  parseJsonOrCsv(content, {
    name: "generic report",
    listOf: (json) => (Array.isArray(json) ? json : (json as { conversions?: unknown })?.conversions),
    listPath: "conversions",
    requiredColumns: ["transaction_id", "commission", "status"],
    toRecord: genericRecord(options)
  })
