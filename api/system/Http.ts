import { Effect, Layer } from "effect"
import { AdminAuthLayer } from "../admin/Auth.ts"
import { HttpApiBuilder } from "effect/http-api"
import { Database } from "../../infra/Database.ts"
import { CatalogReadiness } from "../../pipelines/CatalogReadiness.ts"
import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
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
    const discovery = yield* DiscoverySearch
    const databaseOk = db.query("SELECT 1").pipe(
      Effect.timeout("1 second"),
      Effect.as(true),
      Effect.orElseSucceed(() => false)
    )
    // Search reads phrases with the index's category and brand names. Loaded
    // once after the catalog is ready (a search during the first ingest may
    // have loaded the empty index's): until then /ready is not ready, so no
    // first search reads "lego" as a plain word and a later one as a brand.
    let vocabularyLoaded = false
    const vocabularyOk = (catalogReady: boolean) =>
      vocabularyLoaded || !catalogReady
        ? Effect.succeed(vocabularyLoaded)
        : discovery.refreshVocabulary.pipe(
            Effect.timeout("2 seconds"),
            Effect.tap(() =>
              Effect.sync(() => {
                vocabularyLoaded = true
              })
            ),
            Effect.as(true),
            Effect.orElseSucceed(() => false)
          )
    return handlers
      .handle("health", () => Effect.succeed({ status: "ok" as const }))
      .handle("ready", () =>
        Effect.gen(function* () {
          const [database, meilisearch] = yield* Effect.all([databaseOk, search.healthy], { concurrency: 2 })
          const catalogReady = catalog.isReady()
          const vocabulary = meilisearch ? yield* vocabularyOk(catalogReady) : vocabularyLoaded
          const checks = { database, meilisearch, catalog: catalogReady, vocabulary }
          if (database && meilisearch && checks.catalog && vocabulary)
            return { status: "ready" as const, store: db.sql.name, checks }
          const details = { store: db.sql.name, ...checks }
          return yield* new ServiceUnavailable({
            error:
              database && meilisearch && !catalogReady
                ? { code: "ingesting", message: "the first ingest of the catalog is still running", details }
                : database && meilisearch
                  ? { code: "not_ready", message: "the search vocabulary is not loaded yet", details }
                  : { code: "not_ready", message: "a dependency is not reachable", details }
          })
        })
      )
      .handle("metrics", () => Effect.sync(() => metrics.render()))
  })
).pipe(Layer.provide(AdminAuthLayer))
