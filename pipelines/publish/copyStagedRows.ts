import { Effect, Schema } from "effect"
import { type DatabaseError, jsonRowsParam, type Params, type Tx } from "../../infra/Database.ts"

// Copies rows of one table from the staging transaction (DuckDB) into the
// system of record's transaction (PostgreSQL). Every value travels as
// PostgreSQL input text, rendered by DuckDB in SQL, and is cast to the
// column's type by PostgreSQL, so numbers stay exact, timestamps keep their
// offset and lists become arrays.
//
// Each page is ONE `INSERT ... SELECT` over a JSON text parameter, not COPY:
// postgres.js 3.4 never settles a COPY FROM STDIN the server rejects
// (porsager/postgres#1173), so a constraint violation during a publish would
// hang the run with its transaction open instead of failing it. The bench
// (bench:ingest --postgres) measures both.

/** Rows per statement: bounds the memory one page of a 1M-row feed takes in Node. */
export const PAGE_ROWS = 20_000

const ColumnRow = Schema.Struct({ name: Schema.String, type: Schema.String })
export type Column = typeof ColumnRow.Type

/** A staged (DuckDB) table's columns and their DuckDB types. */
export const stagedColumns = (staged: Tx, table: string) =>
  staged.queryAs(
    ColumnRow,
    `SELECT column_name AS name, data_type AS type FROM information_schema.columns
     WHERE table_name = $1 AND table_schema = current_schema() ORDER BY ordinal_position`,
    [table]
  )

/** A PostgreSQL table's columns in table order, with their exact types (`numeric(18,4)`, `text[]`). */
export const postgresColumns = (target: Tx, table: string) =>
  target.queryAs(
    ColumnRow,
    `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
     WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
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

export type TextRow = Record<string, string | null>

/**
 * Reads the staged rows of `table` matching `where` page by page, each value
 * as PostgreSQL input text for the target's `columns`, and hands each page to `write`.
 */
export const stagedPages = (
  staged: Tx,
  table: string,
  columns: ReadonlyArray<Column>,
  where: string,
  params: Params,
  write: (rows: ReadonlyArray<TextRow>) => Effect.Effect<void, DatabaseError>
): Effect.Effect<void, DatabaseError> =>
  Effect.gen(function* () {
    const stagedTypes = new Map((yield* stagedColumns(staged, table)).map((c) => [c.name, c.type] as const))
    const list = Array.isArray(params) ? params : []
    const select = `SELECT rowid AS ${KEY}, ${columns
      .map((c) => `${asPostgresText(c.name, stagedTypes.get(c.name) ?? "VARCHAR")} AS ${quoted(c.name)}`)
      .join(", ")} FROM ${table} WHERE (${where}) AND rowid > $${list.length + 1} ORDER BY rowid LIMIT ${PAGE_ROWS}`
    let after = -1n
    for (;;) {
      const rows = yield* staged.query<TextRow & { [KEY]: bigint }>(select, [...list, after])
      if (rows.length === 0) return
      after = rows[rows.length - 1][KEY]
      yield* write(rows.map(({ [KEY]: _, ...row }) => row))
      if (rows.length < PAGE_ROWS) return
    }
  })

/** One page as one INSERT: the JSON text parameter read as a table of texts, cast to each column's type. */
const insertPage = (target: Tx, table: string, columns: ReadonlyArray<Column>) => {
  const texts = target.jsonRows("$1", Object.fromEntries(columns.map((c) => [c.name, "VARCHAR" as const])))
  const sql = `INSERT INTO ${table} (${columns.map((c) => quoted(c.name)).join(", ")})
    SELECT ${columns.map((c) => `CAST(r.${quoted(c.name)} AS ${c.type})`).join(", ")} FROM ${texts} r`
  return (rows: ReadonlyArray<TextRow>) => target.run(sql, [jsonRowsParam(rows)])
}

export const copyStagedRows = (
  staged: Tx,
  target: Tx,
  table: string,
  where: string,
  params: Params
): Effect.Effect<void, DatabaseError> =>
  Effect.gen(function* () {
    const columns = yield* postgresColumns(target, table)
    yield* stagedPages(staged, table, columns, where, params, insertPage(target, table, columns))
  })
