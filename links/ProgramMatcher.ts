import { Context, Effect, Layer } from "effect"
import { makeCatalog } from "../domain/matching/catalog.ts"
import { clickHostRules, type Resolution, resolveUrl } from "../domain/matching/resolve.ts"
import { Database, type DatabaseError } from "../infra/Database.ts"
import { latestLoad } from "../infra/latestLoad.ts"
import { CatalogEvents } from "../infra/events/CatalogEvents.ts"
import { Metrics } from "../infra/Metrics.ts"
import { type MatcherCatalog, readMatcherCatalog } from "./readMatcherCatalog.ts"

// The networks and programmes catalog, held in memory so a match costs no
// store query. It is re-read on every CatalogEvents event (a load committed
// here, or the shared catalog version moved), not probed per request: the
// catalog changes only through loads, and every load bumps the version.

export class ProgramMatcher extends Context.Service<
  ProgramMatcher,
  {
    /**
     * Resolves a submitted URL against the in-memory catalog (re-read on every
     * catalog event); `country` is the visitor's market, preferred for a URL that names none.
     */
    resolve(url: string, country?: string): Effect.Effect<Resolution>
    /** Re-reads the catalog now (tests and tools that write the tables themselves). */
    readonly reload: Effect.Effect<void, DatabaseError>
    readonly current: Effect.Effect<MatcherCatalog>
  }
>()("app/links/ProgramMatcher") {
  static readonly layer = Layer.effect(
    ProgramMatcher,
    Effect.gen(function* () {
      const db = yield* Database
      const metrics = yield* Metrics
      const reloads = metrics.counter("program_matcher_reloads_total", "Catalog reloads into the matcher")
      const empty: MatcherCatalog = { catalog: makeCatalog([], []), rules: clickHostRules(makeCatalog([], [])) }
      let state: MatcherCatalog = yield* readMatcherCatalog(db).pipe(
        Effect.tapError((error) => Effect.logWarning("program matcher: initial catalog load failed", error)),
        Effect.orElseSucceed(() => empty)
      )
      metrics.gauge("program_matcher_domains", "Domains known to the matcher", () => state.catalog.byDomain.size)

      const reload = latestLoad(readMatcherCatalog(db), (loaded) => {
        state = loaded
        reloads.inc()
      })

      // A failed re-read keeps the catalog held; the next event reads again. Never fails a run.
      yield* (yield* CatalogEvents).subscribe("matcher reload", ({ change }) =>
        change._tag === "Followed" && !change.catalogMoved
          ? Effect.void
          : reload.pipe(
              Effect.catch((error) =>
                Effect.logWarning("program matcher: catalog reload failed; keeping the loaded catalog", error)
              )
            )
      )

      const current = Effect.sync(() => state)
      return ProgramMatcher.of({
        current,
        reload,
        resolve: (url, country) =>
          Effect.map(current, (loaded) => resolveUrl(url, loaded.catalog, loaded.rules, country))
      })
    })
  )
}
