import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection, type DuckDBValue } from "@duckdb/node-api"
import { Context, Effect, Layer, Option, Result, Schema, Semaphore } from "effect"
import { mkdirSync } from "node:fs"
import { availableParallelism } from "node:os"
import { dirname, join } from "node:path"
import { AppConfig } from "./AppConfig.ts"
import { migrate } from "./schema.ts"

export class DatabaseError extends Schema.TaggedError<DatabaseError>()("DatabaseError", {
  message: Schema.String,
  cause: Schema.Defect()
}) {}

export type Row = Record<string, unknown>
export type Params = ReadonlyArray<DuckDBValue> | Record<string, DuckDBValue>

// The storage seam. A second implementation (PostgreSQL) must provide:
// - `query`/`queryAs`/`run` with `$1..$n` parameters, rows as plain objects
//   keyed by column name with JS values (text, number, boolean, Date,
//   arrays), failures as DatabaseError. Positional parameters are what both
//   dialects read; the pipelines' staging SQL (ProductLoader, PipelineRunner,
//   PriceHistoryLoader) also binds named ones (`$feed`), which PostgreSQL
//   lacks: rewrite them to positions as ai/deals' `bind` does, or keep that
//   SQL on the DuckDB staging side. `listValue` (ai/deals) is the one
//   DuckDB-only value a second implementation maps to an array;
// - `transaction` with one writer at a time and readers that keep their
//   snapshot until COMMIT;
// - `append` (DuckDB's Appender; COPY on PostgreSQL);
// - its own `jsonRows` and `jsonList` below (PostgreSQL: `json_to_recordset`
//   and `json_array_elements_text`): the SQL fragments that turn one JSON text
//   parameter into a table, which is how every bulk write binds its batch.
// Row schemas (`queryAs`) and `filters` are dialect-neutral and shared.

/** The operations available inside a transaction (one connection, one writer). */
export interface Tx {
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
   * DuckDB's Appender: the fastest bulk insert; flushed and closed for you.
   * `temp`: the table is a TEMP table of this connection (never written to the file).
   */
  append(
    table: string,
    fill: (appender: DuckDBAppender) => void,
    options?: { readonly temp?: boolean }
  ): Effect.Effect<void, DatabaseError>
}

export interface DatabaseShape extends Tx {
  /**
   * Runs `f` in one transaction on the writer connection. Writers queue on a
   * semaphore because DuckDB aborts conflicting concurrent writers; readers
   * keep using their own connections and see the snapshot from before COMMIT
   * until it lands, which is what makes feed replacement atomic for them.
   */
  transaction<A, E, R>(f: (tx: Tx) => Effect.Effect<A, E, R>): Effect.Effect<A, E | DatabaseError, R>
  /** The underlying file path, or ":memory:". */
  readonly path: string
}

const toError = (sql: string) => (cause: unknown) =>
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
const decodeRows = <S extends RowSchema>(row: S, sql: string) => {
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

// The binding takes mutable arrays; ours are read-only by contract.
const bind = (params: Params | undefined): Array<DuckDBValue> | Record<string, DuckDBValue> | undefined =>
  params === undefined ? undefined : isList(params) ? [...params] : params

const isList = (params: Params): params is ReadonlyArray<DuckDBValue> => Array.isArray(params)

const readRows = (connection: DuckDBConnection, sql: string, params?: Params) =>
  Effect.tryPromise({
    try: async () => (await connection.runAndReadAll(sql, bind(params))).getRowObjectsJS(),
    catch: toError(sql)
  })

/**
 * `settle`: the writer's statements finish before an interruption lands. An
 * interrupted promise does not stop DuckDB, so without it a run stopped at
 * shutdown would issue ROLLBACK, and close the connection, while its last
 * statement is still executing. Readers stay interruptible, so timeouts on
 * reads still cut them off.
 */
const makeTx = (connection: DuckDBConnection, settle: boolean): Tx => {
  const statement = <A>(effect: Effect.Effect<A, DatabaseError>) => (settle ? Effect.uninterruptible(effect) : effect)
  return {
    // The one unchecked step: the caller names the row type it expects.
    query: <T = Row>(sql: string, params?: Params) =>
      statement(readRows(connection, sql, params)).pipe(Effect.map((rows) => rows as Array<T>)),
    queryAs: (row, sql, params) =>
      statement(readRows(connection, sql, params)).pipe(Effect.flatMap(decodeRows(row, sql))),
    run: (sql, params) =>
      statement(Effect.tryPromise({ try: () => connection.run(sql, bind(params)), catch: toError(sql) })).pipe(
        Effect.asVoid
      ),
    append: (table, fill, options) =>
      statement(
        Effect.tryPromise({
          try: async () => {
            const appender =
              options?.temp === true
                ? await connection.createAppender(table, "main", "temp")
                : await connection.createAppender(table)
            try {
              fill(appender)
              appender.flushSync()
            } finally {
              appender.closeSync()
            }
          },
          catch: toError(`APPEND ${table}`)
        })
      )
  }
}

/**
 * DuckDB's worker threads: one core fewer than the machine has (at least one).
 * DuckDB defaults to every core, and its bulk work (a click batch, a feed
 * load) then competes with the event loop that answers redirects: measured on
 * 2 cores, the redirect's p99 at half load fell from 38 ms to 19 ms with one
 * DuckDB thread. DUCKDB_THREADS overrides it.
 */
export const defaultThreads = () => Math.max(1, availableParallelism() - 1)

/**
 * DuckDB's memory limit. Its own default is 80% of RAM, which on a 4 GB host
 * leaves nothing to Node and Meilisearch (a 1M-row feed load peaked at 2.8 GB
 * RSS); past the limit DuckDB spills to `temp_directory` instead of growing.
 * DUCKDB_MEMORY_LIMIT overrides it (DuckDB syntax: "2GB", "512MB").
 */
export const DEFAULT_MEMORY_LIMIT = "1GB"

/** Where DuckDB spills past its memory limit: beside the database file, under DATA_DIR. */
export const spillDirectory = (path: string) => join(dirname(path), "duckdb-spill")

export class Database extends Context.Service<Database, DatabaseShape>()("app/infra/Database") {
  /** Opens (or creates) a DuckDB file and brings its schema up to date. */
  static readonly make = (path: string, readers = 4, threads = defaultThreads(), memoryLimit = DEFAULT_MEMORY_LIMIT) =>
    Effect.gen(function* () {
      if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true })
      const options: Record<string, string> = { threads: String(threads), memory_limit: memoryLimit }
      if (path !== ":memory:") options.temp_directory = spillDirectory(path)
      const instance = yield* Effect.acquireRelease(
        Effect.tryPromise({ try: () => DuckDBInstance.create(path, options), catch: toError(`open ${path}`) }),
        (instance) => Effect.sync(() => instance.closeSync())
      )
      const connect = Effect.acquireRelease(
        Effect.tryPromise({ try: () => instance.connect(), catch: toError("connect") }),
        (connection) => Effect.sync(() => connection.closeSync())
      )
      const writer = makeTx(yield* connect, true)
      const pool: Array<Tx> = []
      for (let i = 0; i < readers; i++) pool.push(makeTx(yield* connect, false))
      let next = 0
      const reader = () => pool[next++ % pool.length]
      const writeLock = yield* Semaphore.make(1)

      yield* migrate(writer)

      const transaction = <A, E, R>(f: (tx: Tx) => Effect.Effect<A, E, R>) =>
        writeLock.withPermits(1)(
          Effect.uninterruptibleMask((restore) =>
            Effect.gen(function* () {
              yield* writer.run("BEGIN TRANSACTION")
              const exit = yield* Effect.exit(restore(f(writer)))
              if (exit._tag === "Success") {
                yield* writer.run("COMMIT")
              } else {
                yield* writer.run("ROLLBACK").pipe(Effect.ignore)
              }
              return yield* exit
            })
          )
        )

      return Database.of({
        path,
        query: (sql, params) => reader().query(sql, params),
        queryAs: (row, sql, params) => reader().queryAs(row, sql, params),
        // Single statements outside a transaction still go through the writer
        // lock so they never race a running transaction.
        run: (sql, params) => writeLock.withPermits(1)(writer.run(sql, params)),
        append: (table, fill, options) => writeLock.withPermits(1)(writer.append(table, fill, options)),
        transaction
      })
    })

  /** The service's DuckDB file under DATA_DIR. */
  static readonly layer = Layer.effect(
    Database,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const threads = Option.getOrElse(config.duckdbThreads, defaultThreads)
      const memoryLimit = Option.getOrElse(config.duckdbMemoryLimit, () => DEFAULT_MEMORY_LIMIT)
      return yield* Database.make(`${config.dataDir}/catalog.duckdb`, 4, threads, memoryLimit)
    })
  )

  /** An in-memory database, for tests of code that does not care about files. */
  static readonly layerMemory = Layer.effect(Database, Database.make(":memory:"))
}

/**
 * Optional filters, one builder: each `add` binds its value as the next
 * positional parameter and keeps its condition; `where` joins them (or is
 * empty). Start from existing `params` when the statement already binds some.
 */
export const filters = (params: Array<DuckDBValue> = []) => {
  const conditions: Array<string> = []
  return {
    params,
    /** `condition` receives the placeholder (`$3`) of `value`. */
    add(condition: (placeholder: string) => string, value: DuckDBValue) {
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

/**
 * A batch as ONE JSON text parameter, read as a table in SQL: binding
 * thousands of scalar or list parameters costs DuckDB and the Node binding far
 * more (measured: 5,000 rows in ~0.1 s this way, ~1 s as lists). Returns the
 * table expression (columns named as in `columns`) for `FROM`/`JOIN`; bind
 * `jsonRowsParam(rows)` at `placeholder`. Send decimals and timestamps as
 * VARCHAR and cast in SQL, so they stay exact.
 */
export const jsonRows = (placeholder: string, columns: Readonly<Record<string, JsonColumnType>>) =>
  `(SELECT unnest(from_json(${placeholder}::JSON, '${JSON.stringify([columns])}'), recursive := true))`

export const jsonRowsParam = (rows: ReadonlyArray<Readonly<Record<string, DuckDBValue>>>) => JSON.stringify(rows)

/** A list of texts as one JSON parameter, for `x IN ${jsonList("$1")}`; bind `JSON.stringify(values)`. */
export const jsonList = (placeholder: string) => `(SELECT unnest(from_json(${placeholder}::JSON, '["VARCHAR"]')))`
