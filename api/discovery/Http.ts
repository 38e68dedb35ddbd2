import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { PublicUrl } from "../../infra/PublicUrl.ts"
import type { DealOffer } from "../../readModel/modelDocuments.ts"
import { Api } from "../Api.ts"
import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import { disclosureFor, presentDeal } from "../../discovery/present.ts"
import type { SearchFeed } from "../../discovery/schemas.ts"
import { searchUnavailable } from "./unavailable.ts"

export const DEALS_DEFAULT_LIMIT = 24
export const SEARCH_DEFAULT_LIMIT = 8
export const DEALS_DEFAULT_TAG = "api"
export const SEARCH_DEFAULT_TAG = "ai-search"

const PRESENTATION =
  "Present each result with its title, price (and, where given, originalPrice with the date it was observed), store " +
  "and links.tracked as the buy link; show the disclosure near the links; do not invent coupon codes or prices, and " +
  "say when the price was checked (price.checkedAt)."

export const DiscoveryHandlers = HttpApiBuilder.group(
  Api,
  "discovery",
  Effect.fn(function* (handlers) {
    const discovery = yield* DiscoverySearch
    const publicUrl = yield* PublicUrl
    const present = (documents: ReadonlyArray<DealOffer>, tag: string) =>
      documents.map((doc) => presentDeal(doc, { base: publicUrl.base, tag }))

    return handlers
      .handle("deals", ({ query }) =>
        discovery
          .deals({
            q: query.q,
            category: query.category,
            store: query.store,
            limit: query.limit ?? DEALS_DEFAULT_LIMIT
          })
          .pipe(
            Effect.map(({ documents }) => {
              const deals = present(documents, query.tag ?? DEALS_DEFAULT_TAG)
              const scope = [query.category, query.store].filter((part) => part !== undefined && part.trim() !== "")
              return {
                name: `Curated deals${scope.length > 0 ? ` (${scope.join(", ")})` : ""}${query.q ? ` for "${query.q.trim()}"` : ""}`,
                disclosure: disclosureFor(documents),
                count: deals.length,
                deals
              }
            }),
            Effect.catchTag("SearchError", searchUnavailable)
          )
      )
      .handle("search", ({ query }) =>
        discovery.search({ q: query.q, category: query.category, limit: query.limit ?? SEARCH_DEFAULT_LIMIT }).pipe(
          Effect.map(({ documents, intent, includesOutOfStock, relaxation, unmet }) => {
            const results = present(documents, query.tag ?? SEARCH_DEFAULT_TAG)
            const stock = includesOutOfStock
              ? "Nothing in stock matched, so these results include out-of-stock products: say so for each one."
              : "Only in-stock (or pre-order/back-order) products are included."
            const relaxed = relaxation !== undefined && !includesOutOfStock ? ` Relaxed: ${relaxation}.` : ""
            const found =
              results.length === 0
                ? unmet !== undefined
                  ? `Nothing matched: ${unmet}. Tell the shopper, and ask before changing that constraint.`
                  : "Nothing matched: suggest a broader phrase or a different price range."
                : `${results.length} result${results.length === 1 ? "" : "s"}, most relevant first.${relaxed}`
            const body: typeof SearchFeed.Type = {
              name: `Search results for "${query.q.trim()}"`,
              guidance: `Interpreted the request as: ${intent.interpretation}. ${found} ${stock} ${PRESENTATION}`,
              count: results.length,
              results
            }
            // Written as JSON directly: the body is typed as the schema's own
            // type, and HttpApi's encode would walk the Deal schema for every
            // field of every result to produce the same JSON (~4% of a
            // search's CPU in the bench:search profile).
            return HttpServerResponse.jsonUnsafe(body)
          }),
          Effect.catchTag("SearchError", searchUnavailable)
        )
      )
  })
)
