import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection, type DuckDBValue } from "@duckdb/node-api"
import { Context, Effect, Layer, Option, Schema, Semaphore } from "effect"
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

/** The operations available inside a transaction (one connection, one writer). */
export interface Tx {
  query<T = Row>(sql: string, params?: Params): Effect.Effect<Array<T>, DatabaseError>
  run(sql: string, params?: Params): Effect.Effect<void, DatabaseError>
  /**
   * DuckDB's Appender: the fastest bulk insert; flushed and closed for you.
   * `temp`: the table is a TEMP table of this connection (never written to the file).
   */
  append(table: string, fill: (appender: DuckDBAppender) => void, options?: { readonly temp?: boolean }): Effect.Effect<void, DatabaseError>
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
  new DatabaseError({ message: `${cause instanceof Error ? cause.message : String(cause)} [sql: ${sql.slice(0, 200)}]`, cause })

const makeTx = (connection: DuckDBConnection): Tx => ({
  query: <T = Row>(sql: string, params?: Params) =>
    Effect.tryPromise({
      try: async () => (await connection.runAndReadAll(sql, params as never)).getRowObjectsJS() as Array<T>,
      catch: toError(sql)
    }),
  run: (sql, params) =>
    Effect.tryPromise({ try: () => connection.run(sql, params as never), catch: toError(sql) }).pipe(Effect.asVoid),
  append: (table, fill, options) =>
    Effect.tryPromise({
      try: async () => {
        const appender = options?.temp === true ? await connection.createAppender(table, "main", "temp") : await connection.createAppender(table)
        try {
          fill(appender)
          appender.flushSync()
        } finally {
          appender.closeSync()
        }
      },
      catch: toError(`APPEND ${table}`)
    })
})

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
    Effect.gen(function*() {
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
      const writer = makeTx(yield* connect)
      const pool: Array<Tx> = []
      for (let i = 0; i < readers; i++) pool.push(makeTx(yield* connect))
      let next = 0
      const reader = () => pool[next++ % pool.length]
      const writeLock = yield* Semaphore.make(1)

      yield* migrate(writer)

      const transaction = <A, E, R>(f: (tx: Tx) => Effect.Effect<A, E, R>) =>
        writeLock.withPermits(1)(
          Effect.uninterruptibleMask((restore) =>
            Effect.gen(function*() {
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
    Effect.gen(function*() {
      const config = yield* AppConfig
      const threads = Option.getOrElse(config.duckdbThreads, defaultThreads)
      const memoryLimit = Option.getOrElse(config.duckdbMemoryLimit, () => DEFAULT_MEMORY_LIMIT)
      return yield* Database.make(`${config.dataDir}/catalog.duckdb`, 4, threads, memoryLimit)
    })
  )

  /** An in-memory database, for tests of code that does not care about files. */
  static readonly layerMemory = Layer.effect(Database, Database.make(":memory:"))
}
