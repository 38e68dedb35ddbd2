import { Effect, Layer } from "effect"
import * as Ai from "./ai/layer.ts"
import { serveOn } from "./api/Server.ts"
import * as Catalog from "./catalog/layer.ts"
import * as Clicks from "./clicks/layer.ts"
import * as Conversions from "./conversions/layer.ts"
import * as Discovery from "./discovery/layer.ts"
import { AppConfig } from "./infra/AppConfig.ts"
import { Database } from "./infra/Database.ts"
import { InfraLayer } from "./infra/Infra.ts"
import * as Links from "./links/layer.ts"
import * as Partners from "./partners/layer.ts"
import * as Pipelines from "./pipelines/layer.ts"
import { SearchSync } from "./pipelines/search/SearchSync.ts"

// What `npm start` (ServeMain.ts, through ServeUntilStopped.ts) reads of the built service.
export { Metrics } from "./infra/Metrics.ts"
export { PipelineRunner } from "./pipelines/PipelineRunner.ts"

// The running service as one layer, given its configuration: main.ts feeds it
// the environment, tests feed it temp folders and free ports. The one place
// that composes: each feature exports its `layer`, built in its folder.
const Http = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    return serveOn(config.port, config.host, config.role)
  })
)

// One process that owns its store, or replicas sharing one: the store says
// which, once, here. Each feature that behaves differently offers both as
// layers of one service (click storage and salts, rate-limit buckets,
// link-change announcements) and never asks again.
const SingleProcess = Layer.mergeAll(Clicks.singleProcess, Partners.singleProcess, Links.singleProcess)
const Replicas = Layer.mergeAll(Clicks.replicas, Partners.replicas, Links.replicas)
export const StoreSharing = Layer.unwrap(
  Effect.map(Database, (db) => (db.sharedWithReplicas ? Replicas : SingleProcess))
)

// Features over the infrastructure, each over the ones below it.
const Features = Ai.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(Links.layer, Discovery.layer, Catalog.layer, SearchSync.layer)),
  Layer.provideMerge(Layer.mergeAll(Partners.layer, Clicks.layer, Conversions.layer))
)

// Processes that answer the API (ROLE=all, ROLE=api) follow catalog changes
// made by another writer; the worker makes them, and reloads in-process.
const CatalogChanges = Layer.unwrap(
  Effect.map(AppConfig, (config) => (config.role === "worker" ? Layer.empty : Links.catalogChanges))
)

export const makeService = <E, R>(config: Layer.Layer<AppConfig, E, R>) =>
  Http.pipe(
    Layer.provideMerge(CatalogChanges),
    // every feature's feed kinds; links re-resolve after catalog loads; conversions re-attribute on a schedule
    // (these two only where the WorkerLock is held: ROLE decides what runs, pipelines/layer.ts)
    Layer.provideMerge(
      Pipelines.layer(Conversions.loaders, Layer.mergeAll(Links.afterCatalogLoads, Conversions.workerSchedules))
    ),
    Layer.provideMerge(Features),
    Layer.provideMerge(StoreSharing),
    Layer.provideMerge(InfraLayer),
    Layer.provideMerge(config)
  )
