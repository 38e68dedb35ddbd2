import { Effect, Layer, Redacted } from "effect"
import { Database } from "../../infra/Database.ts"
import { makePgDatabase } from "../../infra/PgDatabase.ts"
import { freshDatabaseUrl, testStore } from "./postgres.ts"

/**
 * The store of this test run, without the rest of the service: DuckDB in
 * memory, or (postgres project) a fresh PostgreSQL database, migrated.
 */
export const testDatabaseLayer = (): Layer.Layer<Database> =>
  testStore() === "postgres"
    ? Layer.effect(
        Database,
        Effect.promise(() => freshDatabaseUrl()).pipe(
          Effect.flatMap((url) => makePgDatabase({ url: Redacted.make(url), poolSize: 2 })),
          Effect.orDie
        )
      )
    : Database.layerMemory.pipe(Layer.orDie)
