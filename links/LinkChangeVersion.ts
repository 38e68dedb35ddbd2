import { Context, Effect, Layer, Schema } from "effect"
import { Count } from "../infra/columns.ts"
import { Database, type DatabaseError, type Tx } from "../infra/Database.ts"

// Re-resolution on one replica must reach the other replicas' in-memory
// copies of links (the redirect cache, the repeat-match memo). Replicas
// sharing PostgreSQL: the transaction that reassigns links bumps the one-row
// link_change_version (which also serialises reassignments across replicas,
// so versions commit in order); the catalog follower (CatalogChanges.ts)
// reads it with the catalog version and announces "links moved" when another
// replica bumped it. One process that owns its store (DuckDB): the in-process
// listeners are enough and there is no such row. Two layers of one service,
// chosen once where the service is composed (service.ts).

const VersionRow = Schema.Struct({ version: Count })

export class LinkChangeVersion extends Context.Service<
  LinkChangeVersion,
  {
    /** Bumps the version inside a reassigning transaction: the new version, or undefined in one process. */
    announce(tx: Tx): Effect.Effect<number | undefined, DatabaseError>
    /** The shared version, or undefined where links change in one process only. */
    readonly read: Effect.Effect<number | undefined, DatabaseError>
  }
>()("app/links/LinkChangeVersion") {
  static readonly layerSingleProcess = Layer.succeed(
    LinkChangeVersion,
    LinkChangeVersion.of({ announce: () => Effect.succeed(undefined), read: Effect.succeed(undefined) })
  )

  static readonly layerReplicas = Layer.effect(
    LinkChangeVersion,
    Effect.gen(function* () {
      const db = yield* Database
      return LinkChangeVersion.of({
        announce: (tx) =>
          Effect.map(
            tx.queryAs(VersionRow, "UPDATE link_change_version SET version = version + 1 RETURNING version"),
            (rows) => rows[0]?.version
          ),
        read: Effect.map(
          db.queryAs(VersionRow, "SELECT version FROM link_change_version"),
          (rows) => rows[0]?.version ?? 0
        )
      })
    })
  )
}

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
    /**
     * True when every version after `seen` up to `version` is ours (several of
     * our changes may land between two polls): had another replica's bump come
     * in between, it is not.
     */
    allOwnSince(seen: number | undefined, version: number | undefined): boolean
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
      allOwnSince: (seen, version) => {
        if (seen === undefined || version === undefined || version <= seen || version - seen > REMEMBERED) return false
        for (let v = seen + 1; v <= version; v++) if (!own.has(v)) return false
        for (let v = seen + 1; v <= version; v++) own.delete(v)
        return true
      }
    })
  })
}
