import { Context, Duration, Effect, Layer, Schedule, Schema } from "effect"
import { Text } from "../infra/columns.ts"
import { AppConfig } from "../infra/AppConfig.ts"
import { readCatalogVersion } from "../infra/CatalogVersion.ts"
import { Database, type DatabaseError } from "../infra/Database.ts"
import { Metrics } from "../infra/Metrics.ts"
import { ProgramMatcher } from "./ProgramMatcher.ts"
import { RedirectLinks } from "./RedirectLinks.ts"
import { TrackingLinks } from "./TrackingLinks.ts"

// Catalog changes made by another process (the worker, on PostgreSQL) reach
// this one's memory. Every catalog change bumps catalog_version in its own
// transaction (infra/CatalogVersion.ts); every CATALOG_POLL_MS we read that
// one row and, when it moved, do what the in-process hook
// (ReresolveAfterCatalogLoads) does after a load: reload the matcher, and
// forget destinations of links that moved. The worker's re-resolution names
// the links it moved only in its own process, so when link_program_changes
// gained rows, the whole redirect cache and the repeat-match memo are dropped: the
// next click on each link reads it again (one indexed read per link,
// coalesced). A product or price load leaves them alone, as in-process.
// Caches keyed by the matcher's catalog object (FuzzyMatcher, ProgramFacts)
// follow the reload by themselves; the AI deal lists expire on their own clock.
// In ROLE=all the poll also sees this process's own bumps and repeats the
// matcher reload once: a small cost for one code path on both stores.

const LinkChanges = Schema.Struct({ n: Text })

export class CatalogChanges extends Context.Service<
  CatalogChanges,
  {
    /** Looks at the version now; true when it had moved and the caches were reloaded. */
    readonly check: Effect.Effect<boolean, DatabaseError>
  }
>()("app/links/CatalogChanges") {
  static readonly layer = Layer.effect(
    CatalogChanges,
    Effect.gen(function* () {
      const db = yield* Database
      const matcher = yield* ProgramMatcher
      const redirect = yield* RedirectLinks
      const links = yield* TrackingLinks
      const config = yield* AppConfig
      const metrics = yield* Metrics
      const applied = metrics.counter("catalog_changes_applied_total", "Catalog version changes applied to the caches")
      // Unread (storage down at start): the first successful poll reloads.
      let seen: string | undefined = yield* readCatalogVersion(db).pipe(
        Effect.orElseSucceed((): string | undefined => undefined)
      )
      // Append-only, and one re-resolution writes its chunks with one timestamp: count rows, not max(changed_at).
      // Read once per version change, not per poll.
      const lastLinkChange = Effect.map(
        db.queryAs(LinkChanges, "SELECT CAST(count(*) AS VARCHAR) AS n FROM link_program_changes"),
        (rows) => rows[0]?.n ?? "0"
      )
      let linksSeen = yield* lastLinkChange.pipe(Effect.orElseSucceed(() => undefined))

      const check = Effect.gen(function* () {
        const version = yield* readCatalogVersion(db)
        if (version === seen) return false
        const linksAt = yield* lastLinkChange
        yield* matcher.reload
        const linksMoved = linksAt !== linksSeen
        if (linksMoved) {
          links.forgetMemo()
          redirect.invalidateAll()
        }
        yield* Effect.logInfo("catalog changed: matcher reloaded").pipe(
          Effect.annotateLogs({ event: "catalog_changed", from: seen ?? "unknown", to: version, linksMoved })
        )
        seen = version
        linksSeen = linksAt
        applied.inc()
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
