import { Effect, Schema } from "effect"
import type { DatabaseError, Params, Tx } from "../../infra/Database.ts"

// Copies rows of one table from the staging transaction (DuckDB) into the
// system of record's transaction (PostgreSQL's COPY, through `append`).
// Every value travels as PostgreSQL input text, rendered by DuckDB in SQL:
// COPY hands each column's text to that column's input function, so numbers
// stay exact, timestamps keep their offset, and lists become array literals.

/** Rows per COPY: bounds the memory one page of a 1M-row feed takes in Node. */
export const PAGE_ROWS = 50_000

const ColumnRow = Schema.Struct({ name: Schema.String, type: Schema.String })

/** The target's column order (COPY without a column list fills the table in its own order). */
export const tableColumns = (target: Tx, table: string) =>
  target.queryAs(
    ColumnRow,
    `SELECT column_name AS name, data_type AS type FROM information_schema.columns
     WHERE table_name = $1 AND table_schema = current_schema() ORDER BY ordinal_position`,
    [table]
  )

export const quoted = (column: string) => `"${column.replace(/"/g, '""')}"`

/** DuckDB SQL rendering one staged column as PostgreSQL input text (NULL stays NULL). */
export const asPostgresText = (column: string, stagedType: string) => {
  const c = quoted(column)
  if (stagedType.endsWith("[]")) {
    // A text[] literal: every element double-quoted, backslashes and quotes escaped.
    const element = `CASE WHEN x IS NULL THEN 'NULL' ELSE '"' || replace(replace(x, '\\', '\\\\'), '"', '\\"') || '"' END`
    return `CASE WHEN ${c} IS NULL THEN NULL ELSE '{' || array_to_string(list_transform(${c}, x -> ${element}), ',') || '}' END`
  }
  return `CAST(${c} AS VARCHAR)`
}

/** The key each page continues after (DuckDB's rowid: stable inside the staging transaction). */
const KEY = "_copy_key"

export const copyStagedRows = (
  staged: Tx,
  target: Tx,
  table: string,
  where: string,
  params: Params
): Effect.Effect<void, DatabaseError> =>
  Effect.gen(function* () {
    const columns = yield* tableColumns(target, table)
    const stagedTypes = new Map(
      (yield* tableColumns(staged, table)).map((column) => [column.name, column.type] as const)
    )
    const list = Array.isArray(params) ? params : []
    const after = `$${list.length + 1}`
    const select = `SELECT rowid AS ${KEY}, ${columns
      .map(
        (column) =>
          `${asPostgresText(column.name, stagedTypes.get(column.name) ?? "VARCHAR")} AS ${quoted(column.name)}`
      )
      .join(", ")} FROM ${table} WHERE (${where}) AND rowid > ${after} ORDER BY rowid LIMIT ${PAGE_ROWS}`
    let last = -1n
    for (;;) {
      const rows = yield* staged.query<Record<string, string | bigint | null>>(select, [...list, last])
      if (rows.length === 0) return
      yield* target.append(table, (appender) => {
        for (const row of rows) {
          for (const column of columns) {
            const value = row[column.name]
            if (value === null || value === undefined) appender.appendNull()
            else appender.appendVarchar(String(value))
          }
          appender.endRow()
        }
      })
      last = BigInt(rows[rows.length - 1][KEY] ?? last)
      if (rows.length < PAGE_ROWS) return
    }
  })
