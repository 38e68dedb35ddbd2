import { Effect, Result, Schema } from "effect"
import type { DialectName, SqlDialect } from "./SqlDialect.ts"

// The storage seam's interface: what features program against, with no
// driver imported. Two implementations serve it: DuckDB (DuckDbDatabase.ts,
// the embedded default) and PostgreSQL (PgDatabase.ts, when DATABASE_URL is
// set); Database.ts chooses one and is the service features ask for.

export class DatabaseError extends Schema.TaggedError<DatabaseError>()("DatabaseError", {
  message: Schema.String,
  cause: Schema.Defect()
}) {}

export type Row = Record<string, unknown>
/** A bound parameter's value, as both stores take it: decimals and timestamps travel as text. */
export type SqlValue = string | number | bigint | boolean | null
/** Positional parameters (`$1..$n`): what both stores bind. */
export type Params = ReadonlyArray<SqlValue>
/** DuckDB also binds named parameters (`$feed`): only through `DuckDbTx`, so PostgreSQL never sees them. */
export type DuckDbParams = Params | Readonly<Record<string, SqlValue>>

// The storage seam:
// - `query`/`queryAs`/`run` bind `$1..$n`; rows are plain objects with the
//   same JS value types on both (PgDatabase.ts maps PostgreSQL's types to what
//   DuckDB's `getRowObjectsJS()` gives). Named parameters (`$feed`) and
//   appending into an attached database are DuckDB-only: they are in
//   `DuckDbTx`/`DuckDbShape` alone, the type of the pipelines' staging side
//   (`Staging`), so using one on the shared store does not compile.
// - `transaction`: one writer at a time per process; readers keep their
//   snapshot until COMMIT.
// - `append`: DuckDB's Appender; COPY FROM STDIN on PostgreSQL.
// - `jsonRows`/`jsonList`: the dialect's SQL that turns one JSON text
//   parameter into a table, which is how every bulk write binds its batch.
// Row schemas (`queryAs`) and `filters` are dialect-neutral and shared.

export type Dialect = DialectName

/**
 * The Appender methods the code base uses. DuckDB's `DuckDBAppender`
 * satisfies it as is; PostgreSQL's buffers the rows for one COPY. Send
 * timestamps and decimals with `appendVarchar` (ISO-8601, decimal text): both
 * stores cast text to the column's type, exactly.
 */
export interface RowAppender {
  appendVarchar(value: string): void
  appendInteger(value: number): void
  appendBigInt(value: bigint): void
  appendDouble(value: number): void
  appendBoolean(value: boolean): void
  appendNull(): void
  endRow(): void
}

/** A nullable text column's value: NULL, or the string. */
export const appendTextOrNull = (appender: RowAppender, value: string | null | undefined) =>
  value === null || value === undefined ? appender.appendNull() : appender.appendVarchar(value)

/** The operations available inside a transaction (one connection, one writer). */
export interface Tx {
  /** Which store this is: for infra/ and tests only (features use `sql` and `sharedWithReplicas`). */
  readonly dialect: Dialect
  /** The store's SQL spelling of what the dialects write differently. */
  readonly sql: SqlDialect
  /**
   * Whether other processes (replicas) write this store too: then decisions
   * that must hold across them (unique clicks, rate-limit buckets, link
   * changes) are taken in the database; otherwise this process owns it.
   */
  readonly sharedWithReplicas: boolean
  /** Raw rows, unchecked: for callers that only count rows or pass them through untouched. Prefer `queryAs`. */
  query<T = Row>(sql: string, params?: Params): Effect.Effect<Array<T>, DatabaseError>
  /**
   * Rows decoded with `row` (a Schema of one row); a row that does not match
   * fails with a DatabaseError naming the column, never a silent cast.
   */
  queryAs<S extends RowSchema>(
    row: S,
    sql: string,
    params?: Params
  ): Effect.Effect<ReadonlyArray<S["Type"]>, DatabaseError>
  run(sql: string, params?: Params): Effect.Effect<void, DatabaseError>
  /**
   * The fastest bulk insert (DuckDB's Appender, PostgreSQL's COPY): `fill`
   * appends every column of each row in table order; flushed for you.
   * `temp`: the table is a TEMP table of this connection (never written to the
   * file); on PostgreSQL only inside a transaction, whose connection holds it.
   */
  append(
    table: string,
    fill: (appender: RowAppender) => void,
    options?: { readonly temp?: boolean }
  ): Effect.Effect<void, DatabaseError>
  /**
   * Loads a CSV file (no header; an unquoted empty field is NULL, `""` an
   * empty text) into `columns` of `table`: DuckDB's COPY FROM the file,
   * PostgreSQL's COPY FROM STDIN streamed from it. The bulk path between the
   * two stores (DuckDB writes such a file with `COPY (...) TO`): measured
   * 2.8-5.4x faster than appending the same rows through Node (bench:ingest --postgres).
   */
  copyFromCsv(table: string, columns: ReadonlyArray<string>, file: string): Effect.Effect<void, DatabaseError>
  /**
   * A batch as ONE JSON text parameter, read as a table in SQL: binding
   * thousands of scalar or list parameters costs far more (measured on
   * DuckDB: 5,000 rows in ~0.1 s this way, ~1 s as lists). Returns the table
   * expression (columns named as in `columns`) for `FROM`/`JOIN`; bind
   * `jsonRowsParam(rows)` at `placeholder`. Send decimals and timestamps as
   * VARCHAR and cast in SQL, so they stay exact.
   */
  jsonRows(placeholder: string, columns: Readonly<Record<string, JsonColumnType>>): string
  /** A list of texts as one JSON parameter, for `x IN ${tx.jsonList("$1")}`; bind `JSON.stringify(values)`. */
  jsonList(placeholder: string): string
}

export interface DatabaseShape extends Tx {
  /**
   * Runs `f` in one transaction on the writer connection. Writers queue on a
   * semaphore because DuckDB aborts conflicting concurrent writers; readers
   * keep using their own connections and see the snapshot from before COMMIT
   * until it lands, which is what makes feed replacement atomic for them.
   */
  transaction<A, E, R>(f: (tx: Tx) => Effect.Effect<A, E, R>): Effect.Effect<A, E | DatabaseError, R>
  /** The underlying file path, ":memory:", or (PostgreSQL) the URL without its password. */
  readonly path: string
}

/** A DuckDB transaction: the shared operations, plus what only DuckDB does. */
export interface DuckDbTx extends Tx {
  readonly dialect: "duckdb"
  query<T = Row>(sql: string, params?: DuckDbParams): Effect.Effect<Array<T>, DatabaseError>
  queryAs<S extends RowSchema>(
    row: S,
    sql: string,
    params?: DuckDbParams
  ): Effect.Effect<ReadonlyArray<S["Type"]>, DatabaseError>
  run(sql: string, params?: DuckDbParams): Effect.Effect<void, DatabaseError>
  /** `database`: the attached database the table is in (its main schema). */
  append(
    table: string,
    fill: (appender: RowAppender) => void,
    options?: { readonly temp?: boolean; readonly database?: string }
  ): Effect.Effect<void, DatabaseError>
}

/** A DuckDB database: what the pipelines' staging side (`Staging`) always is. */
export interface DuckDbShape extends DuckDbTx {
  transaction<A, E, R>(f: (tx: DuckDbTx) => Effect.Effect<A, E, R>): Effect.Effect<A, E | DatabaseError, R>
  readonly path: string
}

export const toError = (sql: string) => (cause: unknown) =>
  new DatabaseError({
    message: `${cause instanceof Error ? cause.message : String(cause)} [sql: ${sql.slice(0, 200)}]`,
    cause
  })

/** A Schema of one row, decoded without services. */
export type RowSchema = Schema.Decoder<unknown>

/**
 * Decodes all rows of one query at once (one Schema run per query, not per
 * row); the issue's path names the row index and the column.
 */
export const decodeRows = <S extends RowSchema>(row: S, sql: string) => {
  const decode = Schema.decodeUnknownResult(Schema.Array(row))
  return (rows: Array<Row>): Effect.Effect<ReadonlyArray<S["Type"]>, DatabaseError> => {
    const result = decode(rows)
    if (Result.isSuccess(result)) return Effect.succeed(result.success)
    const issue = result.failure.message.replace(/\s*\n\s*/g, " ")
    return Effect.fail(
      new DatabaseError({
        message: `row does not match its schema: ${issue} [sql: ${sql.slice(0, 200)}]`,
        cause: result.failure
      })
    )
  }
}

/** An identifier (column, table) in SQL, quoted: both dialects quote with double quotes. */
export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`

/**
 * Optional filters, one builder: each `add` binds its value as the next
 * positional parameter and keeps its condition; `where` joins them (or is
 * empty). Start from existing `params` when the statement already binds some.
 */
export const filters = (params: Array<SqlValue> = []) => {
  const conditions: Array<string> = []
  return {
    params,
    /** `condition` receives the placeholder (`$3`) of `value`. */
    add(condition: (placeholder: string) => string, value: SqlValue) {
      params.push(value)
      conditions.push(condition(`$${params.length}`))
    },
    /** A condition without a parameter. */
    raw(condition: string) {
      conditions.push(condition)
    },
    where: () => (conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "")
  }
}

/** A column type both dialects spell alike. */
export type JsonColumnType = "VARCHAR" | "INTEGER" | "BIGINT" | "BOOLEAN" | "DOUBLE"

export const jsonRowsParam = (rows: ReadonlyArray<Readonly<Record<string, SqlValue>>>) => JSON.stringify(rows)
