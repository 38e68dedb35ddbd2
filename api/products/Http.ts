import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { quote } from "../../domain/intent/parseIntent.ts"
import { PublicUrl } from "../../infra/PublicUrl.ts"
import type { ProductDocument } from "../../readModel/documents.ts"
import { Api } from "../Api.ts"
import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import { countryFilter } from "../../discovery/marketIntent.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { requestMarket } from "../discovery/marketParams.ts"
import { landingPath } from "../../discovery/present.ts"
import { searchUnavailable } from "../discovery/unavailable.ts"
import { badRequest } from "../errors.ts"
import { pageOf, pageRequest } from "../v1/ListParams.ts"
import { MAX_WINDOW } from "./Api.ts"
import { round2 } from "../../domain/money/round2.ts"

const item = (doc: ProductDocument, base: string) => ({
  id: doc.id,
  product_id: doc.product_id,
  feed: doc.feed,
  title: doc.title,
  description: doc.description,
  brand: doc.brand,
  category: doc.category,
  product_type: doc.product_type,
  store: doc.store,
  store_domain: doc.store_domain,
  url: doc.link,
  image: doc.image,
  availability: doc.availability,
  price: {
    amount: round2(doc.price),
    currency: doc.currency,
    reference_price: doc.reference_price,
    reference_observed_at: doc.reference_observed_at,
    discount_percent: doc.discount,
    store_was_price: doc.feed_was_price,
    checked_at: doc.price_checked_at
  },
  is_deal: doc.is_deal,
  landing_url: `${base}${landingPath(doc.id)}`
})

export const ProductsHandlers = HttpApiBuilder.group(
  Api,
  "products",
  Effect.fn(function* (handlers) {
    const discovery = yield* DiscoverySearch
    const publicUrl = yield* PublicUrl
    const { defaultCountry } = yield* AppConfig
    return handlers.handle("searchProducts", ({ query }) =>
      Effect.gen(function* () {
        const page = pageRequest(query)
        if (page.offset + page.limit > MAX_WINDOW) {
          return yield* badRequest("offset", `offset + limit must not exceed ${MAX_WINDOW}; narrow the query instead`)
        }
        if (query.min_price !== undefined && query.max_price !== undefined && query.min_price > query.max_price) {
          return yield* badRequest("min_price", "must not be greater than max_price")
        }
        const { currency, country } = requestMarket(
          { country: query.country, currency: query.currency?.trim() || undefined },
          defaultCountry
        )
        const filters = [
          ...(["category", "store", "brand", "feed"] as const).flatMap((field) => {
            const value = query[field]?.trim()
            // category matches any level of the product's category path
            return value ? [`${field === "category" ? "categories" : field} = ${quote(value)}`] : []
          }),
          // the market as on /api/search: its country's offers in its currency, unless another currency is asked for
          ...(currency ? [`currency = ${quote(currency)}`] : []),
          ...(country ? [countryFilter(country)] : []),
          ...(query.min_price !== undefined ? [`price >= ${query.min_price}`] : []),
          ...(query.max_price !== undefined ? [`price <= ${query.max_price}`] : []),
          ...(query.in_stock === "true" ? ["in_stock = true"] : query.in_stock === "false" ? ["in_stock = false"] : [])
        ]
        return yield* discovery.products({ q: query.q?.trim() ?? "", filters, ...page }).pipe(
          Effect.map((result) =>
            pageOf(
              result.documents.map((doc) => item(doc, publicUrl.base)),
              page,
              result.total
            )
          ),
          Effect.catchTag("SearchError", searchUnavailable)
        )
      })
    )
  })
)
