import { Effect, Fiber, Layer } from "effect"
import { CatalogEvents, FollowUpFailed } from "../../infra/events/CatalogEvents.ts"
import { SearchSync, type SyncError, type SyncResult } from "./SearchSync.ts"

// The search indexes follow the loads of the kinds whose rows they hold:
// programmes feed the programmes index, products and prices the products
// index. A failed sync fails the run: the catalog data stays loaded,
// feed_state does not advance, so the next run syncs again. Changes seen
// through the shared version are not synced here: the process that loaded
// them did it.
//
// A batch of runs (start-up, an ingest of every feed) is synced once, when
// the batch ends: a products sync reads the whole catalog whichever feed
// triggered it, so one per feed paid the same Meilisearch round trips (index
// build, settings, swap) again for each feed. The two indexes sync side by side.
//
// Except the programmes index in a batch: its documents read only programmes
// and networks, whose stages come first (runInStages.ts), so it is synced as
// soon as a batch's programmes are loaded, while the products stage loads;
// the batch's end then waits for it (and fails the runs if it failed) instead
// of starting it. Meilisearch indexes the programmes while DuckDB loads
// products, not after: a fresh start's catalog is searchable that much sooner.

const PRODUCT_KINDS: ReadonlySet<string> = new Set(["products", "price_history"])

export const SearchFollowsLoads = Layer.effectDiscard(
  Effect.gen(function* () {
    const events = yield* CatalogEvents
    const search = yield* SearchSync
    const scope = yield* Effect.scope
    // programmes syncs started by this batch's programme loads, awaited by its BatchLoaded
    let programmesAhead: Array<Fiber.Fiber<SyncResult, SyncError>> = []
    const takeProgrammesAhead = () => {
      const started = programmesAhead
      programmesAhead = []
      return started
    }
    // the last one started after every programme load of the batch: its result is the index's state
    const awaitProgrammesAhead = (started: ReadonlyArray<Fiber.Fiber<SyncResult, SyncError>>) =>
      Effect.map(Fiber.joinAll(started), (results) => results[results.length - 1]!)
    const syncs = (kinds: ReadonlyArray<string>, productsFeed?: string, ahead: typeof programmesAhead = []) => {
      const wanted: Array<Effect.Effect<SyncResult, SyncError>> = []
      if (kinds.includes("programs"))
        wanted.push(ahead.length > 0 ? awaitProgrammesAhead(ahead) : search.syncPrograms())
      if (kinds.some((kind) => PRODUCT_KINDS.has(kind)))
        wanted.push(
          search
            .syncProducts(productsFeed)
            .pipe(
              Effect.tap((result) =>
                Effect.logDebug("products index synced").pipe(
                  Effect.annotateLogs({ event: "products_synced", phases: result.phases ?? [] })
                )
              )
            )
        )
      return wanted
    }
    yield* events.subscribe("search sync", ({ change }) => {
      if (change._tag === "Loaded" && change.batched === true && change.kind === "programs") {
        return Effect.asVoid(
          Effect.tap(Effect.forkIn(search.syncPrograms(), scope), (started) =>
            Effect.sync(() => programmesAhead.push(started))
          )
        )
      }
      const wanted =
        change._tag === "BatchLoaded"
          ? syncs(change.kinds, undefined, takeProgrammesAhead())
          : change._tag === "Loaded" && change.batched !== true
            ? syncs([change.kind], change.kind === "products" ? change.feed : undefined)
            : []
      if (wanted.length === 0) return Effect.void
      return Effect.all(wanted, { concurrency: "unbounded" }).pipe(
        Effect.map((synced) => ({
          documentsUpserted: synced.reduce((sum, one) => sum + one.upserted, 0),
          documentsDeleted: synced.reduce((sum, one) => sum + one.deleted, 0)
        })),
        Effect.mapError(
          (error) =>
            new FollowUpFailed({
              stage: "sync",
              message: `${error.message} (the catalog data is loaded; the next run resyncs the index)`
            })
        )
      )
    })
  })
)
