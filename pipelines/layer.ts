import { Effect, Layer, Scope } from "effect"
import { AppConfig } from "../infra/AppConfig.ts"
import { Database } from "../infra/Database.ts"
import { NetworkLoader, ProgramLoader } from "./catalog/CatalogLoaders.ts"
import { CatalogReadiness } from "./CatalogReadiness.ts"
import { FeedsConfig } from "./FeedConfig.ts"
import { FeedLoaders, registerLoader } from "./FeedLoaders.ts"
import { FeedSource } from "./FeedSource.ts"
import { isCatalogEmpty, PipelineRunner, StaleRunsInterrupted } from "./PipelineRunner.ts"
import { PriceHistoryLoader } from "./prices/PriceHistoryLoader.ts"
import { ExchangeRatesLoader } from "./rates/ExchangeRatesLoader.ts"
import { CatalogPublisher } from "./publish/CatalogPublisher.ts"
import { StagingFollows } from "./publish/followSystemOfRecord.ts"
import { WorkerFence } from "./publish/PublishFence.ts"
import { ProductLoader } from "./products/ProductLoader.ts"
import { withStartupProgress } from "./startupProgress.ts"
import { SearchFollowsLoads } from "./search/SearchFollowsLoads.ts"
import { SearchSync } from "./search/SearchSync.ts"
import { CronTicker, Scheduler } from "./Scheduler.ts"
import { WorkerLock } from "./WorkerLock.ts"

// The pipelines as layers. `PipelineLoaders` registers the catalog loaders;
// another feature registers its own kind with `registerLoader` in a layer
// that is given FeedLoaders (see FeedLoaders.ts), and the composition passes
// it to `coreWith`: the pipelines never import a feature.

export const PipelineLoaders = Layer.mergeAll(
  registerLoader(NetworkLoader),
  registerLoader(ProgramLoader),
  registerLoader(ProductLoader),
  registerLoader(PriceHistoryLoader),
  registerLoader(ExchangeRatesLoader)
)

/**
 * After an upgrade that changed the products index's settings or document
 * shape, this code cannot read the index a previous release built: it is
 * rebuilt at once, in the background, rather than at the next feed run
 * (until then searches answer 503; the swap replaces the index whole).
 */
const rebuildOutdatedIndex = Effect.gen(function* () {
  const search = yield* SearchSync
  if (!(yield* search.productsIndexOutdated.pipe(Effect.orElseSucceed(() => false)))) return
  yield* Effect.logInfo("products index built by an earlier release: rebuilding it").pipe(
    Effect.annotateLogs({ event: "search_rebuild_on_start" })
  )
  yield* Effect.forkScoped(
    search.syncProducts().pipe(
      Effect.tap((result) =>
        Effect.logInfo("products index rebuilt").pipe(
          Effect.annotateLogs({ event: "search_rebuild_on_start_done", models: result.upserted })
        )
      ),
      Effect.catchCause((cause) =>
        Effect.logError("products index rebuild failed; the next feed run retries", cause).pipe(
          Effect.annotateLogs({ event: "search_rebuild_on_start_failed" })
        )
      )
    )
  )
})

/**
 * First start (empty catalog): every feed is ingested once, in the background,
 * so the server listens at once (/health answers) while /ready says
 * "ingesting" until the catalog is loaded. Later starts keep their data and
 * rely on the schedules. Shutting down interrupts the ingest like any run.
 */
const StartupIngest = Layer.effectDiscard(
  Effect.gen(function* () {
    const readiness = yield* CatalogReadiness
    const config = yield* AppConfig
    const db = yield* Database
    const empty = yield* isCatalogEmpty(db).pipe(Effect.orDie)
    if (!empty) yield* rebuildOutdatedIndex
    if (!config.ingestOnStart || !empty) return yield* readiness.markReady
    const runner = yield* PipelineRunner
    yield* Effect.logInfo("empty catalog: ingesting every feed once").pipe(
      Effect.annotateLogs({ event: "startup_ingest" })
    )
    yield* Effect.forkScoped(
      withStartupProgress(runner, runner.runAll("startup")).pipe(
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
)

const runnerWith = <E, R>(loaders: Layer.Layer<never, E, R>) =>
  PipelineRunner.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(PipelineLoaders, loaders, SearchFollowsLoads)),
    Layer.provideMerge(Layer.mergeAll(FeedLoaders.layer, FeedSource.layer, FeedsConfig.layer, CatalogPublisher.layer)),
    // Written by the WorkerLock (built over the runner), read by the runner at each run's start.
    Layer.provideMerge(WorkerFence.layer)
  )

/** What the process that runs feeds does first: stale runs marked interrupted, staging level with the system of record. */
const WhenRunningFeeds = Layer.mergeAll(StaleRunsInterrupted, StagingFollows)

/**
 * Runner + the catalog loaders and other features' `loaders` (registered
 * before the runner starts) + feed config + source, without schedules (the
 * CLI's in-process mode, tests); staging follows the system of record before
 * anything runs.
 */
export const coreWith = <E, R>(loaders: Layer.Layer<never, E, R>) =>
  WhenRunningFeeds.pipe(Layer.provideMerge(runnerWith(loaders)))

/** What the server runs over the core: the startup ingest, then the cron schedules. */
export const Schedules = Layer.mergeAll(StartupIngest, Scheduler.layer.pipe(Layer.provide(CronTicker.layer)))

/**
 * Builds `inner` once this process holds the WorkerLock: at once on DuckDB;
 * on PostgreSQL in the background, so a waiting worker still answers /health
 * (and /ready says "ingesting" until it runs). A failure to build is logged,
 * as a start-up failure would be, and leaves the process without schedules.
 */
const whenWorkerLockHeld = <E, R>(inner: Layer.Layer<never, E, R>) =>
  Layer.unwrap(
    Effect.map(WorkerLock, (lock) =>
      lock.isHeld()
        ? inner
        : Layer.effectDiscard(
            Effect.gen(function* () {
              const scope = yield* Scope.Scope
              const context = yield* Effect.context<R>()
              yield* Effect.forkScoped(
                lock.awaitHeld.pipe(
                  Effect.andThen(Layer.buildWithScope(inner, scope)),
                  Effect.provideContext(context),
                  Effect.catchCause((cause) => Effect.logError("pipeline schedules could not start", cause))
                )
              )
            })
          )
    )
  )

/**
 * What the server runs, by ROLE. `all` and `worker`: the core with other
 * features' feed kinds (`loaders`), then `afterCore` (work only the feed
 * runner's process does, e.g. links subscribing to CatalogEvents to re-resolve after catalog loads), then the
 * startup ingest and the schedules, these (and marking runs a dead process left
 * "running" as interrupted) once the WorkerLock is held.
 * `api`: the core only (admin views read runs; nothing runs here), ready at once.
 */
export const layer = <E1, R1, E2, R2>(loaders: Layer.Layer<never, E1, R1>, afterCore: Layer.Layer<never, E2, R2>) =>
  Layer.unwrap(
    Effect.map(AppConfig, (config) =>
      config.role === "api"
        ? Layer.effectDiscard(Effect.flatMap(CatalogReadiness, (readiness) => readiness.markReady)).pipe(
            Layer.provideMerge(Layer.succeed(WorkerLock, WorkerLock.notHere))
          )
        : whenWorkerLockHeld(Schedules.pipe(Layer.provideMerge(afterCore), Layer.provideMerge(WhenRunningFeeds))).pipe(
            Layer.provideMerge(WorkerLock.layer)
          )
    )
  ).pipe(Layer.provideMerge(CatalogReadiness.layer), Layer.provideMerge(runnerWith(loaders)))
