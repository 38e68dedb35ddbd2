import type { ConversionRecord } from "../ConversionRecord.ts"
import { amount, currency, objectAt, optionalText, optionalTime, status, text, time } from "./fields.ts"
import { nonNegative, type ParsedReport, parseJsonOrCsv, type ReportOptions } from "./Report.ts"

// Partnerize partner conversions report
// (GET /reporting/report_publisher/publisher/{publisher_id}/conversion.json,
// api-docs.partnerize.com/partner, "Retrieve a Partner Conversions Report"):
// { ..., "limit": 300, "count", "conversions": [ { "conversion_data": {...} } ] }.
// Fields read from conversion_data: conversion_id, publisher_reference (our
// tracking id, sent as pubref on the link; the click's own
// click.publisher_reference when the conversion's is empty), currency,
// conversion_time, last_modified, and conversion_value { conversion_status
// (pending | approved | rejected), value, publisher_commission }. Times are
// "yyyy-mm-dd hh:mm:ss" in the timezone asked for (the feed asks for UTC).
// A correction is the conversion itself changing: items rejected lower its
// value and commission, a rejected conversion is declined; the report window
// is read by last_modified, so the change arrives and the ledger keeps the
// history in conversion_events.
const STATUS = { pending: "pending", approved: "approved", rejected: "declined" } as const

const toRecord =
  (options: ReportOptions) =>
  (item: Record<string, unknown>): ConversionRecord => {
    const data = objectAt(item.conversion_data, "conversion_data")
    const value = objectAt(data.conversion_value, "conversion_data.conversion_value")
    const click = typeof data.click === "object" && data.click !== null ? (data.click as Record<string, unknown>) : {}
    return {
      network: options.network,
      networkTxId: text(data.conversion_id, "conversion_data.conversion_id"),
      clickRef:
        optionalText(data.publisher_reference, "conversion_data.publisher_reference") ??
        optionalText(click.publisher_reference, "conversion_data.click.publisher_reference"),
      orderAmount: nonNegative(amount(value.value, "conversion_value.value"), "conversion_value.value"),
      commission: nonNegative(
        amount(value.publisher_commission, "conversion_value.publisher_commission"),
        "conversion_value.publisher_commission"
      ),
      currency: currency(data.currency, "conversion_data.currency"),
      status: status(value.conversion_status, "conversion_value.conversion_status", STATUS),
      eventAt: time(data.conversion_time, "conversion_data.conversion_time"),
      updatedAt: optionalTime(data.last_modified, "conversion_data.last_modified")
    }
  }

export const parsePartnerize = (content: string, options: ReportOptions): ParsedReport =>
  parseJsonOrCsv(content, {
    name: "partnerize report",
    listOf: (json) => (Array.isArray(json) ? json : (json as { conversions?: unknown })?.conversions),
    listPath: "conversions",
    requiredColumns: ["conversion_data"],
    toRecord: toRecord(options)
  })
