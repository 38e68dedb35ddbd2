import { Effect, Option } from "effect"
import { AppConfig } from "../../infra/AppConfig.ts"
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
import { marketContext } from "./ucp/market.ts"
import { PRODUCT_PREFIX, ucpProduct } from "./ucp/products.ts"
import { LOOKUP_CAPABILITY, responseEnvelope, SEARCH_CAPABILITY } from "./ucp/profile.ts"

// The UCP catalog tools over the discovery index: search_catalog,
// lookup_catalog and get_product. Every product is rendered from index
// documents alone, like /api/search.

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

/** A product id names a model through its featured offer; anything else is read as a variant (offer) id. */
const resolveId = (id: string) =>
  id.startsWith(PRODUCT_PREFIX)
    ? { documentId: id.slice(PRODUCT_PREFIX.length), match: "featured" as const }
    : { documentId: id, match: "exact" as const }

export const makeCatalogTools = Effect.gen(function* () {
  const discovery = yield* DiscoverySearch
  const publicUrl = yield* PublicUrl
  const { defaultCountry } = yield* AppConfig
  const present = (offers: ReadonlyArray<ProductDocument>, tag: string, maxVariants?: number) =>
    ucpProduct(offers, { base: publicUrl.base, tag }, maxVariants)

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
      const { context } = yield* marketContext(catalog.context, catalog.filters, defaultCountry)
      const query = catalog.query?.trim() ?? ""
      if (query === "" && catalog.filters === undefined) {
        return yield* Effect.fail(invalidArgument("catalog.query", "give a query, filters, or both"))
      }
      const tag = yield* callerTag
      const limit = catalog.pagination?.limit ?? DEFAULT_PAGE
      const offset = yield* decodeCursor(catalog.pagination?.cursor)
      const models = yield* modelsFor(query, filterExpressions(catalog.filters, context), offset, limit + 1)
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
      const { context } = yield* marketContext(catalog.context, catalog.filters, defaultCountry)
      const tag = yield* callerTag
      const ids = [...new Set(catalog.ids.map((id) => id.trim()))]
      const found = yield* Effect.forEach(
        ids,
        (id) => {
          const { documentId, match } = resolveId(id)
          return discovery
            .document(documentId)
            .pipe(Effect.map((doc) => ({ id, match, doc: Option.getOrUndefined(doc) })))
        },
        { concurrency: 4 }
      ).pipe(Effect.mapError(searchUnavailable))
      // Ids that resolve to offers of one model make one product; each offer lists the ids that found it.
      const byModel = new Map<
        string,
        Map<string, { doc: ProductDocument; inputs: Array<{ id: string; match: string }> }>
      >()
      for (const { id, match, doc } of found) {
        if (doc === undefined || !matchesFilters(doc, catalog.filters, context)) continue
        const offers = byModel.get(doc.group_key) ?? new Map()
        byModel.set(doc.group_key, offers)
        const offer = offers.get(doc.id) ?? { doc, inputs: [] }
        offers.set(doc.id, offer)
        offer.inputs.push({ id, match })
      }
      const products = [...byModel.values()].map((offers) => {
        const entries = [...offers.values()]
        const product = present(
          entries.map((entry) => entry.doc),
          tag
        )
        return {
          ...product,
          variants: product.variants.map((variant, i) => ({ ...variant, inputs: entries[i].inputs }))
        }
      })
      const missing = found.filter((entry) => entry.doc === undefined).map((entry) => entry.id)
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
      const { context } = yield* marketContext(catalog.context, catalog.filters, defaultCountry)
      const tag = yield* callerTag
      const id = catalog.id.trim()
      const model = yield* discovery.modelOf(resolveId(id).documentId).pipe(Effect.mapError(searchUnavailable))
      if (Option.isNone(model)) {
        return yield* Effect.fail(toolFailure("product_not_found", `no product or variant has the id '${id}'`))
      }
      const { listed, notice } = inCurrency(
        model.value,
        (offer) => matchesFilters(offer, catalog.filters, context),
        context?.currency
      )
      return {
        ucp: responseEnvelope(LOOKUP_CAPABILITY),
        product: present(listed.slice(0, MAX_OFFERS), tag),
        ...(notice === undefined ? {} : { messages: [notice] })
      }
    })

  /**
   * The offers get_product lists: the one asked for first, then those that
   * meet the filters. With a currency, the model is featured by its first
   * offer in that currency, so price_range is in it; when none is sold in
   * it, every offer is listed and a message says so (the range is then in
   * the asked-for offer's currency, never a mix).
   */
  const inCurrency = (
    model: { readonly shown: ProductDocument; readonly offers: ReadonlyArray<ProductDocument> },
    keep: (offer: ProductDocument) => boolean,
    currency: string | undefined
  ) => {
    const { shown, offers } = model
    if (currency === undefined || shown.currency === currency) return { listed: offersOf(shown, offers, keep) }
    const featured = offers.find((offer) => offer.currency === currency && keep(offer))
    if (featured !== undefined) return { listed: offersOf(featured, offers, keep) }
    return {
      listed: offersOf(shown, offers, () => true),
      notice: {
        type: "info",
        code: "currency_not_sold",
        content: `no offer of this product is priced in ${currency}; its price_range is in ${shown.currency}`
      }
    }
  }

  return { searchCatalog, lookupCatalog, getProduct }
})
