import { Effect } from "effect"
import type { DuckDbTx } from "../infra/Database.ts"
import { yieldToEventLoop } from "../infra/yieldToEventLoop.ts"

// A loader's flagged rows (those its SQL pre-check could not pass, judged by
// the Schema rule in JavaScript) read and judged a page at a time: DuckDB's
// client turns a whole result into objects in one synchronous stretch, and a
// dirty feed can flag a fifth of a million rows (10,000 flagged product rows
// read, judged and recorded at once held the event loop 253 ms of CPU in one
// stretch). Numbered once in a TEMP table of their own, so each page reads
// only flagged rows.

/** Flagged rows read and judged between two turns of the event loop. */
export const FLAGGED_PAGE = 250

/**
 * Calls `each` with the rows of `table` that `where` selects (as `k`, the
 * rowid, and `columns`), in rowid order, a page at a time, yielding to the
 * event loop between two pages. Run it in a transaction: the TEMP table lives
 * on the writer connection.
 */
export const forEachFlaggedPage = <R extends { readonly k: number }>(
  tx: DuckDbTx,
  table: string,
  columns: ReadonlyArray<string>,
  where: string,
  each: (rows: ReadonlyArray<R>) => void
) =>
  Effect.gen(function* () {
    const numbered = `${table}_flagged`
    yield* tx.run(
      `CREATE OR REPLACE TEMP TABLE ${numbered} AS
       SELECT row_number() OVER (ORDER BY rowid) AS n, rowid::INTEGER AS k, ${columns.join(", ")} FROM ${table} WHERE ${where}`
    )
    for (let from = 1; ; from += FLAGGED_PAGE) {
      if (from > 1) yield* yieldToEventLoop
      const rows = yield* tx.query<R>(
        `SELECT * EXCLUDE (n) FROM ${numbered} WHERE n >= ${from} AND n < ${from + FLAGGED_PAGE} ORDER BY n`
      )
      each(rows)
      if (rows.length < FLAGGED_PAGE) break
    }
    yield* tx.run(`DROP TABLE ${numbered}`)
  })
