import { Effect, Exit, Redacted, Scope } from "effect"
import { join } from "node:path"
import {
  Database,
  type DatabaseError,
  type DatabaseShape,
  jsonRowsParam,
  quoteIdent,
  type Tx
} from "../infra/Database.ts"
import { makePgDatabase } from "../infra/PgDatabase.ts"
import { type Column, copyStagedRows, stagedTextQuery, tableColumns } from "../pipelines/publish/copyStagedRows.ts"
import { startEmbeddedPostgres } from "./support/embeddedPostgres.ts"
import { machineLoad } from "./support/machineLoad.ts"

// bench:ingest --postgres: the same feed file loaded into DuckDB alone and
// with PostgreSQL as the system of record (DuckDB staging, then the publish),
// then three ways of moving a feed's staged rows into PostgreSQL, each in one
// transaction that deletes the feed's rows first (what a publish does):
//   a. DuckDB `COPY (...) TO` a CSV file, loaded by COPY FROM STDIN (shipped:
//      pipelines/publish/copyStagedRows.ts);
//   b. pages of rows read from DuckDB into Node, each ONE INSERT over a JSON text parameter;
//   c. the same pages through the seam's append (RowAppender -> COPY text format).

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
const PAGE_ROWS = 20_000

type TextRow = Record<string, string | null>
type Writer = (
  pg: Tx
) => (columns: ReadonlyArray<Column>, rows: ReadonlyArray<TextRow>) => Effect.Effect<void, DatabaseError>

/** One transaction: delete the feed's rows, then write the staged ones page by page with `write`. */
const viaPages = (staging: DatabaseShape, pg: DatabaseShape, write: Writer) =>
  pg.transaction((tx) =>
    Effect.gen(function* () {
      yield* tx.run(`DELETE FROM products WHERE ${FEED_ROWS}`)
      const columns = yield* tableColumns(tx, "products")
      const select = stagedTextQuery(yield* tableColumns(staging, "products"), columns, "products", FEED_ROWS)
      const page = `SELECT * FROM (${select.replace("SELECT ", "SELECT rowid AS _k, ")}) WHERE _k > $1 ORDER BY _k LIMIT ${PAGE_ROWS}`
      let after = -1n
      for (;;) {
        const rows = yield* staging.query<TextRow & { _k: bigint }>(page, [after])
        if (rows.length === 0) return
        after = rows[rows.length - 1]._k
        yield* write(tx)(
          columns,
          rows.map(({ _k, ...row }) => row)
        )
        if (rows.length < PAGE_ROWS) return
      }
    })
  )

const insertJson: Writer = (pg) => (columns, rows) => {
  const texts = pg.jsonRows("$1", Object.fromEntries(columns.map((c) => [c.name, "VARCHAR" as const])))
  return pg.run(
    `INSERT INTO products (${columns.map((c) => quoteIdent(c.name)).join(", ")})
     SELECT ${columns.map((c) => `CAST(r.${quoteIdent(c.name)} AS ${pgType(c.type)})`).join(", ")} FROM ${texts} r`,
    [jsonRowsParam(rows)]
  )
}

// information_schema names an array type ARRAY; every list column here is text[].
const pgType = (type: string) => (type === "ARRAY" ? "text[]" : type)

const appendCopy: Writer = (pg) => (columns, rows) =>
  pg.append("products", (appender) => {
    for (const row of rows) {
      for (const column of columns) {
        const value = row[column.name]
        if (value === null || value === undefined) appender.appendNull()
        else appender.appendVarchar(value)
      }
      appender.endRow()
    }
  })

const viaCsv = (staging: DatabaseShape, pg: DatabaseShape, directory: string) =>
  pg.transaction((tx) =>
    Effect.gen(function* () {
      yield* tx.run(`DELETE FROM products WHERE ${FEED_ROWS}`)
      yield* copyStagedRows(staging, tx, "products", FEED_ROWS, [], directory)
    })
  )

export const comparePostgres = async ({ work, rows, loadOnly, seconds, times }: Context) => {
  const duck = await loadOnly()
  process.stderr.write(`into DuckDB: ${seconds(duck.loaded.ms)} (${duck.loaded.load})\n`)
  const server = await startEmbeddedPostgres()
  const scope = Effect.runSync(Scope.make())
  try {
    const pg = await loadOnly(server.url)
    process.stderr.write(`into PostgreSQL: ${seconds(pg.loaded.ms)} (${pg.loaded.load})\n`)

    // The three publish paths, over the staging file the PostgreSQL run left.
    const staging = await Effect.runPromise(
      Database.make(join(work, "pg", "staging.duckdb")).pipe(Scope.provide(scope))
    )
    const pgDb = await Effect.runPromise(
      makePgDatabase({ url: Redacted.make(server.url), poolSize: 2 }).pipe(Scope.provide(scope))
    )
    const csv = await timed(() => Effect.runPromise(viaCsv(staging, pgDb, join(work, "publish"))))
    const insert = await timed(() => Effect.runPromise(viaPages(staging, pgDb, insertJson)))
    const append = await timed(() => Effect.runPromise(viaPages(staging, pgDb, appendCopy)))
    const csvAgain = await timed(() => Effect.runPromise(viaCsv(staging, pgDb, join(work, "publish"))))

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
    line("publish a: DuckDB COPY TO csv + COPY FROM STDIN (shipped)", csv.ms, null, csv.load)
    line("publish b: 20k-row pages through Node, INSERT over JSON", insert.ms, csv.ms, insert.load)
    line("publish c: the same pages via the seam's append (COPY)", append.ms, csv.ms, append.load)
    line("publish a again (order effects)", csvAgain.ms, csv.ms, csvAgain.load)
    console.log(
      `rows loaded: DuckDB ${duck.loaded.value.rowsLoaded}, PostgreSQL ${pg.loaded.value.rowsLoaded}; ratios: the PostgreSQL load vs the DuckDB baseline, publish b and c vs publish a`
    )
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await server.stop()
  }
}
