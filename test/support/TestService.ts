import { Clock, Context, Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { cpSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { HttpServer } from "effect/http"
import { inject } from "vitest"
import { AppConfig, type AppConfigShape } from "../../infra/AppConfig.ts"
import { makeService } from "../../service.ts"
import { freshDatabaseUrl, testStore } from "./postgres.ts"

export type ServiceContext = Layer.Success<ReturnType<typeof makeService>>

export interface RunningService {
  /** e.g. http://127.0.0.1:41234 */
  readonly url: string
  readonly dataDir: string
  readonly config: AppConfigShape
  /** Runs an effect against the running service's layers (Database, SearchEngine, ...). */
  run<A, E>(effect: Effect.Effect<A, E, ServiceContext>): Promise<A>
  close(): Promise<void>
}

/** A fresh temp folder, removed by `rm()`. */
export const tempDir = (prefix = "svc-") => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, rm: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * Config pointing at the shared test Meilisearch with an index prefix of its
 * own; in the postgres project (TEST_STORE=postgres) at the test file's own
 * PostgreSQL database.
 */
export const testConfig = (dataDir: string, overrides: Partial<AppConfigShape> = {}): AppConfigShape => {
  let config!: AppConfigShape
  Effect.runSync(
    Effect.gen(function* () {
      config = yield* AppConfig
    }).pipe(
      Effect.provide(
        AppConfig.layerWith({
          dataDir,
          meiliUrl: Option.some(inject("meiliUrl")),
          meiliMasterKey: Option.some(Redacted.make(inject("meiliKey"))),
          meiliIndexPrefix: `t${randomBytes(4).toString("hex")}_`,
          ...postgresStore(process.env.TEST_FILE_DATABASE_URL),
          ...overrides
        })
      )
    )
  )
  return config
}

const postgresStore = (url: string | undefined): Partial<AppConfigShape> =>
  testStore() === "postgres" && url !== undefined ? { databaseUrl: Option.some(Redacted.make(url)) } : {}

/**
 * Starts the whole service for real: DuckDB in a temp folder (in the postgres
 * project: a fresh PostgreSQL database of its own), the shared test
 * Meilisearch under a unique index prefix, HTTP on a free loopback port.
 * `clock` replaces Effect's clock for the whole service (a reference clock
 * pins the calendar a fixture was written for). `seed` starts it over data
 * already there: a DATA_DIR to copy, and (postgres project) a database to
 * copy its own from.
 */
export const startService = async (
  overrides: Partial<AppConfigShape> = {},
  options: {
    readonly clock?: Clock.Clock
    readonly seed?: { readonly dataDir: string; readonly databaseTemplate?: string }
  } = {}
): Promise<RunningService> => {
  const temp = tempDir()
  if (options.seed !== undefined) cpSync(options.seed.dataDir, temp.dir, { recursive: true })
  const store = testStore() === "postgres" ? postgresStore(await freshDatabaseUrl(options.seed?.databaseTemplate)) : {}
  const config = testConfig(temp.dir, { ...store, ...overrides })
  const scope = Effect.runSync(Scope.make())
  const service = makeService(Layer.succeed(AppConfig, config))
  const layer =
    options.clock === undefined ? service : service.pipe(Layer.provideMerge(Layer.succeed(Clock.Clock, options.clock)))
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope)).catch(async (error: unknown) => {
    // a service that failed to start leaves nothing behind either
    await Effect.runPromise(Scope.close(scope, Exit.void))
    temp.rm()
    throw error
  })
  const server = Context.get(context, HttpServer.HttpServer)
  const port = server.address._tag === "UnixPathAddress" ? 0 : server.address.port
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir: temp.dir,
    config,
    run: (effect) => Effect.runPromise(Effect.provide(effect, context)),
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      temp.rm()
    }
  }
}
