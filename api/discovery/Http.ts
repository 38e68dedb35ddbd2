import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AppConfig } from "../../infra/AppConfig.ts"
import { PublicUrl } from "../../infra/PublicUrl.ts"
import { marketNote } from "../../domain/markets/markets.ts"
import { requestMarket } from "./marketParams.ts"
import type { DealOffer } from "../../readModel/modelDocuments.ts"
import { Api } from "../Api.ts"
import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import { disclosureFor, presentDeal } from "../../discovery/present.ts"
import { searchFeed } from "./searchFeed.ts"
import { withoutControlCharacters } from "../../domain/text/controlCharacters.ts"
import { searchUnavailable } from "./unavailable.ts"
import { SERVICE_TAGS } from "../../domain/links/serviceTags.ts"

export const DEALS_DEFAULT_LIMIT = 24
export const DEALS_DEFAULT_TAG = SERVICE_TAGS.deals

export const DiscoveryHandlers = HttpApiBuilder.group(
  Api,
  "discovery",
  Effect.fn(function* (handlers) {
    const discovery = yield* DiscoverySearch
    const publicUrl = yield* PublicUrl
    const { defaultCountry } = yield* AppConfig
    const present = (documents: ReadonlyArray<DealOffer>, tag: string) =>
      documents.map((doc) => presentDeal(doc, { base: publicUrl.base, tag }))

    return handlers
      .handle("deals", ({ query }) => {
        const { chosen, currency, country } = requestMarket(query, defaultCountry)
        return discovery
          .deals({
            q: query.q,
            category: query.category,
            store: query.store,
            limit: query.limit ?? DEALS_DEFAULT_LIMIT,
            currency,
            country
          })
          .pipe(
            Effect.map(({ documents }) => {
              const deals = present(documents, query.tag ?? DEALS_DEFAULT_TAG)
              const scope = [query.category, query.store].filter((part) => part !== undefined && part.trim() !== "")
              return {
                // made from the client's parameters: without the control characters they may carry
                name: withoutControlCharacters(
                  `Curated deals${scope.length > 0 ? ` (${scope.join(", ")})` : ""}${query.q ? ` for "${query.q.trim()}"` : ""}`
                ),
                market: marketNote(
                  chosen,
                  documents.map((doc) => doc.currency),
                  { countries: documents.flatMap((doc) => doc.countries) }
                ),
                disclosure: disclosureFor(documents),
                count: deals.length,
                deals
              }
            }),
            Effect.catchTag("SearchError", searchUnavailable)
          )
      })
      .handle("search", ({ query }) =>
        searchFeed(discovery, publicUrl.base, query, defaultCountry).pipe(
          // Written as JSON directly: the body is typed as the schema's own
          // type, and HttpApi's encode would walk the Deal schema for every
          // field of every result to produce the same JSON (~4% of a
          // search's CPU in the bench:search profile). Valid requests are
          // answered by the hot path (SearchHotPath.ts) before they get here.
          Effect.map((body) => HttpServerResponse.jsonUnsafe(body)),
          Effect.catchTag("SearchError", searchUnavailable)
        )
      )
  })
)
