import { Context, Effect, Layer, Option } from "effect"
import { AppConfig } from "./AppConfig.ts"
import { Database, DEFAULT_MEMORY_LIMIT, defaultThreads } from "./Database.ts"
import { asDuckDb, makeDuckDbDatabase } from "./DuckDbDatabase.ts"
import type { DuckDbShape } from "./Store.ts"

/**
 * The pipelines' staging and validation engine: always DuckDB (`read_csv`,
 * named parameters, appending into an attached database, the SQL checks),
 * and typed so (`DuckDbShape`): a DuckDB-only call made on the shared store
 * instead does not compile. With the embedded default it IS the `Database`
 * instance, so staging and catalog share one file and one transaction; with
 * DATABASE_URL it is its own file, `$DATA_DIR/staging.duckdb`, and the
 * validated rows go on to PostgreSQL.
 */
export class Staging extends Context.Service<Staging, DuckDbShape>()("app/infra/Staging") {
  static readonly layer = Layer.effect(
    Staging,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const own = asDuckDb(yield* Database)
      if (own !== undefined) return own
      const threads = Option.getOrElse(config.duckdbThreads, defaultThreads)
      const memoryLimit = Option.getOrElse(config.duckdbMemoryLimit, () => DEFAULT_MEMORY_LIMIT)
      return yield* makeDuckDbDatabase(`${config.dataDir}/staging.duckdb`, 4, threads, memoryLimit)
    })
  )
}
