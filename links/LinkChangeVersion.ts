import { Effect, Schedule, Schema } from "effect"
import { Count } from "../infra/columns.ts"
import type { Database, DatabaseError, Tx } from "../infra/Database.ts"

// Re-resolution on one replica must reach the other replicas' in-memory
// copies of links (the redirect cache, the repeat-match memo). PostgreSQL:
// the transaction that reassigns links bumps the one-row link_change_version
// (which also serialises reassignments across replicas, so versions commit in
// order); every replica reads it every POLL_MS and forgets its copies when it
// moved. A moved link thus redirects to its new destination everywhere within
// about POLL_MS of the commit. DuckDB: one process owns the file, so the
// in-process listeners are enough and nothing is polled.

export const LINK_CHANGES_POLL_MS = 1_000

const VersionRow = Schema.Struct({ version: Count })

/** Bumps the version inside a reassigning transaction; the new version, or undefined on DuckDB. */
export const announceLinkChanges = (tx: Tx): Effect.Effect<number | undefined, DatabaseError> =>
  tx.dialect === "postgres"
    ? Effect.map(
        tx.queryAs(VersionRow, "UPDATE link_change_version SET version = version + 1 RETURNING version"),
        (rows) => rows[0]?.version
      )
    : Effect.succeed(undefined)

/**
 * Polls the version (PostgreSQL only) and calls `onForeignChange` when
 * another replica reassigned links. `ownChange(version)` records a bump made
 * here, so this process does not drop its caches for its own change.
 */
export const followLinkChanges = (db: Database["Service"], onForeignChange: () => void) =>
  Effect.gen(function* () {
    if (db.dialect !== "postgres") return { ownChange: (_version: number | undefined) => {} }
    const read = Effect.map(
      db.queryAs(VersionRow, "SELECT version FROM link_change_version"),
      (rows) => rows[0]?.version ?? 0
    )
    let seen = yield* read
    const check = Effect.gen(function* () {
      const version = yield* read
      if (version === seen) return
      seen = version
      onForeignChange()
    }).pipe(Effect.catch((error) => Effect.logWarning("link change poll failed; retrying", error)))
    yield* Effect.forkScoped(Effect.repeat(check, Schedule.spaced(LINK_CHANGES_POLL_MS)))
    return {
      // Only the very next version is ours alone; had another replica's bump come
      // in between unseen, the poll must still see the jump and drop everything.
      ownChange: (version: number | undefined) => {
        if (version !== undefined && version === seen + 1) seen = version
      }
    }
  })
