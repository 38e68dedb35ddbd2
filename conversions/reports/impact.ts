import type { ConversionRecord } from "../ConversionRecord.ts"
import { amount, currency, optionalText, optionalTime, status, text, time } from "./fields.ts"
import { nonNegative, type ParsedReport, parseJsonOrCsv, type ReportOptions } from "./Report.ts"

// Impact actions: the Actions API JSON ({ "Actions": [...] }, or a bare array)
// or the CSV export with the same column names.
// Fields read: Id, SubId1, Amount (order), Payout (commission), Currency,
// State (PENDING | APPROVED | REVERSED), EventDate, and the update time from
// UpdateDate when present, else ClearedDate.
const STATUS = { pending: "pending", approved: "approved", reversed: "reversed" } as const

const toRecord =
  (options: ReportOptions) =>
  (item: Record<string, unknown>): ConversionRecord => ({
    network: options.network,
    networkTxId: text(item.Id, "Id"),
    clickRef: optionalText(item.SubId1, "SubId1"),
    orderAmount: nonNegative(amount(item.Amount, "Amount"), "Amount"),
    commission: nonNegative(amount(item.Payout, "Payout"), "Payout"),
    currency: currency(item.Currency, "Currency"),
    status: status(item.State, "State", STATUS),
    eventAt: time(item.EventDate, "EventDate"),
    updatedAt: optionalTime(item.UpdateDate, "UpdateDate") ?? optionalTime(item.ClearedDate, "ClearedDate")
  })

export const parseImpact = (content: string, options: ReportOptions): ParsedReport =>
  parseJsonOrCsv(content, {
    name: "impact report",
    listOf: (json) => (Array.isArray(json) ? json : (json as { Actions?: unknown })?.Actions),
    listPath: "Actions",
    requiredColumns: ["Id", "Payout", "State"],
    toRecord: toRecord(options)
  })
