import { Context, Effect, Layer, Option, type Redacted } from "effect"
import { AppConfig } from "./AppConfig.ts"
import { DEFAULT_MEMORY_LIMIT, defaultThreads, makeDuckDbDatabase } from "./DuckDbDatabase.ts"
import { makePgDatabase } from "./PgDatabase.ts"
import type { DatabaseShape } from "./Store.ts"

// The storage seam as a service: the interface is Store.ts (no driver), the
// implementations DuckDbDatabase.ts and PgDatabase.ts; this module only
// chooses one. Neither implementation imports it, so the seam has no circle.

export * from "./Store.ts"
export type { SqlDialect } from "./SqlDialect.ts"
export { CHECKPOINT_THRESHOLD, DEFAULT_MEMORY_LIMIT, defaultThreads, spillDirectory } from "./DuckDbDatabase.ts"

/** Where a one-off tool (an operator command) finds the store: PostgreSQL by URL, or a DuckDB file no server holds. */
export type StoreLocation = { readonly url: Redacted.Redacted<string> } | { readonly file: string }

export class Database extends Context.Service<Database, DatabaseShape>()("app/infra/Database") {
  /** Opens (or creates) a DuckDB file and brings its schema up to date. */
  static readonly make = makeDuckDbDatabase

  /** PostgreSQL when DATABASE_URL is set; otherwise the service's DuckDB file under DATA_DIR. */
  static readonly layer = Layer.effect(
    Database,
    Effect.gen(function* () {
      const config = yield* AppConfig
      if (Option.isSome(config.databaseUrl)) {
        return yield* makePgDatabase({ url: config.databaseUrl.value, poolSize: config.databasePoolSize })
      }
      const threads = Option.getOrElse(config.duckdbThreads, defaultThreads)
      const memoryLimit = Option.getOrElse(config.duckdbMemoryLimit, () => DEFAULT_MEMORY_LIMIT)
      const began = performance.now()
      const database = yield* Database.make(`${config.dataDir}/catalog.duckdb`, 4, threads, memoryLimit)
      // A start-up progress line (and the start-up bench's "DuckDB open + migrate" phase).
      yield* Effect.logInfo("catalog database opened").pipe(
        Effect.annotateLogs({ event: "database_opened", ms: Math.round(performance.now() - began) })
      )
      return database
    })
  )

  /** Opens the store at `location` for a one-off tool, with `connections` connections; closed with the scope. */
  static readonly open = (location: StoreLocation, connections = 1) =>
    "url" in location
      ? makePgDatabase({ url: location.url, poolSize: connections })
      : makeDuckDbDatabase(location.file, connections)

  /** An in-memory database, for tests of code that does not care about files. */
  static readonly layerMemory = Layer.effect(Database, Database.make(":memory:"))
}
