import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from "@duckdb/node-api"
import { Context, Effect, Layer, Option, Result, Schema, Semaphore } from "effect"
import { mkdirSync } from "node:fs"
import { availableParallelism } from "node:os"
import { dirname, join } from "node:path"
import { AppConfig } from "./AppConfig.ts"
import { makePgDatabase } from "./PgDatabase.ts"
import { migrate } from "./schema.ts"
import type { DialectName, SqlDialect } from "./SqlDialect.ts"

export class DatabaseError extends Schema.TaggedError<DatabaseError>()("DatabaseError", {
  message: Schema.String,
  cause: Schema.Defect()
}) {}

export type Row = Record<string, unknown>
export type Params = ReadonlyArray<DuckDBValue> | Record<string, DuckDBValue>

// The storage seam, with two implementations: DuckDB (below; the embedded
// default) and PostgreSQL (PgDatabase.ts, when DATABASE_URL is set).
// - `query`/`queryAs`/`run` bind `$1..$n`; rows are plain objects with the
//   same JS value types on both (PgDatabase.ts maps PostgreSQL's types to what
//   DuckDB's `getRowObjectsJS()` gives). Named parameters (`$feed`) are
//   DuckDB-only: that SQL belongs to the pipelines' staging side (`Staging`).
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
   * `database`: DuckDB only, the attached database the table is in (its main schema).
   */
  append(
    table: string,
    fill: (appender: RowAppender) => void,
    options?: { readonly temp?: boolean; readonly database?: string }
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
    dialect: "duckdb",
    sql: duckDbSql,
    sharedWithReplicas: false,
    jsonRows: duckJsonRows,
    jsonList: duckJsonList,
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
            const catalog = options?.temp === true ? "temp" : options?.database
            const appender =
              catalog === undefined
                ? await connection.createAppender(table)
                : await connection.createAppender(table, "main", catalog)
            try {
              fill(appender)
              appender.flushSync()
            } finally {
              appender.closeSync()
            }
          },
          catch: toError(`APPEND ${table}`)
        })
      ),
    copyFromCsv: (table, columns, file) =>
      statement(
        Effect.tryPromise({
          try: () =>
            connection.run(
              `COPY ${table} (${columns.map(quoteIdent).join(", ")}) FROM '${file.replaceAll("'", "''")}'
               (FORMAT csv, HEADER false, ALLOW_QUOTED_NULLS false)`
            ),
          catch: toError(`COPY ${table} FROM ${file}`)
        })
      ).pipe(Effect.asVoid)
  }
}

/** DuckDB's spelling (infra/SqlDialect.ts). */
const duckDbSql: SqlDialect = {
  name: "duckdb",
  // epoch_ms is 3-4x cheaper than extract(epoch ...) on DuckDB (3M
  // TIMESTAMPTZ values: 55 vs 190 ms), and trending runs it once per click.
  epochMs: (timestamp) => `epoch_ms(${timestamp})`,
  utcMonth: (timestamp) => `strftime(${timestamp} AT TIME ZONE 'UTC', '%Y-%m')`,
  utcIsoSecond: (timestamp) => `strftime(${timestamp} AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ')`,
  // List lambdas: no correlated unnest per row.
  lowercaseLevels: (head, path, separator) =>
    `list_transform(list_filter(list_concat([${head}], string_split(${path}, '${separator}')),
         x -> x IS NOT NULL), x -> lower(trim(x)))`,
  // No row locks: one process, one writer (Database.transaction).
  lockRowsInOrder: () => "",
  // DuckDB's ON CONFLICT cannot name an expression index and mishandles one
  // whose key holds a NULL; its one serialised writer decides by lookup.
  skipDuplicatesOn: () => ""
}

/** An identifier (column, table) in SQL, quoted: both dialects quote with double quotes. */
export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`

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

/**
 * How much write-ahead log DuckDB gathers before it checkpoints it into the
 * file (its default is 16MB). Measured with click applies of 36k clicks (a
 * second of clicks at half our redirect peak) into one table, CPU per click
 * with the final CHECKPOINT counted: 16MB 1.60 µs, 32MB 1.18, 64MB 1.15,
 * 128MB 1.19, 256MB 1.19; the slowest apply 252, 131, 186, 331, 591 ms. Small
 * checkpoints rewrite the table's unfinished row group over and over; large
 * ones stall the one writer for longer and make the WAL replayed at start
 * longer.
 */
export const CHECKPOINT_THRESHOLD = "64MB"

/** Where DuckDB spills past its memory limit: beside the database file, under DATA_DIR. */
export const spillDirectory = (path: string) => join(dirname(path), "duckdb-spill")

export class Database extends Context.Service<Database, DatabaseShape>()("app/infra/Database") {
  /** Opens (or creates) a DuckDB file and brings its schema up to date. */
  static readonly make = (path: string, readers = 4, threads = defaultThreads(), memoryLimit = DEFAULT_MEMORY_LIMIT) =>
    Effect.gen(function* () {
      if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true })
      const options: Record<string, string> = {
        threads: String(threads),
        memory_limit: memoryLimit,
        checkpoint_threshold: CHECKPOINT_THRESHOLD
      }
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
        dialect: "duckdb",
        sql: duckDbSql,
        sharedWithReplicas: false,
        jsonRows: duckJsonRows,
        jsonList: duckJsonList,
        path,
        query: (sql, params) => reader().query(sql, params),
        queryAs: (row, sql, params) => reader().queryAs(row, sql, params),
        // Single statements outside a transaction still go through the writer
        // lock so they never race a running transaction.
        run: (sql, params) => writeLock.withPermits(1)(writer.run(sql, params)),
        append: (table, fill, options) => writeLock.withPermits(1)(writer.append(table, fill, options)),
        copyFromCsv: (table, columns, file) => writeLock.withPermits(1)(writer.copyFromCsv(table, columns, file)),
        transaction
      })
    })

  /** PostgreSQL when DATABASE_URL is set; otherwise the service's DuckDB file under DATA_DIR. */
  static readonly layer = Layer.effect(
    Database,
    Effect.gen(function* () {
      const config = yield* AppConfig
      if (Option.isSome(config.databaseUrl)) {
        return yield* makePgDatabase({ url: config.databaseUrl.value, poolSize: config.databasePoolSize })
      }
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

export const jsonRowsParam = (rows: ReadonlyArray<Readonly<Record<string, DuckDBValue>>>) => JSON.stringify(rows)

const duckJsonRows = (placeholder: string, columns: Readonly<Record<string, JsonColumnType>>) =>
  `(SELECT unnest(from_json(${placeholder}::JSON, '${JSON.stringify([columns])}'), recursive := true))`

const duckJsonList = (placeholder: string) => `(SELECT unnest(from_json(${placeholder}::JSON, '["VARCHAR"]')))`
