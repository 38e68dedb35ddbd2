import { Effect, Layer } from "effect"
import { AppConfig } from "../infra/AppConfig.ts"
import { Database } from "../infra/Database.ts"
import { NetworkLoader, ProgramLoader } from "./catalog/CatalogLoaders.ts"
import { CatalogReadiness } from "./CatalogReadiness.ts"
import { FeedsConfig } from "./FeedConfig.ts"
import { FeedLoaders, registerLoader } from "./FeedLoaders.ts"
import { FeedSource } from "./FeedSource.ts"
import { isCatalogEmpty, PipelineRunner } from "./PipelineRunner.ts"
import { PriceHistoryLoader } from "./prices/PriceHistoryLoader.ts"
import { CatalogPublisher } from "./publish/CatalogPublisher.ts"
import { ProductLoader } from "./products/ProductLoader.ts"
import { CronTicker, Scheduler } from "./Scheduler.ts"

// The pipelines as layers. `PipelineLoaders` registers the catalog loaders;
// another feature registers its own kind with `registerLoader` in a layer
// that is given FeedLoaders (see FeedLoaders.ts), and the composition passes
// it to `coreWith`: the pipelines never import a feature.

export const PipelineLoaders = Layer.mergeAll(
  registerLoader(NetworkLoader),
  registerLoader(ProgramLoader),
  registerLoader(ProductLoader),
  registerLoader(PriceHistoryLoader)
)

/**
 * First start (empty catalog): every feed is ingested once, in the background,
 * so the server listens at once (/health answers) while /ready says
 * "ingesting" until the catalog is loaded. Later starts keep their data and
 * rely on the schedules. Shutting down interrupts the ingest like any run.
 */
export const StartupIngest = Layer.effectDiscard(
  Effect.gen(function* () {
    const readiness = yield* CatalogReadiness
    const config = yield* AppConfig
    const db = yield* Database
    if (!config.ingestOnStart || !(yield* isCatalogEmpty(db).pipe(Effect.orDie))) return yield* readiness.markReady
    const runner = yield* PipelineRunner
    yield* Effect.logInfo("empty catalog: ingesting every feed once").pipe(
      Effect.annotateLogs({ event: "startup_ingest" })
    )
    yield* Effect.forkScoped(
      runner.runAll("startup").pipe(
        Effect.tap((runs) =>
          Effect.logInfo("startup ingest finished").pipe(
            Effect.annotateLogs({
              event: "startup_ingest_done",
              succeeded: runs.filter((r) => r.status === "succeeded").length,
              failed: runs.filter((r) => r.status === "failed").map((r) => r.feed)
            })
          )
        ),
        Effect.ensuring(readiness.markReady)
      )
    )
  })
).pipe(Layer.provideMerge(CatalogReadiness.layer))

/**
 * Runner + the catalog loaders and other features' `loaders` (registered
 * before the runner starts) + feed config + source, without schedules (the
 * CLI's in-process mode, tests).
 */
export const coreWith = <E, R>(loaders: Layer.Layer<never, E, R>) =>
  PipelineRunner.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(PipelineLoaders, loaders)),
    Layer.provideMerge(Layer.mergeAll(FeedLoaders.layer, FeedSource.layer, FeedsConfig.layer, CatalogPublisher.layer))
  )

/** What the server runs over the core: the startup ingest, then the cron schedules. */
export const Schedules = Layer.mergeAll(StartupIngest, Scheduler.layer.pipe(Layer.provide(CronTicker.layer)))

/**
 * What the server runs: the core with other features' feed kinds (`loaders`),
 * then `afterCore` (layers that decorate registered loaders, e.g. links
 * re-resolving after catalog loads), then the startup ingest and the schedules.
 */
export const layer = <E1, R1, E2, R2>(loaders: Layer.Layer<never, E1, R1>, afterCore: Layer.Layer<never, E2, R2>) =>
  Schedules.pipe(Layer.provideMerge(afterCore), Layer.provideMerge(coreWith(loaders)))
