import { Effect } from "effect"
import type { DatabaseError, Tx } from "../../infra/Database.ts"

/**
 * HOOK for the catalog version (issue 13, roles branch): every catalog
 * publish calls it inside the transaction that commits the change on the
 * system of record (the staging transaction itself with DuckDB alone, the
 * PostgreSQL publish transaction otherwise), so this is the one place the
 * bump belongs. To connect at merge: `(tx) => bumpCatalogVersion(tx)` from
 * infra/CatalogVersion.ts, and drop the loaders' own bump calls (they would
 * bump staging's row, not PostgreSQL's).
 */
export const catalogChanged = (_tx: Tx): Effect.Effect<void, DatabaseError> => Effect.void
