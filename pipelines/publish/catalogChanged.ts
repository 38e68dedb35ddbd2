import type { Effect } from "effect"
import { bumpCatalogVersion } from "../../infra/CatalogVersion.ts"
import type { DatabaseError, Tx } from "../../infra/Database.ts"

/**
 * Every catalog publish calls this inside the transaction that commits the
 * change on the system of record (the staging transaction itself with DuckDB
 * alone, the PostgreSQL publish transaction otherwise), so API replicas
 * polling the catalog version see the change once it is committed.
 */
export const catalogChanged = (tx: Tx): Effect.Effect<void, DatabaseError> => bumpCatalogVersion(tx)
