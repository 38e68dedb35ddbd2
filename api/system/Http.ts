import { Effect, Layer } from "effect"
import { AdminAuthLayer } from "../admin/Auth.ts"
import { HttpApiBuilder } from "effect/http-api"
import { Database } from "../../infra/Database.ts"
import { CatalogReadiness } from "../../pipelines/CatalogReadiness.ts"
import { Metrics } from "../../infra/Metrics.ts"
import { SearchEngine } from "../../infra/SearchEngine.ts"
import { Api } from "../Api.ts"
import { ServiceUnavailable } from "../errors.ts"

export const SystemHandlers = HttpApiBuilder.group(
  Api,
  "system",
  Effect.fn(function* (handlers) {
    const db = yield* Database
    const search = yield* SearchEngine
    const metrics = yield* Metrics
    const catalog = yield* CatalogReadiness
    const databaseOk = db.query("SELECT 1").pipe(
      Effect.timeout("1 second"),
      Effect.as(true),
      Effect.orElseSucceed(() => false)
    )
    return handlers
      .handle("health", () => Effect.succeed({ status: "ok" as const }))
      .handle("ready", () =>
        Effect.gen(function* () {
          const [database, meilisearch] = yield* Effect.all([databaseOk, search.healthy], { concurrency: 2 })
          const checks = { database, meilisearch, catalog: catalog.isReady() }
          if (database && meilisearch && checks.catalog) return { status: "ready" as const, store: db.sql.name, checks }
          const details = { store: db.sql.name, ...checks }
          return yield* new ServiceUnavailable({
            error:
              database && meilisearch
                ? { code: "ingesting", message: "the first ingest of the catalog is still running", details }
                : { code: "not_ready", message: "a dependency is not reachable", details }
          })
        })
      )
      .handle("metrics", () => Effect.sync(() => metrics.render()))
  })
).pipe(Layer.provide(AdminAuthLayer))
