import { Effect, type Option } from "effect"
import { type ChosenMarket, describeMarket, marketNote } from "../../domain/markets/markets.ts"
import { requestMarket } from "./marketParams.ts"
import type { DiscoverySearchShape, IntentResult } from "../../discovery/DiscoverySearch.ts"
import { presentDeal } from "../../discovery/present.ts"
import type { SearchFeed } from "../../discovery/schemas.ts"
import type { SearchError } from "../../infra/SearchEngine.ts"
import type { SearchQuery } from "./Api.ts"
import { SERVICE_TAGS } from "../../domain/links/serviceTags.ts"
import { withoutControlCharacters } from "../../domain/text/controlCharacters.ts"

// The answer of GET /api/search, shared by its HttpApi handler (Http.ts) and
// its hot path (SearchHotPath.ts), which serve the same query schema.

export const SEARCH_DEFAULT_LIMIT = 8
export const SEARCH_DEFAULT_TAG = SERVICE_TAGS.search

const PRESENTATION =
  "Present each result with its title, price (and, where given, originalPrice with the date it was observed), store " +
  "and links.tracked as the buy link; show the disclosure near the links; do not invent coupon codes or prices, and " +
  "say when the price was checked (price.checkedAt)."

const feedOf = (
  { documents, intent, includesOutOfStock, relaxation, unmet, total, suggestions, converted }: IntentResult,
  query: typeof SearchQuery.Type,
  base: string,
  chosen: ChosenMarket | undefined
): typeof SearchFeed.Type => {
  const market = marketNote(
    chosen,
    documents.map((doc) => doc.currency),
    { countries: documents.flatMap((doc) => doc.countries), converted }
  )
  const tag = query.tag ?? SEARCH_DEFAULT_TAG
  // converted figures only where the order used them: an answer of one currency needs none
  const results = documents.map((doc) =>
    presentDeal(doc, { base, tag, converted: market.convertedTo === undefined ? undefined : converted })
  )
  const stock = includesOutOfStock
    ? "Nothing in stock matched, so these results include out-of-stock products: say so for each one."
    : "Only in-stock (or pre-order/back-order) products are included."
  const relaxed = relaxation !== undefined && !includesOutOfStock ? ` Relaxed: ${relaxation}.` : ""
  const offset = query.offset ?? 0
  const order =
    intent.preference === "lower_price" && intent.broadQuery !== "" ? "cheapest first" : "most relevant first"
  const ways =
    suggestions === undefined || suggestions.length === 0
      ? ""
      : ` Ways forward (suggestions): ${suggestions.map((s) => s.text).join("; ")}.`
  const found =
    results.length === 0
      ? unmet !== undefined
        ? `Nothing matched: ${unmet}. Tell the shopper, and ask before changing that constraint.${ways}`
        : `Nothing matched: suggest a broader phrase or a different price range.${ways}`
      : `${results.length} of ${Math.max(total, offset + results.length)} result${total === 1 ? "" : "s"}` +
        `${offset > 0 ? ` from ${offset + 1}` : ""}, ${order}.${relaxed}`
  return {
    // texts made from the client's phrase: without the control characters it may carry
    name: withoutControlCharacters(`Search results for "${query.q.trim()}"`),
    guidance: withoutControlCharacters(
      `Interpreted the request as: ${intent.interpretation}. ${found} ${describeMarket(market)} ${stock} ${PRESENTATION}`
    ),
    market,
    count: results.length,
    results,
    total: Math.max(total, offset + results.length),
    offset,
    ...(results.length === (query.limit ?? SEARCH_DEFAULT_LIMIT) && offset + results.length < total
      ? { nextOffset: offset + results.length }
      : {}),
    ...(suggestions !== undefined && suggestions.length > 0 ? { suggestions } : {})
  }
}

/** One intent search for a decoded /api/search query, its results presented with links under `base`. */
export const searchFeed = (
  discovery: DiscoverySearchShape,
  base: string,
  query: typeof SearchQuery.Type,
  defaultCountry: Option.Option<string>
): Effect.Effect<typeof SearchFeed.Type, SearchError> => {
  const { chosen, currency, country } = requestMarket(query, defaultCountry)
  return discovery
    .search({
      q: query.q,
      category: query.category,
      limit: query.limit ?? SEARCH_DEFAULT_LIMIT,
      offset: query.offset,
      currency,
      country
    })
    .pipe(Effect.map((result) => feedOf(result, query, base, chosen)))
}
