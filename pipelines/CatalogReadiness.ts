import { Context, Deferred, Effect, Layer } from "effect"

/**
 * Whether the catalog is ready to serve. On a first start (empty catalog) the
 * feeds are ingested in the background while the server already answers
 * /health; /ready reports "ingesting" (503) until that first ingest ends.
 */
export class CatalogReadiness extends Context.Service<
  CatalogReadiness,
  {
    /** False only while the first ingest of an empty catalog runs. */
    readonly isReady: () => boolean
    /** Completes when the catalog is ready (at once when no first ingest was needed). */
    readonly awaitReady: Effect.Effect<void>
    /** Marks the catalog ready (called by the start-up ingest when it ends, however it ends). */
    readonly markReady: Effect.Effect<void>
  }
>()("app/pipelines/CatalogReadiness") {
  static readonly layer = Layer.effect(
    CatalogReadiness,
    Effect.gen(function* () {
      const ready = yield* Deferred.make<void>()
      let done = false
      return CatalogReadiness.of({
        isReady: () => done,
        awaitReady: Deferred.await(ready),
        markReady: Effect.suspend(() => {
          done = true
          return Deferred.succeed(ready, undefined)
        }).pipe(Effect.asVoid)
      })
    })
  )
}
