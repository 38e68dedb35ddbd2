import { Clock, Context, Effect, Exit, Layer, Option, References, Scope } from "effect"
import { HttpServer } from "effect/http"
import { mkdirSync, rmSync } from "node:fs"
import { resolve } from "node:path"
import { AppConfig, type AppConfigShape } from "../../infra/AppConfig.ts"
import { makeService } from "../../service.ts"

export type BenchContext = Layer.Success<ReturnType<typeof makeService>>

/**
 * The whole service in this process, on a free loopback port, with its own
 * DuckDB under data/var/ (git-ignored) and the embedded Meilisearch (or
 * MEILI_URL). No start-up ingest, no schedules; warnings only. Rate limits
 * are lifted: a benchmark is one client sending a flood on purpose. `clock`
 * replaces Effect's clock for the whole service.
 */
export const startBenchService = async (
  name: string,
  overrides: Partial<AppConfigShape> = {},
  options: { readonly clock?: Clock.Clock } = {}
) => {
  const dataDir = resolve(`data/var/bench-${name}-${process.pid}`)
  rmSync(dataDir, { recursive: true, force: true })
  mkdirSync(dataDir, { recursive: true })
  const unlimited = { perMinute: 1e9, burst: 1e9 }
  const config = AppConfig.layerWith({
    dataDir,
    port: 0,
    meiliUrl: Option.fromNullishOr(process.env.MEILI_URL),
    // as AppConfig.fromEnv reads them, so a bench can size DuckDB like a deployment
    duckdbThreads: Option.map(Option.fromNullishOr(process.env.DUCKDB_THREADS), Number),
    duckdbMemoryLimit: Option.fromNullishOr(process.env.DUCKDB_MEMORY_LIMIT),
    rateLimitPerIp: unlimited,
    rateLimitPerKey: unlimited,
    rateLimitRegister: unlimited,
    ...overrides
  })
  const scope = Effect.runSync(Scope.make())
  const service = makeService(config)
  const layer =
    options.clock === undefined ? service : service.pipe(Layer.provideMerge(Layer.succeed(Clock.Clock, options.clock)))
  const context = await Effect.runPromise(
    Layer.buildWithScope(layer, scope).pipe(Effect.provideService(References.MinimumLogLevel, "Warn"))
  )
  const server = Context.get(context, HttpServer.HttpServer)
  const port = server.address._tag === "UnixPathAddress" ? 0 : server.address.port
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    run: <A, E>(effect: Effect.Effect<A, E, BenchContext>) => Effect.runPromise(Effect.provide(effect, context)),
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    },
    remove: () => rmSync(dataDir, { recursive: true, force: true })
  }
}
