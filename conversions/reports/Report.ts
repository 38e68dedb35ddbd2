import type { ConversionRecord } from "../ConversionRecord.ts"
import { parseCsv } from "./csv.ts"
import { parseExactJson } from "./exactJson.ts"
import { RowError } from "./fields.ts"

/** The outcome of parsing one report: good records and rejected rows, each with its line. */
export interface ParsedReport {
  readonly records: Array<{ readonly line: number; readonly record: ConversionRecord }>
  readonly rejected: Array<{ readonly line: number; readonly reason: string; readonly raw: string }>
  /** Rows (CSV) or items (JSON) read. */
  readonly rowsRead: number
}

/** The whole file is unusable (not JSON, no header, wrong top-level shape): the run fails. */
export class ReportError extends Error {}

export interface ReportOptions {
  /** Network slug stored on every record (networks.id); the generic format may carry its own per row. */
  readonly network: string
  /** Currency of amounts when the format leaves it to the account (CJ reports in the publisher's currency). */
  readonly currency?: string | undefined
}

const RAW_LIMIT = 500

/**
 * Runs `toRecord` on every item, collecting rejections instead of failing:
 * one bad row never sinks a report. `line` is the CSV line (header = 1) or
 * the 1-based item index in a JSON report.
 */
export const collect = <I>(
  items: ReadonlyArray<{ readonly line: number; readonly item: I }>,
  toRecord: (item: I) => ConversionRecord
): ParsedReport => {
  const records: Array<{ line: number; record: ConversionRecord }> = []
  const rejected: Array<{ line: number; reason: string; raw: string }> = []
  for (const { line, item } of items) {
    try {
      records.push({ line, record: toRecord(item) })
    } catch (error) {
      if (!(error instanceof RowError)) throw error
      rejected.push({ line, reason: error.message, raw: JSON.stringify(item)?.slice(0, RAW_LIMIT) ?? "" })
    }
  }
  return { records, rejected, rowsRead: items.length }
}

/** Items of a JSON report, 1-based; objects only (anything else is a rejected row). */
export const jsonItems = (list: unknown, where: string): Array<{ line: number; item: Record<string, unknown> }> => {
  if (!Array.isArray(list)) throw new ReportError(`${where}: expected an array of records`)
  return list.map((item, index) => ({
    line: index + 1,
    item:
      typeof item === "object" && item !== null && !Array.isArray(item)
        ? (item as Record<string, unknown>)
        : { __invalid: item }
  }))
}

export const requireObject = (item: Record<string, unknown>) => {
  if ("__invalid" in item) throw new RowError("record: expected a JSON object")
  return item
}

export const nonNegative = (value: bigint, field: string) => {
  if (value < 0n) throw new RowError(`${field}: must not be negative`)
  return value
}

/**
 * Reads a report that networks deliver either as API JSON or as a CSV export
 * with the same field names: `listOf` finds the records in the JSON,
 * `requiredColumns` guard the CSV header, `toRecord` maps one item either way.
 */
export const parseJsonOrCsv = (
  content: string,
  spec: {
    readonly name: string
    readonly listOf: (json: unknown) => unknown
    readonly listPath: string
    readonly requiredColumns: ReadonlyArray<string>
    readonly toRecord: (item: Record<string, unknown>) => ConversionRecord
  }
): ParsedReport => {
  const trimmed = content.trimStart()
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    let json: unknown
    try {
      json = parseExactJson(content)
    } catch (error) {
      throw new ReportError(`${spec.name}: not JSON (${(error as Error).message})`)
    }
    return collect(jsonItems(spec.listOf(json), `${spec.name} ${spec.listPath}`), (item) =>
      spec.toRecord(requireObject(item))
    )
  }
  const { header, records } = parseCsv(content)
  for (const column of spec.requiredColumns) {
    if (!header.includes(column)) throw new ReportError(`${spec.name}: missing column ${column}`)
  }
  return collect(
    records.map(({ line, values }) => ({ line, item: values as Record<string, unknown> })),
    spec.toRecord
  )
}
