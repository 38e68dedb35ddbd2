import { Effect, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { type DatabaseError, type Params, quoteIdent, type Tx } from "../../infra/Database.ts"

// Copies rows of one table from the staging transaction (DuckDB) into the
// system of record's transaction (PostgreSQL): DuckDB writes them to a CSV
// file with `COPY (...) TO` (its uncommitted rows included), and the target
// loads the file with COPY. Every value is written as PostgreSQL input text,
// rendered by DuckDB in SQL, and COPY hands it to the column's input
// function, so numbers stay exact, timestamps keep their offset and lists
// become arrays. Measured at 200k products against the alternatives that page
// rows through Node (bench:ingest --postgres, two runs): 2.8-5.4x faster than
// the seam's append, 4.8-7.4x faster than INSERTs over JSON pages.

const ColumnRow = Schema.Struct({ name: Schema.String, type: Schema.String })
export type Column = typeof ColumnRow.Type

/** A table's columns in table order, with their types as the store names them (both dialects). */
export const tableColumns = (tx: Tx, table: string) =>
  tx.queryAs(
    ColumnRow,
    `SELECT column_name AS name, data_type AS type FROM information_schema.columns
     WHERE table_name = $1 AND table_schema = current_schema() ORDER BY ordinal_position`,
    [table]
  )

/** DuckDB SQL rendering one staged column as PostgreSQL input text (NULL stays NULL). */
export const asPostgresText = (column: string, stagedType: string) => {
  const c = quoteIdent(column)
  if (stagedType.endsWith("[]")) {
    // A text[] literal: every element double-quoted, backslashes and quotes escaped.
    const element = `CASE WHEN x IS NULL THEN 'NULL' ELSE '"' || replace(replace(x, '\\', '\\\\'), '"', '\\"') || '"' END`
    return `CASE WHEN ${c} IS NULL THEN NULL ELSE '{' || array_to_string(list_transform(${c}, x -> ${element}), ',') || '}' END`
  }
  return `CAST(${c} AS VARCHAR)`
}

/** The staged rows of `table` matching `where`, every target column as PostgreSQL input text. */
export const stagedTextQuery = (
  stagedTypes: ReadonlyArray<Column>,
  targetColumns: ReadonlyArray<Column>,
  table: string,
  where: string
) => {
  const types = new Map(stagedTypes.map((c) => [c.name, c.type] as const))
  const texts = targetColumns.map(
    (c) => `${asPostgresText(c.name, types.get(c.name) ?? "VARCHAR")} AS ${quoteIdent(c.name)}`
  )
  return `SELECT ${texts.join(", ")} FROM ${table} WHERE ${where}`
}

/** Copies the staged rows of `table` matching `where` into `target`, through a CSV file under `directory`. */
export const copyStagedRows = (
  staged: Tx,
  target: Tx,
  table: string,
  where: string,
  params: Params,
  directory: string
): Effect.Effect<void, DatabaseError> =>
  Effect.gen(function* () {
    const columns = yield* tableColumns(target, table)
    const select = stagedTextQuery(yield* tableColumns(staged, table), columns, table, where)
    mkdirSync(directory, { recursive: true })
    const file = join(directory, `${table}-${randomBytes(6).toString("hex")}.csv`)
    yield* Effect.ensuring(
      Effect.gen(function* () {
        yield* staged.run(`COPY (${select}) TO '${file.replaceAll("'", "''")}' (FORMAT csv, HEADER false)`, params)
        yield* target.copyFromCsv(
          table,
          columns.map((c) => c.name),
          file
        )
      }),
      Effect.sync(() => rmSync(file, { force: true }))
    )
  })
