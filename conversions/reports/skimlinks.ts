import type { ConversionRecord, ConversionStatus } from "../ConversionRecord.ts"
import { amount, currency, objectAt, optionalText, optionalTime, status, text, time } from "./fields.ts"
import { nonNegative, type ParsedReport, parseJsonOrCsv, type ReportOptions } from "./Report.ts"

// Skimlinks Reporting API commission report
// (GET /publisher/{publisher_id}/commission-report, developers.skimlinks.com
// "Reporting API", Commissions): { "pagination": { has_next, total_count,
// offset, limit }, "commissions": [...] }. Fields read: commission_id,
// click_details.custom_id (our tracking id, sent as xcust on the link),
// transaction_details.basket { order_amount, publisher_amount (our
// commission), currency }, transaction_details.status (active | cancelled),
// transaction_details.payment_status (paid once Skimlinks has paid it),
// transaction_date and last_updated ("yyyy-mm-dd hh:mm:ss", UTC).
// A correction is the commission itself changing: a cancelled commission is
// reversed, an amended basket replaces the old amounts; the feed reads by
// updated_since, so the change arrives and the ledger keeps the history.
const STATUS = { active: "active", cancelled: "cancelled" } as const

const toRecord =
  (options: ReportOptions) =>
  (item: Record<string, unknown>): ConversionRecord => {
    const details = objectAt(item.transaction_details, "transaction_details")
    const basket = objectAt(details.basket, "transaction_details.basket")
    const click = typeof item.click_details === "object" && item.click_details !== null ? item.click_details : {}
    const state = status(details.status, "transaction_details.status", STATUS)
    const paid = typeof details.payment_status === "string" && details.payment_status.toLowerCase() === "paid"
    const ours: ConversionStatus = state === "cancelled" ? "reversed" : paid ? "approved" : "pending"
    return {
      network: options.network,
      networkTxId: text(item.commission_id, "commission_id"),
      clickRef: optionalText((click as Record<string, unknown>).custom_id, "click_details.custom_id"),
      orderAmount: nonNegative(amount(basket.order_amount, "basket.order_amount"), "basket.order_amount"),
      commission: nonNegative(amount(basket.publisher_amount, "basket.publisher_amount"), "basket.publisher_amount"),
      currency: currency(basket.currency, "basket.currency"),
      status: ours,
      eventAt: time(details.transaction_date, "transaction_details.transaction_date"),
      updatedAt: optionalTime(details.last_updated, "transaction_details.last_updated")
    }
  }

export const parseSkimlinks = (content: string, options: ReportOptions): ParsedReport =>
  parseJsonOrCsv(content, {
    name: "skimlinks report",
    listOf: (json) => (Array.isArray(json) ? json : (json as { commissions?: unknown })?.commissions),
    listPath: "commissions",
    requiredColumns: ["commission_id", "transaction_details"],
    toRecord: toRecord(options)
  })
