import type { ConversionRecord } from "../ConversionRecord.ts"
import { parseExactJson } from "./exactJson.ts"
import { amount, currency, optionalText, optionalTime, RowError, status, text, time } from "./fields.ts"
import {
  collect,
  jsonItems,
  nonNegative,
  type ParsedReport,
  ReportError,
  type ReportOptions,
  requireObject
} from "./Report.ts"

// Awin transactions, as returned by the publisher API
// (GET /publishers/{id}/transactions/): a JSON array of transactions.
// Fields read: id, clickRefs.clickRef, saleAmount.{amount,currency},
// commissionAmount.{amount,currency}, commissionStatus, transactionDate,
// validationDate. Awin writes local times without an offset; we read them as
// UTC (request the report with timezone=UTC).
const STATUS = { pending: "pending", approved: "approved", declined: "declined", deleted: "reversed" } as const

const money = (value: unknown, field: string) => {
  if (typeof value !== "object" || value === null) throw new RowError(`${field}: expected { amount, currency }`)
  const { amount: value_, currency: code } = value as Record<string, unknown>
  return {
    amount: nonNegative(amount(value_, `${field}.amount`), `${field}.amount`),
    currency: currency(code, `${field}.currency`)
  }
}

export const parseAwin = (content: string, options: ReportOptions): ParsedReport => {
  let json: unknown
  try {
    json = parseExactJson(content)
  } catch (error) {
    throw new ReportError(`awin report: not JSON (${(error as Error).message})`)
  }
  return collect(jsonItems(json, "awin report"), (raw): ConversionRecord => {
    const item = requireObject(raw)
    const sale = money(item.saleAmount, "saleAmount")
    const commission = money(item.commissionAmount, "commissionAmount")
    if (sale.currency !== commission.currency) {
      throw new RowError(
        `commissionAmount.currency: ${commission.currency} differs from saleAmount.currency ${sale.currency}`
      )
    }
    const clickRefs = item.clickRefs
    const clickRef =
      typeof clickRefs === "object" && clickRefs !== null
        ? optionalText((clickRefs as Record<string, unknown>).clickRef, "clickRefs.clickRef")
        : null
    return {
      network: options.network,
      networkTxId: text(item.id, "id"),
      clickRef,
      orderAmount: sale.amount,
      commission: commission.amount,
      currency: commission.currency,
      status: status(item.commissionStatus, "commissionStatus", STATUS),
      eventAt: time(item.transactionDate, "transactionDate"),
      updatedAt: optionalTime(item.validationDate, "validationDate")
    }
  })
}
