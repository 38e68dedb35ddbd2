import { Effect, Schema } from "effect"
import { Text } from "./columns.ts"
import type { DatabaseError, Tx } from "./Store.ts"

// The catalog's version: one row (catalog_version, id 1) that every catalog
// change bumps in its own transaction (feed loads of networks, programmes,
// products and prices; link re-resolution). Another process sees the change
// with one primary-key read (links/CatalogChanges.ts) instead of comparing
// tables. Plain SQL both dialects read alike.

const VersionRow = Schema.Struct({ version: Text })

export const BUMP_CATALOG_VERSION_SQL =
  "UPDATE catalog_version SET version = version + 1, changed_at = current_timestamp WHERE id = 1"
export const READ_CATALOG_VERSION_SQL = "SELECT CAST(version AS VARCHAR) AS version FROM catalog_version WHERE id = 1"

/** Marks the catalog changed; call inside the transaction that changes it, so the bump commits with it. */
export const bumpCatalogVersion = (tx: Tx): Effect.Effect<void, DatabaseError> => tx.run(BUMP_CATALOG_VERSION_SQL)

/** The current version as text (BIGINT arrives as a bigint on DuckDB, a string on postgres.js). */
export const readCatalogVersion = (db: Pick<Tx, "queryAs">): Effect.Effect<string, DatabaseError> =>
  Effect.map(db.queryAs(VersionRow, READ_CATALOG_VERSION_SQL), (rows) => rows[0]?.version ?? "0")
