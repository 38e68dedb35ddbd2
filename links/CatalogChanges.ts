import { Context, Duration, Effect, Layer, Schedule, Schema } from "effect"
import { Text } from "../infra/columns.ts"
import { AppConfig } from "../infra/AppConfig.ts"
import { readCatalogVersion } from "../infra/CatalogVersion.ts"
import { Database, type DatabaseError } from "../infra/Database.ts"
import { CatalogEvents } from "../infra/events/CatalogEvents.ts"
import { Metrics } from "../infra/Metrics.ts"
import { LinkChangeVersion, OwnLinkChanges } from "./LinkChangeVersion.ts"

// The one follower of changes made by another process (the worker, another
// replica, on PostgreSQL). Every catalog change bumps catalog_version in its
// own transaction (infra/CatalogVersion.ts), every reassignment of links
// bumps link_change_version (LinkChangeVersion.ts): every CATALOG_POLL_MS we
// read them and, when one moved, announce a "Followed" CatalogEvents event;
// the matcher, the redirect cache and the repeat-match memo subscribe.
// Which links another process moved is named only in its own memory, so
// "links moved" drops every cached link: when the link version moved by
// another replica, or when link_program_changes gained rows with a catalog
// change (the only sign on DuckDB, read once per version change, not per poll).
// In ROLE=all the poll also sees this process's own catalog bumps and reloads
// the matcher once more: a small cost for one code path on both stores.

const LinkChanges = Schema.Struct({ n: Text })

export class CatalogChanges extends Context.Service<
  CatalogChanges,
  {
    /** Looks at the versions now; true when one had moved and the event was announced. */
    readonly check: Effect.Effect<boolean, DatabaseError>
  }
>()("app/links/CatalogChanges") {
  static readonly layer = Layer.effect(
    CatalogChanges,
    Effect.gen(function* () {
      const db = yield* Database
      const events = yield* CatalogEvents
      const own = yield* OwnLinkChanges
      const linkChanges = yield* LinkChangeVersion
      const config = yield* AppConfig
      const metrics = yield* Metrics
      const applied = metrics.counter("catalog_changes_applied_total", "Catalog version changes applied to the caches")
      // Unread (storage down at start): the first successful poll publishes.
      const unread = (): undefined => undefined
      let seen: string | undefined = yield* readCatalogVersion(db).pipe(Effect.orElseSucceed(unread))
      let linkVersionSeen = yield* linkChanges.read.pipe(Effect.orElseSucceed(unread))
      // Append-only, and one re-resolution writes its chunks with one timestamp: count rows, not max(changed_at).
      const lastLinkChange = Effect.map(
        db.queryAs(LinkChanges, "SELECT CAST(count(*) AS VARCHAR) AS n FROM link_program_changes"),
        (rows) => rows[0]?.n ?? "0"
      )
      let linksSeen = yield* lastLinkChange.pipe(Effect.orElseSucceed(unread))

      const check = Effect.gen(function* () {
        const version = yield* readCatalogVersion(db)
        const linkVersion = yield* linkChanges.read
        const catalogMoved = version !== seen
        if (!catalogMoved && linkVersion === linkVersionSeen) return false
        let linksMoved = linkVersion !== linkVersionSeen && !own.allOwnSince(linkVersionSeen, linkVersion)
        linkVersionSeen = linkVersion
        if (catalogMoved) {
          const linksAt = yield* lastLinkChange
          linksMoved ||= linksAt !== linksSeen
          linksSeen = linksAt
        }
        if (!catalogMoved && !linksMoved) return false
        yield* Effect.logInfo("catalog changed elsewhere").pipe(
          Effect.annotateLogs({ event: "catalog_changed", from: seen ?? "unknown", to: version, linksMoved })
        )
        seen = version
        yield* events.announce({ change: { _tag: "Followed", catalogMoved, linksMoved }, version })
        if (catalogMoved) applied.inc()
        return true
      })

      yield* Effect.forkScoped(
        check.pipe(
          Effect.catch((error) =>
            Effect.logWarning("catalog version check failed; caches kept, retrying at the next poll", error)
          ),
          Effect.repeat(Schedule.spaced(Duration.millis(config.catalogPollMs)))
        )
      )
      return CatalogChanges.of({ check })
    })
  )
}
