import { Effect, Option } from "effect"
import { Database } from "../../infra/Database.ts"
import { PublicUrl } from "../../infra/PublicUrl.ts"
import type { SearchError } from "../../infra/SearchEngine.ts"
import type { ProductDocument } from "../../readModel/documents.ts"
import { offerMatches } from "../../readModel/offerFilter.ts"
import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import { RETRY_AFTER_SECONDS } from "../discovery/unavailable.ts"
import { callerTag } from "./McpCaller.ts"
import { decodeArguments, invalidArgument, toolFailure } from "./toolErrors.ts"
import { GetProductParams, LookupCatalogParams, SearchCatalogParams } from "./toolDefinitions.ts"
import { filterExpressions, matchesFilters } from "./ucp/filters.ts"
import { legacyProductId, resolveKey } from "./ucp/lookupKeys.ts"
import { ucpProduct } from "./ucp/products.ts"
import { lookupProducts, productDetail } from "./ucp/variantSets.ts"
import { LOOKUP_CAPABILITY, responseEnvelope, SEARCH_CAPABILITY } from "./ucp/profile.ts"

// The UCP catalog tools over the discovery index: search_catalog,
// lookup_catalog and get_product. Every product is rendered from index
// documents alone, like /api/search; a lookup by merchant URL or GTIN first
// reads which offers those are from the store (ucp/lookupKeys.ts).

const DEFAULT_PAGE = 10
/** Deeper than this, an agent should refine the query rather than page on. */
const MAX_OFFSET = 200
/** Offers of one model get_product lists. */
const MAX_OFFERS = 50
/** Offers a search answer lists per product (most relevant first); get_product lists every one. */
const SEARCH_VARIANTS = 5

/** The JSON API's 503 body for a search Meilisearch could not serve. */
export const searchUnavailable = (_: SearchError) =>
  toolFailure("search_unavailable", "product search is temporarily unavailable; retry shortly", {
    retry_after_seconds: RETRY_AFTER_SECONDS
  })

// Cursors are opaque to clients; ours is the offset in products, so a page is stable while the catalog is.
const encodeCursor = (offset: number) => Buffer.from(`o:${offset}`, "utf8").toString("base64url")
const decodeCursor = (cursor: string | undefined) => {
  if (cursor === undefined) return Effect.succeed(0)
  const match = /^o:(\d{1,4})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"))
  const offset = match === null ? NaN : Number(match[1])
  return Number.isInteger(offset) && offset <= MAX_OFFSET
    ? Effect.succeed(offset)
    : Effect.fail(invalidArgument("catalog.pagination.cursor", "is not a cursor from a previous search_catalog answer"))
}

const storageUnavailable = toolFailure("storage_unavailable", "the catalog store is not reachable; retry shortly", {
  retry_after_seconds: RETRY_AFTER_SECONDS
})

export const makeCatalogTools = Effect.gen(function* () {
  const discovery = yield* DiscoverySearch
  const db = yield* Database
  const publicUrl = yield* PublicUrl
  const present = (
    offers: ReadonlyArray<ProductDocument>,
    tag: string,
    maxVariants?: number,
    axes?: ReadonlyArray<string>
  ) => ucpProduct(offers, { base: publicUrl.base, tag }, maxVariants, axes)

  /** A model's offers that meet the filters, `first` leading (the offer asked for or shown). */
  const offersOf = (
    first: ProductDocument,
    offers: ReadonlyArray<ProductDocument>,
    keep: (offer: ProductDocument) => boolean
  ) => [first, ...offers.filter((offer) => offer.id !== first.id && keep(offer))]

  /** One index document per model: a page of models is one search, each with its offers. */
  const modelsFor = (q: string, filters: ReadonlyArray<string>, offset: number, limit: number) =>
    discovery.models({ q, filters, limit, offset }).pipe(
      Effect.map(({ models }) => {
        const filter = filters.join(" AND ")
        return models.map((model) => offersOf(model.shown, model.offers, (offer) => offerMatches(offer, filter)))
      }),
      Effect.mapError(searchUnavailable)
    )

  const searchCatalog = (input: unknown) =>
    Effect.gen(function* () {
      const { catalog } = yield* decodeArguments(SearchCatalogParams)(input)
      const query = catalog.query?.trim() ?? ""
      if (query === "" && catalog.filters === undefined) {
        return yield* Effect.fail(invalidArgument("catalog.query", "give a query, filters, or both"))
      }
      const tag = yield* callerTag
      const limit = catalog.pagination?.limit ?? DEFAULT_PAGE
      const offset = yield* decodeCursor(catalog.pagination?.cursor)
      const models = yield* modelsFor(query, filterExpressions(catalog.filters, catalog.context), offset, limit + 1)
      const hasNext = models.length > limit && offset + limit <= MAX_OFFSET
      return {
        ucp: responseEnvelope(SEARCH_CAPABILITY),
        products: models.slice(0, limit).map((offers) => present(offers, tag, SEARCH_VARIANTS)),
        pagination: { has_next_page: hasNext, ...(hasNext ? { cursor: encodeCursor(offset + limit) } : {}) },
        ...(models.length === 0
          ? {
              messages: [
                { type: "info", code: "no_results", content: "Nothing matched: try fewer words or wider filters." }
              ]
            }
          : {})
      }
    })

  const lookupCatalog = (input: unknown) =>
    Effect.gen(function* () {
      const { catalog } = yield* decodeArguments(LookupCatalogParams)(input)
      const tag = yield* callerTag
      const inputs = [...new Set(catalog.ids.map((id) => id.trim()))]
      const resolved = yield* Effect.forEach(inputs, (id) => resolveKey(discovery, db, id), { concurrency: 4 }).pipe(
        Effect.mapError((error) => (error._tag === "SearchError" ? searchUnavailable(error) : storageUnavailable))
      )
      const keep = (offer: ProductDocument) => matchesFilters(offer, catalog.filters, catalog.context)
      const products = lookupProducts(resolved.flat(), keep).map(({ offers, inputsOf }) => {
        const product = present(offers, tag)
        return {
          ...product,
          variants: product.variants.map((variant) => ({ ...variant, inputs: inputsOf(variant.id) }))
        }
      })
      const missing = inputs.filter((_, i) => resolved[i].length === 0)
      return {
        ucp: responseEnvelope(LOOKUP_CAPABILITY),
        products,
        ...(missing.length > 0
          ? { messages: missing.map((id) => ({ type: "info", code: "not_found", content: id })) }
          : {})
      }
    })

  const getProduct = (input: unknown) =>
    Effect.gen(function* () {
      const { catalog } = yield* decodeArguments(GetProductParams)(input)
      const tag = yield* callerTag
      const id = catalog.id.trim()
      const model = yield* discovery.modelOf(legacyProductId(id)).pipe(Effect.mapError(searchUnavailable))
      if (Option.isNone(model)) {
        return yield* Effect.fail(toolFailure("product_not_found", `no product or variant has the id '${id}'`))
      }
      const detail = productDetail(model.value, {
        keep: (offer) => matchesFilters(offer, catalog.filters, catalog.context),
        selected: catalog.selected ?? [],
        preferences: catalog.preferences ?? []
      })
      if (detail === undefined) {
        return yield* Effect.fail(
          toolFailure("product_not_found", `no variant of '${id}' meets the filters and context given`)
        )
      }
      const product = present(detail.offers.slice(0, MAX_OFFERS), tag, undefined, detail.axes)
      return {
        ucp: responseEnvelope(LOOKUP_CAPABILITY),
        product: { ...product, ...detail.fields },
        ...(detail.messages.length > 0 ? { messages: detail.messages } : {})
      }
    })

  return { searchCatalog, lookupCatalog, getProduct }
})
