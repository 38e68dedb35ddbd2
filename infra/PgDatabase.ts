import { Effect, Redacted, Semaphore } from "effect"
import { createReadStream } from "node:fs"
import { Readable } from "node:stream"
import {
  DatabaseError,
  type DatabaseShape,
  decodeRows,
  type JsonColumnType,
  type Params,
  quoteIdent,
  type Row,
  type SqlValue,
  toError,
  type Tx
} from "./Store.ts"
import { type PgValue, queryCancellable } from "./postgres/cancellableQuery.ts"
import type { Sql } from "./postgres/client.ts"
import { type Connections, openConnections } from "./postgres/connections.ts"
import { copyIn } from "./postgres/copyIn.ts"
import { CopyRows } from "./postgres/copyRows.ts"
import { migratePostgres } from "./postgres/migrate.ts"
import type { SqlDialect } from "./SqlDialect.ts"

// PostgreSQL behind the same seam as DuckDB (Database.ts), over postgres.js,
// which is wrapped here once (the pool and its type mapping: postgres/client.ts).

const JSON_TYPES: Readonly<Record<JsonColumnType, string>> = {
  VARCHAR: "text",
  INTEGER: "integer",
  BIGINT: "bigint",
  BOOLEAN: "boolean",
  DOUBLE: "double precision"
}

export const pgJsonRows = (placeholder: string, columns: Readonly<Record<string, JsonColumnType>>) => {
  const definition = Object.entries(columns)
    .map(([name, type]) => `${quoteIdent(name)} ${JSON_TYPES[type]}`)
    .join(", ")
  return `(SELECT * FROM json_to_recordset(${placeholder}::json) AS r(${definition}))`
}

export const pgJsonList = (placeholder: string) => `(SELECT json_array_elements_text(${placeholder}::json))`

/** PostgreSQL's spelling (infra/SqlDialect.ts). */
const postgresSql: SqlDialect = {
  name: "postgres",
  epochMs: (timestamp) => `(extract(epoch FROM ${timestamp}) * 1000)::FLOAT8`,
  utcMonth: (timestamp) => `to_char(${timestamp} AT TIME ZONE 'UTC', 'YYYY-MM')`,
  utcIsoSecond: (timestamp) => `to_char(${timestamp} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
  // No lambdas on PostgreSQL: an ARRAY subquery over unnest.
  lowercaseLevels: (head, path, separator) =>
    `ARRAY(SELECT lower(trim(x)) FROM unnest(array_prepend(${head},
         string_to_array(${path}, '${separator}'))) AS levels(x) WHERE x IS NOT NULL)`,
  // A writer on another replica waits, then reads what this one wrote.
  lockRowsInOrder: (orderBy) => `ORDER BY ${orderBy} FOR UPDATE`,
  skipDuplicatesOn: (key) => `ON CONFLICT (${key}) DO NOTHING`
}

// Parameters are primitives by type; a value that reaches here as an object
// anyway (a row value passed back untyped) is sent as its text, as DuckDB would cast it.
const toPg = (value: SqlValue): PgValue =>
  value === null || typeof value !== "object" || (value as unknown) instanceof Date ? value : String(value)

const positional = (sql: string, params: Params | undefined): Effect.Effect<Array<PgValue>, DatabaseError> => {
  // Named parameters are DuckDB's alone (Store.ts DuckDbParams): the type
  // keeps them from here; an untyped caller still gets an error, not a bind.
  if (params === undefined) return Effect.succeed([])
  if (!Array.isArray(params)) {
    return Effect.fail(
      new DatabaseError({
        message: `named parameters are DuckDB-only; this SQL belongs to the staging side [sql: ${sql.slice(0, 200)}]`,
        cause: undefined
      })
    )
  }
  return Effect.succeed(params.map(toPg))
}

// A table name goes into COPY unquoted (it may carry a schema); anything
// else than plain identifiers is refused rather than spliced into SQL.
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/

/**
 * Where a Tx's statements go: the pool, where each statement outside a
 * transaction runs on a connection of its own and an interruption cancels it
 * server-side (postgres/cancellableQuery.ts); or a transaction's reserved
 * connection, whose statements settle before an interruption lands, as on DuckDB.
 */
interface Target {
  readonly query: (text: string, values: Array<PgValue>, signal: AbortSignal) => Promise<Array<Row>>
  readonly copy: (statement: string, source: Readable) => Promise<void>
  readonly settle: boolean
}

const poolTarget = (connections: Connections): Target => ({
  query: (text, values, signal) => queryCancellable(connections, text, values, signal),
  copy: async (statement, source) => {
    const sql = await connections.take()
    try {
      await copyIn(sql, statement, source)
    } finally {
      connections.give(sql)
    }
  },
  settle: false
})

const transactionTarget = (sql: Sql): Target => ({
  query: (text, values) => sql.unsafe<Array<Row>>(text, values),
  copy: (statement, source) => copyIn(sql, statement, source),
  settle: true
})

const makeTx = (target: Target): Tx => {
  const statement = <A>(effect: Effect.Effect<A, DatabaseError>) =>
    target.settle ? Effect.uninterruptible(effect) : effect
  const execute = (text: string, params: Params | undefined) =>
    statement(
      positional(text, params).pipe(
        Effect.flatMap((values) =>
          Effect.tryPromise({
            try: (signal) => target.query(text, values, signal),
            catch: toError(text)
          })
        )
      )
    )
  return {
    dialect: "postgres",
    sql: postgresSql,
    sharedWithReplicas: true,
    jsonRows: pgJsonRows,
    jsonList: pgJsonList,
    query: <T = Row>(text: string, params?: Params) =>
      execute(text, params).pipe(Effect.map((rows) => rows as Array<T>)),
    queryAs: (row, text, params) => execute(text, params).pipe(Effect.flatMap(decodeRows(row, text))),
    run: (text, params) => Effect.asVoid(execute(text, params)),
    append: (table, fill, options) =>
      statement(
        Effect.tryPromise({
          try: async () => {
            if (!TABLE_NAME.test(table)) throw new Error(`not a table name: ${table}`)
            // pg_temp names this connection's TEMP table, as DuckDB's "temp" catalog does.
            const into = options?.temp === true ? `pg_temp.${table}` : table
            const rows = new CopyRows()
            fill(rows)
            const chunks = rows.finish()
            if (chunks.length === 0) return
            await target.copy(`COPY ${into} FROM STDIN`, Readable.from(chunks))
          },
          catch: toError(`COPY ${table}`)
        })
      ),
    copyFromCsv: (table, columns, file) =>
      statement(
        Effect.tryPromise({
          try: () => {
            if (!TABLE_NAME.test(table)) throw new Error(`not a table name: ${table}`)
            return target.copy(
              `COPY ${table} (${columns.map(quoteIdent).join(", ")}) FROM STDIN (FORMAT csv)`,
              createReadStream(file)
            )
          },
          catch: toError(`COPY ${table} FROM ${file}`)
        })
      )
  }
}

/** The URL without its password, for logs and `path`. */
const withoutPassword = (url: string) => {
  const parsed = new URL(url)
  parsed.password = ""
  return parsed.toString()
}

export interface PgOptions {
  readonly url: Redacted.Redacted<string>
  readonly poolSize: number
}

/** Opens a pool, applies the migrations (infra/postgres/migrate.ts) and serves the seam. */
export const makePgDatabase = (options: PgOptions) =>
  Effect.gen(function* () {
    const url = Redacted.value(options.url)
    const connections = yield* Effect.acquireRelease(
      Effect.sync(() => openConnections(url, options.poolSize)),
      (connections) => Effect.promise(() => connections.end())
    )
    yield* migratePostgres(connections.first)
    const pool = makeTx(poolTarget(connections))
    // Transactions stay serialised per process, as on DuckDB: the features'
    // read-then-write transactions (dedup checks, journal positions) were
    // written for one writer at a time, and a per-process queue keeps that
    // until each is ported to rely on constraints alone. Other processes are
    // not serialised by it: what must hold across replicas lives in the database.
    const writeLock = yield* Semaphore.make(1)

    const transaction = <A, E, R>(f: (tx: Tx) => Effect.Effect<A, E, R>) =>
      writeLock.withPermits(1)(
        Effect.uninterruptibleMask((restore) =>
          Effect.acquireUseRelease(
            Effect.promise(() => connections.take()),
            (connection) =>
              Effect.gen(function* () {
                const tx = makeTx(transactionTarget(connection))
                yield* tx.run("BEGIN")
                const exit = yield* Effect.exit(restore(f(tx)))
                if (exit._tag === "Success") yield* tx.run("COMMIT")
                else yield* tx.run("ROLLBACK").pipe(Effect.ignore)
                return yield* exit
              }),
            (connection) => Effect.sync(() => connections.give(connection))
          )
        )
      )

    // Single statements outside a transaction go straight to the pool, without
    // the queue DuckDB needs there: PostgreSQL makes a conflicting writer wait
    // on the row lock instead of aborting it.
    const database: DatabaseShape = {
      ...pool,
      path: withoutPassword(url),
      // A TEMP table belongs to one connection, and the pool's are interchangeable.
      append: (table, fill, appendOptions) =>
        appendOptions?.temp === true
          ? Effect.fail(
              new DatabaseError({
                message: `append to TEMP table ${table} outside a transaction: on PostgreSQL a TEMP table lives on the transaction's connection`,
                cause: undefined
              })
            )
          : pool.append(table, fill),
      transaction
    }
    return database
  })
