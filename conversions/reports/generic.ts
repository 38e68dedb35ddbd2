import type { ConversionRecord } from "../ConversionRecord.ts"
import { amount, currency, optionalText, optionalTime, RowError, status, text, time } from "./fields.ts"
import { nonNegative, type ParsedReport, parseJsonOrCsv, type ReportOptions } from "./Report.ts"

// Our own format for any other network (and the postback body): CSV with a
// header row, or JSON (an array, or { "conversions": [...] }), columns:
//   network         optional; defaults to the feed's network
//   transaction_id  required, the network's transaction id
//   click_ref       our tracking id as the network's sub-id returned it (empty: unattributed)
//   order_amount    required, decimal, >= 0
//   commission      required, decimal, >= 0
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

export const genericRecord =
  (options: ReportOptions) =>
  (item: Record<string, unknown>): ConversionRecord => {
    const network = optionalText(item.network, "network") ?? options.network
    if (!NETWORK_SLUG.test(network)) throw new RowError("network: expected a network slug (a-z, 0-9, _ and -)")
    return {
      network,
      networkTxId: text(item.transaction_id, "transaction_id"),
      clickRef: optionalText(item.click_ref, "click_ref"),
      orderAmount: nonNegative(amount(item.order_amount, "order_amount"), "order_amount"),
      commission: nonNegative(amount(item.commission, "commission"), "commission"),
      currency: currency(item.currency, "currency"),
      status: status(item.status, "status", STATUS),
      eventAt: time(item.event_time, "event_time"),
      updatedAt: optionalTime(item.updated_time, "updated_time")
    }
  }

export const parseGeneric = (content: string, options: ReportOptions): ParsedReport =>
  parseJsonOrCsv(content, {
    name: "generic report",
    listOf: (json) => (Array.isArray(json) ? json : (json as { conversions?: unknown })?.conversions),
    listPath: "conversions",
    requiredColumns: ["transaction_id", "commission", "status"],
    toRecord: genericRecord(options)
  })
