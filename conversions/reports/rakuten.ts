import type { ConversionRecord } from "../ConversionRecord.ts"
import { parseCsv } from "./csv.ts"
import { amount, currency, optionalText, RowError, text, time } from "./fields.ts"
import type { ParsedReport, ReportOptions } from "./Report.ts"
import { ReportError } from "./Report.ts"

// Rakuten Advertising Signature Orders Report, fetched by its token URL
// (pubhelp.rakutenadvertising.com "Run Reports Via API": GET
// /en/reports/{report}/filters?start_date&end_date&include_summary&network&tz&date_type&token,
// a CSV; "Signature Orders Report" and "Signature Implementation Guidelines":
// u1 on the link comes back as the Member ID column). One row per order and
// SKU; columns read: Member ID (U1), Order ID, SKU, Sales, Total Commission,
// Transaction Date/Time, Process Date/Time. Dates as the report writes them
// (yyyy-mm-dd, or m/d/yy and m-d-yy by its date_format), in the tz asked for
// (the feed asks for GMT). The report has no currency column: amounts are in
// the account's currency, which the feed names (options.currency,
// RAKUTEN_CURRENCY in the ready-made feed). It has no status either: every
// order is pending until the network pays it.
//
// Rows of one order are one conversion (their amounts summed). A return or
// cancellation is a row of its own for the same Order ID with negative Sales
// and Total Commission and its own (later) process date: a correction of the
// order, filed in conversion_corrections under the id order~process time~SKU,
// so the same row read again is the same correction.
const COLUMNS = {
  member: "Member ID (U1)",
  order: "Order ID",
  sku: "SKU",
  sales: "Sales",
  commission: "Total Commission",
  transactionDate: "Transaction Date",
  transactionTime: "Transaction Time",
  processDate: "Process Date",
  processTime: "Process Time"
} as const

const US_DATE = /^(\d{1,2})[/-](\d{1,2})[/-](\d{2}|\d{4})$/

/** A report date and time as an ISO instant (UTC: the feed asks for tz=GMT). */
const dateTime = (date: unknown, clock: unknown, field: string): Date => {
  const day = typeof date === "string" ? date.trim() : ""
  const us = US_DATE.exec(day)
  const iso =
    us === null
      ? day
      : `${us[3].length === 2 ? `20${us[3]}` : us[3]}-${us[1].padStart(2, "0")}-${us[2].padStart(2, "0")}`
  const at = typeof clock === "string" && clock.trim() !== "" ? `${iso}T${clock.trim()}` : iso
  return time(at, field)
}

/** Rakuten writes amounts with thousands separators in some locales ("1,024.50"). */
const money = (value: unknown, field: string) =>
  amount(typeof value === "string" && /^-?[\d,]+(\.\d+)?$/.test(value.trim()) ? value.replace(/,/g, "") : value, field)

export const parseRakuten = (content: string, options: ReportOptions): ParsedReport => {
  let parsed
  try {
    parsed = parseCsv(content)
  } catch (error) {
    throw new ReportError(`rakuten report: ${(error as Error).message}`)
  }
  for (const column of [COLUMNS.order, COLUMNS.sales, COLUMNS.commission, COLUMNS.processDate]) {
    if (!parsed.header.includes(column)) throw new ReportError(`rakuten report: missing column ${column}`)
  }
  const orders = new Map<string, { line: number; record: ConversionRecord }>()
  const corrections: Array<{ line: number; record: ConversionRecord }> = []
  const rejected: Array<{ line: number; reason: string; raw: string }> = []
  const code = options.currency
  for (const { line, values } of parsed.records) {
    try {
      if (code === undefined || code === "")
        throw new RowError("currency: the report has none; set the feed's currency (RAKUTEN_CURRENCY)")
      const order = text(values[COLUMNS.order], COLUMNS.order)
      const sales = money(values[COLUMNS.sales], COLUMNS.sales)
      const commission = money(values[COLUMNS.commission], COLUMNS.commission)
      const processed = dateTime(values[COLUMNS.processDate], values[COLUMNS.processTime], COLUMNS.processDate)
      const row: ConversionRecord = {
        network: options.network,
        networkTxId: order,
        clickRef: optionalText(values[COLUMNS.member], COLUMNS.member),
        orderAmount: sales,
        commission,
        currency: currency(code, "currency (feed option)"),
        status: "pending",
        eventAt: dateTime(values[COLUMNS.transactionDate], values[COLUMNS.transactionTime], COLUMNS.transactionDate),
        updatedAt: processed
      }
      if (sales < 0n || commission < 0n) {
        if (sales > 0n || commission > 0n) throw new RowError(`${COLUMNS.sales}: a return has no positive amount`)
        const sku = optionalText(values[COLUMNS.sku], COLUMNS.sku) ?? ""
        corrections.push({
          line,
          record: { ...row, networkTxId: `${order}~${processed.toISOString()}~${sku}`, correctionOf: order }
        })
        continue
      }
      const seen = orders.get(order)
      if (seen === undefined) orders.set(order, { line, record: row })
      else
        seen.record = {
          ...seen.record,
          orderAmount: seen.record.orderAmount + sales,
          commission: seen.record.commission + commission,
          eventAt: row.eventAt < seen.record.eventAt ? row.eventAt : seen.record.eventAt,
          updatedAt: processed > seen.record.updatedAt! ? processed : seen.record.updatedAt
        }
    } catch (error) {
      if (!(error instanceof RowError)) throw error
      rejected.push({ line, reason: error.message, raw: JSON.stringify(values).slice(0, 500) })
    }
  }
  const records = [...orders.values(), ...corrections].sort((a, b) => a.line - b.line)
  return { records, rejected, rowsRead: parsed.records.length }
}
