// How each store spells what the two SQL dialects write differently. Each
// store implementation owns one (DuckDB's in Database.ts, PostgreSQL's in
// PgDatabase.ts) and hands it out as `db.sql` / `tx.sql`, so a feature writes
// the meaning (`tx.sql.lockRowsInOrder("id")`) and never asks which store it
// runs on. Everything else in our SQL is spelled alike on both stores.

/** The name of a store's dialect: for reports (/ready, logs), never to branch on. */
export type DialectName = "duckdb" | "postgres"

export interface SqlDialect {
  readonly name: DialectName
  /** Milliseconds since the epoch of a timestamp expression, as a double. */
  epochMs(timestamp: string): string
  /** A timestamp as its UTC month, `YYYY-MM` text. */
  utcMonth(timestamp: string): string
  /** A timestamp as ISO 8601 UTC text to the second, `YYYY-MM-DDTHH:MM:SSZ`. */
  utcIsoSecond(timestamp: string): string
  /**
   * A text array of `head` followed by the parts of `path` split at
   * `separator`, each trimmed and lowercased, NULLs left out: for
   * `$x = ANY(...)`.
   */
  lowercaseLevels(head: string, path: string, separator: string): string
  /**
   * The tail of a SELECT inside a transaction that locks the rows read until
   * COMMIT, taken in `orderBy` order so two writers cannot deadlock. Empty
   * where the store has one writer at a time and no row locks.
   */
  lockRowsInOrder(orderBy: string): string
  /**
   * The tail of an INSERT that skips rows violating the unique index on the
   * expressions `key` (two processes inserting the same key at once). Empty
   * where the store cannot name an expression index in ON CONFLICT and one
   * serialised writer already decides by looking the key up first.
   */
  skipDuplicatesOn(key: string): string
}
