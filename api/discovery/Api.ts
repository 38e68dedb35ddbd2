import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { TAG_PATTERN } from "../../domain/links/feedTrackingId.ts"
import { BadRequest, ServiceUnavailable } from "../errors.ts"
import { DealFeed, SearchFeed } from "../../discovery/schemas.ts"
import { marketFields } from "./marketParams.ts"

export const MAX_QUERY_LENGTH = 200
export const MAX_FILTER_LENGTH = 100
/** How deep /api/search pages: far beyond what a shopper reads, well within the index's 10,000 hits. */
export const MAX_SEARCH_OFFSET = 1000

const IntFromString = (minimum: number, maximum: number) =>
  Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum, maximum }))

const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))
const Phrase = Schema.String.check(
  Schema.isPattern(/\S/, { message: "must not be empty" }),
  Schema.isMaxLength(MAX_QUERY_LENGTH)
)
const Tag = Schema.String.check(
  Schema.isPattern(TAG_PATTERN, {
    message: "must be 1-64 characters of a-z, 0-9, '_' or '-', starting with a letter or digit"
  })
)

const errors = [BadRequest, ServiceUnavailable]

/** /api/search's query parameters: the endpoint's contract, decoded by its hot path too (SearchHotPath.ts). */
export const SearchQuery = Schema.Struct({
  q: Phrase.annotate({
    description: "Required shopping phrase, e.g. 'wireless earbuds under $100 for running'."
  }),
  category: Schema.optional(Text(MAX_FILTER_LENGTH)).annotate({ description: "Category; default all." }),
  limit: Schema.optional(IntFromString(1, 100)).annotate({ description: "1..100, default 8." }),
  offset: Schema.optional(IntFromString(0, MAX_SEARCH_OFFSET)).annotate({
    description: `Results to skip, for the next page: 0..${MAX_SEARCH_OFFSET}, default 0. The answer's nextOffset is the next page's.`
  }),
  tag: Schema.optional(Tag).annotate({ description: "Attribution tag; default 'ai-search'." }),
  ...marketFields
})

export class DiscoveryApi extends HttpApiGroup.make("discovery", { topLevel: true })
  .add(
    HttpApiEndpoint.get("deals", "/api/deals", {
      query: {
        category: Schema.optional(Text(MAX_FILTER_LENGTH)).annotate({
          description: "Category (case-insensitive); default all."
        }),
        store: Schema.optional(Text(MAX_FILTER_LENGTH)).annotate({
          description: "Store name (case-insensitive); default all."
        }),
        limit: Schema.optional(IntFromString(1, 100)).annotate({ description: "1..100, default 24." }),
        tag: Schema.optional(Tag).annotate({ description: "Attribution tag carried by links.tracked; default 'api'." }),
        q: Schema.optional(Text(MAX_QUERY_LENGTH)).annotate({ description: "Optional product or search phrase." }),
        ...marketFields
      },
      success: DealFeed,
      error: errors
    }).annotate(
      OpenApi.Description,
      "Curated deals: products priced meaningfully below our own 30-day low. Ordered by deal score, or by relevance " +
        "with q. 400 names the offending parameter; 503 (with Retry-After) when search is unavailable."
    ),
    HttpApiEndpoint.get("search", "/api/search", {
      query: SearchQuery.fields,
      success: SearchFeed,
      error: errors
    }).annotate(
      OpenApi.Description,
      "Intent search: price, category, brand, recipient and occasion phrases become filters; modifiers (cheap, " +
        "top rated, ...) order results and filler (please, i need, ...) is ignored; when nothing matches every word a " +
        "fixed relaxation ladder is tried, never relaxing a price bound, currency or the category parameter. guidance " +
        "explains the interpretation. Out-of-stock products only when nothing in stock matches. Recipients and ages " +
        "(for dad, for her, for a 10 year old, toddler) filter on the products' gender and age group, and a phrase " +
        "naming a person but no product browses that person's gift categories; price words (cheap, budget) order " +
        "the products that name the words cheapest first within each currency. Pages with offset (total, nextOffset); " +
        "an empty answer carries suggestions, each a phrase the catalog answers."
    )
  )
  .annotateMerge(
    OpenApi.annotations({ title: "Discovery feed", description: "Deals and intent search for shopping agents" })
  ) {}
