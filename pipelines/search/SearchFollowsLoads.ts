import { Effect, Layer } from "effect"
import { CatalogEvents, FollowUpFailed } from "../../infra/events/CatalogEvents.ts"
import { SearchSync } from "./SearchSync.ts"

// The search indexes follow the loads of the kinds whose rows they hold:
// programmes feed the programmes index, products and prices the products
// index (one feed's products only, when a products feed ran). A failed sync
// fails the run: the catalog data stays loaded, feed_state does not advance,
// so the next run syncs again. Changes seen through the shared version are
// not synced here: the process that loaded them did it.

export const SearchFollowsLoads = Layer.effectDiscard(
  Effect.gen(function* () {
    const events = yield* CatalogEvents
    const search = yield* SearchSync
    yield* events.subscribe("search sync", ({ change }) => {
      if (change._tag !== "Loaded") return Effect.void
      const sync =
        change.kind === "programs"
          ? search.syncPrograms()
          : change.kind === "products" || change.kind === "price_history"
            ? search.syncProducts(change.kind === "products" ? change.feed : undefined)
            : undefined
      if (sync === undefined) return Effect.void
      return sync.pipe(
        Effect.map((synced) => ({ documentsUpserted: synced.upserted, documentsDeleted: synced.deleted })),
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
