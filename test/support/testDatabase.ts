import { Effect, Layer, Redacted } from "effect"
import { Database } from "../../infra/Database.ts"
import { makePgDatabase } from "../../infra/PgDatabase.ts"
import { freshDatabaseUrl, testStore } from "./postgres.ts"

/**
 * The `Database` of this vitest project's store, for tests below the service:
 * an in-memory DuckDB, or (postgres project) a fresh PostgreSQL database per build.
 */
export const testDatabaseLayer: Layer.Layer<Database, unknown> =
  testStore() === "postgres"
    ? Layer.effect(
        Database,
        Effect.promise(freshDatabaseUrl).pipe(
          Effect.flatMap((url) => makePgDatabase({ url: Redacted.make(url), poolSize: 4 }))
        )
      )
    : Database.layerMemory
