import type { ConversionRecord } from "../ConversionRecord.ts"
import { parseCsv } from "./csv.ts"
import { parseExactJson } from "./exactJson.ts"
import { amount, currency, optionalText, optionalTime, status, text, time } from "./fields.ts"
import { collect, jsonItems, nonNegative, type ParsedReport, ReportError, type ReportOptions, requireObject } from "./Report.ts"

// Impact actions: the Actions API JSON ({ "Actions": [...] }, or a bare array)
// or the CSV export with the same column names.
// Fields read: Id, SubId1, Amount (order), Payout (commission), Currency,
// State (PENDING | APPROVED | REVERSED), EventDate, and the update time from
// UpdateDate when present, else ClearedDate.
const STATUS = { pending: "pending", approved: "approved", reversed: "reversed" } as const

const toRecord = (options: ReportOptions) => (item: Record<string, unknown>): ConversionRecord => ({
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

export const parseImpact = (content: string, options: ReportOptions): ParsedReport => {
  const trimmed = content.trimStart()
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    let json: unknown
    try {
      json = parseExactJson(content)
    } catch (error) {
      throw new ReportError(`impact report: not JSON (${(error as Error).message})`)
    }
    const actions = Array.isArray(json) ? json : (json as { Actions?: unknown })?.Actions
    return collect(jsonItems(actions, "impact report Actions"), (item) => toRecord(options)(requireObject(item)))
  }
  const { header, records } = parseCsv(content)
  for (const column of ["Id", "Payout", "State"]) {
    if (!header.includes(column)) throw new ReportError(`impact report: missing column ${column}`)
  }
  return collect(records.map(({ line, values }) => ({ line, item: values as Record<string, unknown> })), toRecord(options))
}
