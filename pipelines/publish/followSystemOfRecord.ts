import { Effect, Layer, Schema } from "effect"
import { Database, type DatabaseError, type DatabaseShape, type Tx } from "../../infra/Database.ts"
import { Staging } from "../../infra/Staging.ts"

// At a worker's start, staging (DuckDB) must hold the catalog the system of
// record (PostgreSQL) holds: the loaders diff a feed against its staged rows
// (first seen, last change, price history) and the search sync reads staging.
// A new worker has an empty staging file, and a worker that died between the
// two commits of a publish may be one feed apart. When any catalog table's row
// count differs, staging's catalog is replaced by PostgreSQL's, in one
// staging transaction; PostgreSQL is only read, so it keeps serving
// throughout. Re-running the feeds instead would reset first-seen dates and
// lose the price history that no feed can give back.

/** The tables the catalog loaders write (and publish). */
export const CATALOG_TABLES = [
  "networks",
  "programs",
  "program_domains",
  "program_numbers",
  "products",
  "price_history"
] as const

/** Rows read from PostgreSQL per page, as one JSON document each. */
const PAGE_ROWS = 20_000
const DOCS = "_seed_docs"

const CountRow = Schema.Struct({ n: Schema.Number })
const ColumnRow = Schema.Struct({ name: Schema.String, type: Schema.String })
const PageRow = Schema.Struct({ k: Schema.String, doc: Schema.String })

const countOf = (db: DatabaseShape, table: string) =>
  db
    .queryAs(CountRow, `SELECT CAST(count(*) AS INTEGER) AS n FROM ${table}`)
    .pipe(Effect.map((rows) => rows[0]?.n ?? 0))

const counts = (db: DatabaseShape) =>
  Effect.forEach(CATALOG_TABLES, (table) => countOf(db, table)).pipe(Effect.map((n) => n.join(",")))

const quoted = (column: string) => `"${column.replace(/"/g, '""')}"`

/** DuckDB SQL reading one column of a row's JSON (PostgreSQL's `to_json`) as the staged column's type. */
const fromJson = (column: string, type: string) => {
  const path = `'$.${quoted(column).replace(/'/g, "''")}'`
  if (type === "VARCHAR") return `json_extract_string(doc, ${path})`
  if (type === "JSON") return `json_extract(doc, ${path})`
  if (type.endsWith("[]")) return `CAST(json_extract(doc, ${path}) AS ${type})`
  return `CAST(json_extract_string(doc, ${path}) AS ${type})`
}

const copyTable = (source: DatabaseShape, staged: Tx, table: string) =>
  Effect.gen(function* () {
    const columns = yield* staged.queryAs(
      ColumnRow,
      `SELECT column_name AS name, data_type AS type FROM information_schema.columns
       WHERE table_name = $1 AND table_schema = current_schema() ORDER BY ordinal_position`,
      [table]
    )
    const insert = `INSERT INTO ${table} (${columns.map((c) => quoted(c.name)).join(", ")})
      SELECT ${columns.map((c) => fromJson(c.name, c.type)).join(", ")} FROM ${DOCS}`
    yield* staged.run(`DELETE FROM ${table}`)
    // ctid order: PostgreSQL scans a TID range without sorting the table.
    let after = "(0,0)"
    for (;;) {
      const page = yield* source.queryAs(
        PageRow,
        `SELECT ctid::text AS k, to_json(t)::text AS doc FROM ${table} t WHERE ctid > $1::tid ORDER BY ctid LIMIT ${PAGE_ROWS}`,
        [after]
      )
      if (page.length === 0) return
      yield* staged.append(DOCS, (appender) => {
        for (const row of page) {
          appender.appendVarchar(row.doc)
          appender.endRow()
        }
      })
      yield* staged.run(insert)
      yield* staged.run(`DELETE FROM ${DOCS}`)
      after = page[page.length - 1].k
      if (page.length < PAGE_ROWS) return
    }
  })

/** Brings staging's catalog level with the system of record's; nothing to do when they are one store. */
export const followSystemOfRecord = (db: DatabaseShape, staging: DatabaseShape): Effect.Effect<void, DatabaseError> =>
  Effect.gen(function* () {
    // One store (Staging.layer hands out the Database itself): nothing to follow.
    if (db === staging) return
    const [recorded, staged] = [yield* counts(db), yield* counts(staging)]
    if (recorded === staged) return
    yield* Effect.logInfo("staging differs from the system of record: copying its catalog into staging").pipe(
      Effect.annotateLogs({ event: "staging_follow", recorded, staged })
    )
    const started = performance.now()
    yield* staging.transaction((tx) =>
      Effect.gen(function* () {
        yield* tx.run(`CREATE OR REPLACE TEMP TABLE ${DOCS} (doc VARCHAR)`)
        for (const table of CATALOG_TABLES) yield* copyTable(db, tx, table)
        yield* tx.run(`DROP TABLE ${DOCS}`)
      })
    )
    yield* Effect.logInfo("staging follows the system of record").pipe(
      Effect.annotateLogs({ event: "staging_followed", rows: recorded, ms: Math.round(performance.now() - started) })
    )
  })

/**
 * Staging follows the system of record, once, in the process that runs
 * feeds, before its first run (build it before the startup ingest and the
 * schedules). A failure stops the start: loads against a stale staging copy
 * would publish wrong first-seen dates and price history.
 */
export const StagingFollows = Layer.effectDiscard(
  Effect.gen(function* () {
    yield* followSystemOfRecord(yield* Database, yield* Staging).pipe(Effect.orDie)
  })
)
