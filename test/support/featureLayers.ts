import { Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import * as Clicks from "../../clicks/layer.ts"
import * as Conversions from "../../conversions/layer.ts"
import { AppConfig, type AppConfigShape } from "../../infra/AppConfig.ts"
import { Database } from "../../infra/Database.ts"
import { CatalogEvents } from "../../infra/events/CatalogEvents.ts"
import { LinkEvents } from "../../infra/events/LinkEvents.ts"
import { Metrics } from "../../infra/Metrics.ts"
import * as Links from "../../links/layer.ts"
import * as Partners from "../../partners/layer.ts"
import { StoreSharing } from "../../service.ts"
import { freshDatabaseUrl, testStore } from "./postgres.ts"
import { tempDir, testConfig } from "./TestService.ts"

// One feature's services over the real store, without the service around
// them: no HTTP server, no Meilisearch, no pipelines. DuckDB in a temp folder
// (in the postgres project a fresh PostgreSQL database of its own), the
// one-process or replicas layers chosen as service.ts chooses them. For rule
// tests that would otherwise start the whole service.

/** What every feature stands on: config, metrics, the store, the event streams, one-process-or-replicas. */
const below = <A, E, R>(feature: Layer.Layer<A, E, R>) =>
  feature.pipe(
    Layer.provideMerge(StoreSharing),
    Layer.provideMerge(Layer.mergeAll(CatalogEvents.layer, LinkEvents.layer)),
    Layer.provideMerge(Database.layer),
    Layer.provideMerge(Metrics.layer)
  )

/** Click recording and housekeeping. */
export const clicksLayer = below(Clicks.layer)
/** Matching, tracking links, the redirect cache, re-resolution and the catalog follower (with partners). */
export const linksLayer = below(
  Links.catalogChanges.pipe(Layer.provideMerge(Links.layer), Layer.provideMerge(Partners.layer))
)
/** The conversions ledger, its queries and re-attribution of new links. */
export const conversionsLayer = below(Conversions.layer)

export interface RunningFeature<R> {
  readonly config: AppConfigShape
  /** Runs an effect against the feature's services. */
  run<A, E>(effect: Effect.Effect<A, E, R>): Promise<A>
  close(): Promise<void>
}

/** Builds `layer` over a temp DATA_DIR with `overrides` of the test config. */
export const startFeature = async <A, E>(
  layer: Layer.Layer<A, E, AppConfig>,
  overrides: Partial<AppConfigShape> = {}
): Promise<RunningFeature<A>> => {
  const temp = tempDir("feature-")
  const store = testStore() === "postgres" ? { databaseUrl: Option.some(Redacted.make(await freshDatabaseUrl())) } : {}
  const config = testConfig(temp.dir, { ...store, ...overrides })
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(
    Layer.buildWithScope(layer.pipe(Layer.provide(Layer.succeed(AppConfig, config))), scope)
  )
  return {
    config,
    run: (effect) => Effect.runPromise(Effect.provide(effect, context)),
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      temp.rm()
    }
  }
}
