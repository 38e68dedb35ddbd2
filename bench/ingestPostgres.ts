import { Effect, Exit, Redacted, Scope } from "effect"
import { createReadStream } from "node:fs"
import { join } from "node:path"
import { pipeline } from "node:stream/promises"
import { Database, type DatabaseShape } from "../infra/Database.ts"
import { makePgDatabase } from "../infra/PgDatabase.ts"
import { connectPostgres } from "../infra/postgres/client.ts"
import {
  asPostgresText,
  copyStagedRows,
  postgresColumns,
  quoted,
  stagedColumns,
  stagedPages
} from "../pipelines/publish/copyStagedRows.ts"
import { startEmbeddedPostgres } from "./support/embeddedPostgres.ts"
import { machineLoad } from "./support/machineLoad.ts"

// bench:ingest --postgres: the same feed file loaded into DuckDB alone and
// with PostgreSQL as the system of record (DuckDB staging, then the publish),
// then three ways of moving a feed's staged rows into PostgreSQL, each in
// one transaction that deletes the feed's rows first (what a publish does):
//   a. pages read from DuckDB into Node, each ONE INSERT over a JSON text
//      parameter (what CatalogPublisher ships: errors surface, see copyStagedRows.ts);
//   b. the same pages through the seam's append (RowAppender -> COPY text);
//   c. DuckDB `COPY ... TO` a CSV file, streamed into `COPY ... FROM STDIN (FORMAT csv)`.

interface Timed<A> {
  readonly value: A
  readonly ms: number
  readonly load: string
}
interface Loaded {
  readonly loaded: Timed<{ readonly rowsLoaded: number }>
  readonly fetched: Timed<unknown>
}

interface Context {
  readonly file: string
  readonly work: string
  readonly rows: number
  readonly loadOnly: (databaseUrl?: string) => Promise<Loaded>
  readonly seconds: (ms: number) => string
  readonly times: (ratio: number | null) => string
}

const timed = async <A>(f: () => Promise<A>): Promise<Timed<A>> => {
  const started = performance.now()
  const value = await f()
  return { value, ms: performance.now() - started, load: machineLoad() }
}

const FEED_ROWS = "feed = 'bench'"

/** a. the shipped path (CatalogPublisher's copy), in one PostgreSQL transaction. */
const viaInsert = (staging: DatabaseShape, pg: DatabaseShape) =>
  pg.transaction((tx) =>
    Effect.gen(function* () {
      yield* tx.run(`DELETE FROM products WHERE ${FEED_ROWS}`)
      yield* copyStagedRows(staging, tx, "products", FEED_ROWS, [])
    })
  )

/** b. the same pages through the seam's append (COPY text format). */
const viaAppender = (staging: DatabaseShape, pg: DatabaseShape) =>
  pg.transaction((tx) =>
    Effect.gen(function* () {
      yield* tx.run(`DELETE FROM products WHERE ${FEED_ROWS}`)
      const columns = yield* postgresColumns(tx, "products")
      yield* stagedPages(staging, "products", columns, FEED_ROWS, [], (rows) =>
        tx.append("products", (appender) => {
          for (const row of rows) {
            for (const column of columns) {
              const value = row[column.name]
              if (value === null || value === undefined) appender.appendNull()
              else appender.appendVarchar(value)
            }
            appender.endRow()
          }
        })
      )
    })
  )

/** c. DuckDB writes a CSV of PostgreSQL input text; postgres.js streams it into COPY. */
const viaCsv = async (staging: DatabaseShape, pg: DatabaseShape, url: string, csv: string) => {
  const columns = await Effect.runPromise(postgresColumns(pg, "products"))
  const stagedTypes = new Map(
    (await Effect.runPromise(stagedColumns(staging, "products"))).map((c) => [c.name, c.type] as const)
  )
  const select = columns.map((c) => asPostgresText(c.name, stagedTypes.get(c.name) ?? "VARCHAR")).join(", ")
  await Effect.runPromise(
    staging.run(`COPY (SELECT ${select} FROM products WHERE ${FEED_ROWS}) TO '${csv}' (FORMAT csv, HEADER false)`)
  )
  const sql = connectPostgres(url, 1)
  try {
    await sql.begin(async (tx) => {
      await tx.unsafe(`DELETE FROM products WHERE ${FEED_ROWS}`)
      const target = await tx
        .unsafe(`COPY products (${columns.map((c) => quoted(c.name)).join(", ")}) FROM STDIN (FORMAT csv)`)
        .writable()
      await pipeline(createReadStream(csv), target)
    })
  } finally {
    await sql.end()
  }
}

export const comparePostgres = async ({ work, rows, loadOnly, seconds, times }: Context) => {
  const duck = await loadOnly()
  process.stderr.write(`into DuckDB: ${seconds(duck.loaded.ms)} (${duck.loaded.load})\n`)
  const server = await startEmbeddedPostgres()
  const scope = Effect.runSync(Scope.make())
  try {
    const pg = await loadOnly(server.url)
    process.stderr.write(`into PostgreSQL: ${seconds(pg.loaded.ms)} (${pg.loaded.load})\n`)

    // The two publish paths, over the staging file the PostgreSQL run left.
    const staging = await Effect.runPromise(
      Database.make(join(work, "pg", "staging.duckdb")).pipe(Scope.provide(scope))
    )
    const pgDb = await Effect.runPromise(
      makePgDatabase({ url: Redacted.make(server.url), poolSize: 2 }).pipe(Scope.provide(scope))
    )
    const insert = await timed(() => Effect.runPromise(viaInsert(staging, pgDb)))
    const appender = await timed(() => Effect.runPromise(viaAppender(staging, pgDb)))
    const csv = await timed(() => viaCsv(staging, pgDb, server.url, join(work, "publish.csv")))
    const insertAgain = await timed(() => Effect.runPromise(viaInsert(staging, pgDb)))

    const line = (label: string, ms: number, base: number | null, load: string) =>
      console.log(
        `${label.padEnd(60)} ${seconds(ms).padStart(9)} ${times(base === null ? null : ms / base).padStart(7)}   (${load})`
      )
    console.log(
      `\nbench:ingest --postgres, ${rows.toLocaleString("en-US")} products (gmc-tsv); PostgreSQL 18 (embedded, same host)`
    )
    line("fetch + load into DuckDB alone (baseline)", duck.fetched.ms + duck.loaded.ms, null, duck.loaded.load)
    line(
      "fetch + load into PostgreSQL (DuckDB staging + publish)",
      pg.fetched.ms + pg.loaded.ms,
      duck.fetched.ms + duck.loaded.ms,
      pg.loaded.load
    )
    line("publish a: INSERT over JSON pages (shipped)", insert.ms, null, insert.load)
    line("publish b: the same pages via append (COPY text)", appender.ms, insert.ms, appender.load)
    line("publish c: DuckDB COPY TO csv + COPY FROM STDIN csv", csv.ms, insert.ms, csv.load)
    line("publish a again (order effects)", insertAgain.ms, insert.ms, insertAgain.load)
    console.log(
      `rows loaded: DuckDB ${duck.loaded.value.rowsLoaded}, PostgreSQL ${pg.loaded.value.rowsLoaded}; ratios: the PostgreSQL load vs the DuckDB baseline, publish b and c vs publish a`
    )
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await server.stop()
  }
}
