import type { ConversionRecord, ConversionStatus } from "../ConversionRecord.ts"
import { amount, currency, optionalText, optionalTime, RowError, status, text, time } from "./fields.ts"
import { nonNegative, type ParsedReport, parseJsonOrCsv, type ReportOptions } from "./Report.ts"

// CJ commission detail: the Commission Detail API's GraphQL response
// ({ data: { publisherCommissions: { records: [...] } } }, or the bare records
// array) or its CSV export with the same column names. The fields and types
// follow CJ's published schema (docs.cj.com "Commission Detail API" and its
// reference pages, and the schema the endpoint answers to introspection; the
// types we read are transcribed in test/fixtures/networks/cj-commissions.graphql).
// Fields read: commissionId, originalActionId, original, correctionReason,
// shopperId (our sid), actionStatus, eventDate, postingDate and the amounts.
//
// Amounts: CJ has no currency field on a commission. pubCommissionAmountPubCurrency
// and saleAmountPubCurrency are in the publisher account's functional currency,
// which the feed must name (options.currency, CJ_CURRENCY in the ready-made
// feed); without it the USD fields (pubCommissionAmountUsd, saleAmountUsd),
// converted by CJ, are read as USD. Never the account amounts labelled USD.
//
// Status (CJ's ActionStatus): new and extended (locking date pushed back) are
// pending; locked and closed are approved. There is no "corrected" status: a
// correction is a record of its own with original false, correctionReason,
// the originalActionId of the transaction it corrects and the change as
// (usually negative) amounts. Original and corrections share originalActionId,
// so a conversion's id is its originalActionId (commissionId in an export
// without that column) and a correction is filed against it.
const STATUS = { new: "pending", extended: "pending", locked: "approved", closed: "approved" } as const

/** GraphQL booleans, or the export's true/false/1/0. */
const flag = (value: unknown, field: string): boolean | undefined => {
  if (value === undefined || value === null || value === "") return undefined
  if (value === true || value === "true" || value === "1" || value === 1) return true
  if (value === false || value === "false" || value === "0" || value === 0) return false
  throw new RowError(`${field}: expected true or false`)
}

const amountsOf = (item: Record<string, unknown>, options: ReportOptions) => {
  if (options.currency !== undefined && options.currency !== "") {
    return {
      code: currency(options.currency, "currency (feed option)"),
      order: amount(item.saleAmountPubCurrency, "saleAmountPubCurrency"),
      commission: amount(item.pubCommissionAmountPubCurrency, "pubCommissionAmountPubCurrency"),
      orderField: "saleAmountPubCurrency",
      commissionField: "pubCommissionAmountPubCurrency"
    }
  }
  if (item.pubCommissionAmountUsd === undefined || item.pubCommissionAmountUsd === "") {
    throw new RowError(
      "pubCommissionAmountPubCurrency: in the account's currency, which CJ does not report: set the feed's currency " +
        "(CJ_CURRENCY), or read pubCommissionAmountUsd and saleAmountUsd"
    )
  }
  return {
    code: "USD",
    order: amount(item.saleAmountUsd, "saleAmountUsd"),
    commission: amount(item.pubCommissionAmountUsd, "pubCommissionAmountUsd"),
    orderField: "saleAmountUsd",
    commissionField: "pubCommissionAmountUsd"
  }
}

const toRecord =
  (options: ReportOptions) =>
  (item: Record<string, unknown>): ConversionRecord => {
    const reported: ConversionStatus = status(item.actionStatus, "actionStatus", STATUS)
    const commissionId = text(item.commissionId, "commissionId")
    const originalActionId = optionalText(item.originalActionId, "originalActionId")
    const correction = flag(item.original, "original") === false
    if (correction && originalActionId === null) throw new RowError("originalActionId: required on a correction")
    const money = amountsOf(item, options)
    if (!correction) {
      nonNegative(money.order, money.orderField)
      nonNegative(money.commission, money.commissionField)
    }
    const reason = optionalText(item.correctionReason, "correctionReason")
    return {
      network: options.network,
      networkTxId: correction ? commissionId : (originalActionId ?? commissionId),
      clickRef: optionalText(item.shopperId, "shopperId"),
      orderAmount: money.order,
      commission: money.commission,
      currency: money.code,
      status: reported,
      eventAt: time(item.eventDate, "eventDate"),
      updatedAt: optionalTime(item.postingDate, "postingDate"),
      ...(correction ? { correctionOf: originalActionId!, correctionReason: reason ?? undefined } : {})
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
