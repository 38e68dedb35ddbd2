import type { ProductRow } from "../../readModel/documents.ts"
import { byteLines, sqlFileLiteral } from "./fileText.ts"

// The sync's rows travel as JSON, one object per line: DuckDB writes a
// batch's rows to a file (COPY ... (FORMAT json), on its own threads; the
// driver only answers a count) and the sync's worker parses them there
// (rowFiles.ts). Parsing JSON in JS beat the driver's per-value conversion of
// ~30 columns into row objects 3x (20k rows: 1.2 s vs 3.4 s, measured on one
// core under load). Timestamps travel as epoch milliseconds, the precision a
// JS Date holds.

const TIMESTAMPS = ["updated_at", "since", "first_at", "ref_at"] as const
type Timestamp = (typeof TIMESTAMPS)[number]

type JsonProductRow = Omit<ProductRow, Timestamp> & {
  readonly updated_at: number
  readonly since: number | null
  readonly first_at: number | null
  readonly ref_at: number | null
}

/** The rows of `table` matching `where`, as productRowOf reads them, without the sync's own columns. */
const productRowsSql = (table: string, where: string) =>
  `SELECT * EXCLUDE (model_id, model_rank, hash)
     REPLACE (${TIMESTAMPS.map((column) => `epoch_ms(${column}) AS ${column}`).join(", ")})
   FROM ${table} WHERE ${where}`

/**
 * DuckDB's statement writing those rows to `file`: newline-delimited JSON,
 * one object per row in the table's order (DuckDB preserves insertion order
 * by default), text escaped as JSON, so a newline inside a value never splits a line.
 */
export const productRowsCopySql = (table: string, where: string, file: string) =>
  `COPY (${productRowsSql(table, where)}) TO ${sqlFileLiteral(file)} (FORMAT json)`

const dateOrNull = (ms: number | null) => (ms === null ? null : new Date(ms))

export const productRowOf = (json: string): ProductRow => {
  const row: JsonProductRow = JSON.parse(json)
  return {
    ...row,
    updated_at: new Date(row.updated_at),
    since: dateOrNull(row.since),
    first_at: dateOrNull(row.first_at),
    ref_at: dateOrNull(row.ref_at)
  }
}

/** The rows of a file productRowsCopySql wrote (its bytes), in order. */
export function* productRowsOf(bytes: Buffer): Generator<ProductRow> {
  for (const line of byteLines(bytes)) yield productRowOf(line)
}
