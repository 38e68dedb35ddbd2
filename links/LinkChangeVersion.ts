import { Context, Effect, Layer, Schema } from "effect"
import { Count } from "../infra/columns.ts"
import type { Database, DatabaseError, Tx } from "../infra/Database.ts"

// Re-resolution on one replica must reach the other replicas' in-memory
// copies of links (the redirect cache, the repeat-match memo). PostgreSQL:
// the transaction that reassigns links bumps the one-row link_change_version
// (which also serialises reassignments across replicas, so versions commit in
// order); the catalog follower (CatalogChanges.ts) reads it with the catalog
// version and announces "links moved" when another replica bumped it.
// DuckDB: one process owns the file, so the in-process listeners are enough
// and there is no such row.

const VersionRow = Schema.Struct({ version: Count })

/** Bumps the version inside a reassigning transaction; the new version, or undefined on DuckDB. */
export const announceLinkChanges = (tx: Tx): Effect.Effect<number | undefined, DatabaseError> =>
  tx.sharedWithReplicas
    ? Effect.map(
        tx.queryAs(VersionRow, "UPDATE link_change_version SET version = version + 1 RETURNING version"),
        (rows) => rows[0]?.version
      )
    : Effect.succeed(undefined)

/** The shared link-change version (PostgreSQL), or undefined where links change in one process only. */
export const readLinkChangeVersion = (db: Database["Service"]): Effect.Effect<number | undefined, DatabaseError> =>
  db.sharedWithReplicas
    ? Effect.map(db.queryAs(VersionRow, "SELECT version FROM link_change_version"), (rows) => rows[0]?.version ?? 0)
    : Effect.succeed(undefined)

const REMEMBERED = 1_000

/**
 * The link-change versions this process committed itself, so the follower
 * does not drop every cached link for a change whose links were already
 * invalidated one by one here.
 */
export class OwnLinkChanges extends Context.Service<
  OwnLinkChanges,
  {
    record(version: number | undefined): void
    /** True when `version` is the very next one after `seen` and ours: had another replica's bump come in between, it is not. */
    isOwnNext(seen: number | undefined, version: number | undefined): boolean
  }
>()("app/links/OwnLinkChanges") {
  static readonly layer = Layer.sync(OwnLinkChanges, () => {
    const own = new Set<number>()
    return OwnLinkChanges.of({
      record: (version) => {
        if (version === undefined) return
        if (own.size >= REMEMBERED) own.clear()
        own.add(version)
      },
      isOwnNext: (seen, version) =>
        seen !== undefined && version !== undefined && version === seen + 1 && own.delete(version)
    })
  })
}
