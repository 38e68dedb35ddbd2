import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Database } from "../../infra/Database.ts"
import { Metrics } from "../../infra/Metrics.ts"
import { SearchEngine } from "../../infra/SearchEngine.ts"
import { Api } from "../Api.ts"
import { ServiceUnavailable } from "../errors.ts"

export const SystemHandlers = HttpApiBuilder.group(
  Api,
  "system",
  Effect.fn(function*(handlers) {
    const db = yield* Database
    const search = yield* SearchEngine
    const metrics = yield* Metrics
    const duckdbOk = db.query("SELECT 1").pipe(
      Effect.timeout("1 second"),
      Effect.as(true),
      Effect.orElseSucceed(() => false)
    )
    return handlers
      .handle("health", () => Effect.succeed({ status: "ok" as const }))
      .handle("ready", () =>
        Effect.gen(function*() {
          const [duckdb, meilisearch] = yield* Effect.all([duckdbOk, search.healthy], { concurrency: 2 })
          if (duckdb && meilisearch) return { status: "ready" as const, checks: { duckdb, meilisearch } }
          return yield* new ServiceUnavailable({
            error: { code: "not_ready", message: "a dependency is not reachable", details: { duckdb, meilisearch } }
          })
        }))
      .handle("metrics", () => Effect.sync(() => metrics.render()))
  })
)
