import { Effect } from "effect"
import type { DatabaseError, Tx } from "../../infra/Database.ts"

/**
 * HOOK for the catalog version (issue 13, roles branch): called by every
 * catalog publish inside the transaction that commits the change, on
 * whichever store is the system of record. Connect the `catalog_version` bump
 * here (`UPDATE catalog_version SET version = version + 1, changed_at = now()`)
 * when that table lands, so API replicas reload within their poll interval.
 */
export const catalogChanged = (_tx: Tx): Effect.Effect<void, DatabaseError> => Effect.void
