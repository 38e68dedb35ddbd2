import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from "@duckdb/node-api"
import { Effect, Semaphore } from "effect"
import { mkdirSync } from "node:fs"
import { availableParallelism } from "node:os"
import { dirname, join } from "node:path"
import { migrate } from "./schema.ts"
import type { SqlDialect } from "./SqlDialect.ts"
import {
  type DatabaseError,
  type DatabaseShape,
  decodeRows,
  type DuckDbParams,
  type DuckDbShape,
  type DuckDbTx,
  type JsonColumnType,
  quoteIdent,
  type Row,
  type SqlValue,
  toError
} from "./Store.ts"

// DuckDB behind the storage seam (Store.ts): the embedded default, one
// process owning one file.

// The binding takes mutable arrays; ours are read-only by contract.
const bind = (params: DuckDbParams | undefined): Array<DuckDBValue> | Record<string, DuckDBValue> | undefined =>
  params === undefined ? undefined : isList(params) ? [...params] : params

const isList = (params: DuckDbParams): params is ReadonlyArray<SqlValue> => Array.isArray(params)

/** Statements under way on a connection, counted until DuckDB has finished them (an interrupted read goes on running). */
interface Running {
  count: number
}

const readRows = (connection: DuckDBConnection, sql: string, params?: DuckDbParams, running?: Running) =>
  Effect.tryPromise({
    try: async () => {
      if (running !== undefined) running.count++
      try {
        return (await connection.runAndReadAll(sql, bind(params))).getRowObjectsJS()
      } finally {
        if (running !== undefined) running.count--
      }
    },
    catch: toError(sql)
  })

/** How long a closing connection waits for DuckDB to stop the statements it was told to interrupt. */
const CLOSE_WAIT_MS = 5_000

/**
 * Closes a connection once DuckDB has stopped its statements. An interrupted
 * read goes on running in DuckDB, and closing its connection does not stop
 * it: the process then stayed alive after shutdown until the statement ended
 * by itself (test/infra/duckDbReaders.test.ts). So a reader's statements still
 * under way are interrupted first. The writer's never are: they settle.
 */
const closeConnection = (connection: DuckDBConnection, running?: Running) =>
  Effect.gen(function* () {
    for (let waited = 0; running !== undefined && running.count > 0 && waited < CLOSE_WAIT_MS; waited += 10) {
      connection.interrupt()
      // a timer of its own, not Effect's clock: a test's TestClock would never let this wait end
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 10)))
    }
    connection.closeSync()
  })

/**
 * `settle`: the writer's statements finish before an interruption lands. An
 * interrupted promise does not stop DuckDB, so without it a run stopped at
 * shutdown would issue ROLLBACK, and close the connection, while its last
 * statement is still executing. Readers stay interruptible, so timeouts on
 * reads still cut them off.
 */
const makeTx = (connection: DuckDBConnection, settle: boolean, running?: Running): DuckDbTx => {
  const statement = <A>(effect: Effect.Effect<A, DatabaseError>) => (settle ? Effect.uninterruptible(effect) : effect)
  return {
    dialect: "duckdb",
    sql: duckDbSql,
    sharedWithReplicas: false,
    jsonRows: duckJsonRows,
    jsonList: duckJsonList,
    // The one unchecked step: the caller names the row type it expects.
    query: <T = Row>(sql: string, params?: DuckDbParams) =>
      statement(readRows(connection, sql, params, running)).pipe(Effect.map((rows) => rows as Array<T>)),
    queryAs: (row, sql, params) =>
      statement(readRows(connection, sql, params, running)).pipe(Effect.flatMap(decodeRows(row, sql))),
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

/**
 * Past how large a release of memory at once DuckDB hands its allocator's
 * free pages back to the system (malloc_trim; its default is 512MB). Its
 * memory limit bounds its buffer pool only: the memory a finished query's
 * hash tables and sorts freed stays in the process's RSS until trimmed.
 * Measured on 1M rows (threads 1, 1GB limit, three rounds of a join and a
 * sort into an in-memory table): RSS after 1,713 MB by default, 1,390 MB at
 * 32MB, with DuckDB's own accounting at 334 MB in both.
 */
export const BULK_DEALLOCATION_FLUSH_THRESHOLD = "32MiB"

/**
 * The memory DuckDB's allocator (jemalloc) keeps after its work, handed back
 * to the system: past this peak a finished task flushes what it cached (its
 * default is 128MiB), and a background thread of the allocator purges freed
 * pages as they age instead of at the next allocation (off by default).
 * Measured loading the 1M-product bench feed (read_csv into a staging
 * table, then into a table of the file; one thread, 1GB limit): peak RSS
 * 1,246 MB by default, 1,104 MB with both; RSS after 1,068 and 882 MB.
 */
export const ALLOCATOR_FLUSH_THRESHOLD = "16MiB"

/** Where DuckDB spills past its memory limit: beside the database file, under DATA_DIR. */
export const spillDirectory = (path: string) => join(dirname(path), "duckdb-spill")

/**
 * The DuckDB behind `db`, typed as such, or undefined when `db` is another
 * store: how the staging side reuses the service's own DuckDB file.
 */
export const asDuckDb = (db: DatabaseShape): DuckDbShape | undefined =>
  db.dialect === "duckdb" ? (db as DuckDbShape) : undefined

/** Opens (or creates) a DuckDB file and brings its schema up to date. */
export const makeDuckDbDatabase = (
  path: string,
  readers = 4,
  threads = defaultThreads(),
  memoryLimit = DEFAULT_MEMORY_LIMIT
) =>
  Effect.gen(function* () {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true })
    const options: Record<string, string> = {
      threads: String(threads),
      memory_limit: memoryLimit,
      checkpoint_threshold: CHECKPOINT_THRESHOLD,
      allocator_bulk_deallocation_flush_threshold: BULK_DEALLOCATION_FLUSH_THRESHOLD,
      allocator_flush_threshold: ALLOCATOR_FLUSH_THRESHOLD,
      allocator_background_threads: "true"
    }
    if (path !== ":memory:") options.temp_directory = spillDirectory(path)
    const instance = yield* Effect.acquireRelease(
      Effect.tryPromise({ try: () => DuckDBInstance.create(path, options), catch: toError(`open ${path}`) }),
      (instance) => Effect.sync(() => instance.closeSync())
    )
    const connect = (running?: Running) =>
      Effect.acquireRelease(
        Effect.tryPromise({ try: () => instance.connect(), catch: toError("connect") }),
        (connection) => closeConnection(connection, running)
      )
    const writer = makeTx(yield* connect(), true)
    // Each read goes to the reader connection with the fewest statements
    // under way (the next in turn among equals): a connection runs one
    // statement at a time, so taking them in turn put a redirect's link
    // lookup behind a search sync's COPY of a batch (seconds) one time in four.
    const pool: Array<{ readonly tx: DuckDbTx; readonly running: Running }> = []
    for (let i = 0; i < readers; i++) {
      const running: Running = { count: 0 }
      pool.push({ tx: makeTx(yield* connect(running), false, running), running })
    }
    let next = 0
    const reader = () => {
      const start = next++
      let best = pool[start % pool.length]
      for (let i = 1; i < pool.length && best.running.count > 0; i++) {
        const candidate = pool[(start + i) % pool.length]
        if (candidate.running.count < best.running.count) best = candidate
      }
      return best.tx
    }
    const writeLock = yield* Semaphore.make(1)

    // A crashed process leaves its last writes in the write-ahead log, replayed
    // on this open. DuckDB 1.5 persists the indexes wrongly if this session
    // writes before the replayed rows are checkpointed, and the next UPDATE of
    // such a row then kills the database (test/infra/walRecovery.test.ts); a
    // checkpoint before anything else writes them down as they are. Nearly free
    // after a clean stop: the log is empty then.
    yield* writer.run("CHECKPOINT")
    yield* migrate(writer)

    const transaction = <A, E, R>(f: (tx: DuckDbTx) => Effect.Effect<A, E, R>) =>
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

    const database: DuckDbShape = {
      dialect: "duckdb",
      sql: duckDbSql,
      sharedWithReplicas: false,
      jsonRows: duckJsonRows,
      jsonList: duckJsonList,
      path,
      // chosen as the read starts, not when its effect is built
      query: (sql, params) => Effect.suspend(() => reader().query(sql, params)),
      queryAs: (row, sql, params) => Effect.suspend(() => reader().queryAs(row, sql, params)),
      // Single statements outside a transaction still go through the writer
      // lock so they never race a running transaction.
      run: (sql, params) => writeLock.withPermits(1)(writer.run(sql, params)),
      append: (table, fill, options) => writeLock.withPermits(1)(writer.append(table, fill, options)),
      copyFromCsv: (table, columns, file) => writeLock.withPermits(1)(writer.copyFromCsv(table, columns, file)),
      transaction
    }
    return database
  })

const duckJsonRows = (placeholder: string, columns: Readonly<Record<string, JsonColumnType>>) =>
  `(SELECT unnest(from_json(${placeholder}::JSON, '${JSON.stringify([columns])}'), recursive := true))`

const duckJsonList = (placeholder: string) => `(SELECT unnest(from_json(${placeholder}::JSON, '["VARCHAR"]')))`
