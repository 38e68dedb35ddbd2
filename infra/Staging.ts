import { Context, Effect, Layer, Option } from "effect"
import { AppConfig } from "./AppConfig.ts"
import { Database, type DatabaseShape, DEFAULT_MEMORY_LIMIT, defaultThreads } from "./Database.ts"

/**
 * The pipelines' staging and validation engine: always DuckDB (`read_csv`,
 * named parameters, the SQL checks). With the embedded default it IS the
 * `Database` instance, so staging and catalog share one file and one
 * transaction; with DATABASE_URL it is its own file, `$DATA_DIR/staging.duckdb`,
 * and the validated rows go on to PostgreSQL.
 */
export class Staging extends Context.Service<Staging, DatabaseShape>()("app/infra/Staging") {
  static readonly layer = Layer.effect(
    Staging,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const database = yield* Database
      if (database.dialect === "duckdb") return database
      const threads = Option.getOrElse(config.duckdbThreads, defaultThreads)
      const memoryLimit = Option.getOrElse(config.duckdbMemoryLimit, () => DEFAULT_MEMORY_LIMIT)
      return yield* Database.make(`${config.dataDir}/staging.duckdb`, 4, threads, memoryLimit)
    })
  )
}
