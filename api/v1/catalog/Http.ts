import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CatalogQueries } from "../../../catalog/CatalogQueries.ts"
import { Api } from "../../Api.ts"
import { orUnavailable } from "../dbUnavailable.ts"
import { pageOf, pageRequest } from "../ListParams.ts"

export const CatalogHandlers = HttpApiBuilder.group(
  Api,
  "catalog",
  Effect.fn(function* (handlers) {
    const catalog = yield* CatalogQueries
    return handlers
      .handle("networks", ({ query }) =>
        Effect.gen(function* () {
          const page = pageRequest(query)
          const { rows, total } = yield* orUnavailable(catalog.networks(query, page))
          return pageOf(rows, page, total)
        })
      )
      .handle("programs", ({ query }) =>
        Effect.gen(function* () {
          const page = pageRequest(query)
          const { rows, total } = yield* orUnavailable(catalog.programs(query, page))
          return pageOf(rows, page, total)
        })
      )
  })
)
