import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BadRequest, ServiceUnavailable } from "../errors.ts"
import { ListQuery, Page } from "../v1/ListParams.ts"
import { CountryParam } from "../discovery/marketParams.ts"

/** Meilisearch pages through at most this many hits (products index `pagination.maxTotalHits`). */
export const MAX_WINDOW = 10_000

const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))
const Money = Schema.NumberFromString.check(Schema.isBetween({ minimum: 0, maximum: 1e9 }))

export const ProductItem = Schema.Struct({
  id: Schema.String.annotate({ description: "Search document id (also the discovery feed's deal id)." }),
  product_id: Schema.String.annotate({ description: "Catalog id: '{feed}:{item_id}'." }),
  feed: Schema.String,
  title: Schema.String,
  description: Schema.String,
  brand: Schema.NullOr(Schema.String),
  category: Schema.NullOr(Schema.String),
  product_type: Schema.NullOr(Schema.String),
  store: Schema.String,
  store_domain: Schema.NullOr(Schema.String),
  url: Schema.String.annotate({
    description: "The merchant's product page (not affiliated: use POST /api/v1/links/match)."
  }),
  image: Schema.NullOr(Schema.String),
  availability: Schema.String,
  price: Schema.Struct({
    amount: Schema.Number,
    currency: Schema.String,
    reference_price: Schema.NullOr(Schema.Number).annotate({
      description: "Lowest price we observed in the 30 days before the current price."
    }),
    reference_observed_at: Schema.NullOr(Schema.String),
    discount_percent: Schema.Number,
    store_was_price: Schema.NullOr(Schema.Number).annotate({ description: "The store's unverified 'was' claim." }),
    checked_at: Schema.String
  }),
  is_deal: Schema.Boolean,
  landing_url: Schema.String
})

export class ProductsApi extends HttpApiGroup.make("products", { topLevel: true })
  .add(
    HttpApiEndpoint.get("searchProducts", "/api/v1/products/search", {
      query: {
        q: Schema.optional(Text(200)).annotate({
          description: "Full-text query (typo-tolerant); empty lists everything."
        }),
        category: Schema.optional(Text(100)),
        store: Schema.optional(Text(100)),
        brand: Schema.optional(Text(100)),
        feed: Schema.optional(Text(100)),
        country: Schema.optional(CountryParam),
        currency: Schema.optional(
          Schema.String.check(Schema.isPattern(/^[A-Za-z]{3}$/, { message: "must be a 3-letter ISO 4217 code" }))
        ).annotate({
          description:
            "Only offers priced in this currency (ISO 4217). Default: the market's currency (country, else DEFAULT_COUNTRY)."
        }),
        min_price: Schema.optional(Money),
        max_price: Schema.optional(Money),
        in_stock: Schema.optional(Schema.Literals(["true", "false"])).annotate({ description: "true: in-stock only." }),
        ...ListQuery
      },
      success: Page(ProductItem),
      error: [BadRequest, ServiceUnavailable]
    }).annotate(
      OpenApi.Description,
      `Full-text product search across all feeds, with filters. Pagination as every /api/v1 list (limit, offset, ` +
        `pagination.total is Meilisearch's estimate); offset + limit may not exceed ${MAX_WINDOW}.`
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Products", description: "Product catalog search" })) {}
