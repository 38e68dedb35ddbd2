import { Effect, Option } from "effect"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Database } from "../../infra/Database.ts"
import { PublicUrl } from "../../infra/PublicUrl.ts"
import type { SearchError } from "../../infra/SearchEngine.ts"
import type { ProductDocument } from "../../readModel/documents.ts"
import { offerMatches } from "../../readModel/offerFilter.ts"
import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import { RETRY_AFTER_SECONDS } from "../discovery/unavailable.ts"
import { callerTag } from "./McpCaller.ts"
import { decodeArguments, invalidArgument, toolFailure } from "./toolErrors.ts"
import { GetProductParams, LookupCatalogParams, MAX_PAGE, SearchCatalogParams } from "./toolDefinitions.ts"
import type { ToolFailure } from "./toolDefinitions.ts"
import { errorAnswer, info, offerMessages } from "./ucp/answerMessages.ts"
import { filterExpressions, matchesFilters } from "./ucp/filters.ts"
import { legacyProductId, resolveKey } from "./ucp/lookupKeys.ts"
import { marketContext } from "./ucp/market.ts"
import { ucpProduct, type View } from "./ucp/products.ts"
import { type CatalogCapability, LOOKUP_CAPABILITY, responseEnvelope, SEARCH_CAPABILITY } from "./ucp/profile.ts"
import { readingSteps, readRequest } from "./ucp/reading.ts"
import { lookupProducts, productDetail } from "./ucp/variantSets.ts"

// The UCP catalog tools over the discovery index: search_catalog,
// lookup_catalog and get_product. Every product is rendered from index
// documents alone, like /api/search; a lookup by merchant URL or GTIN first
// reads which offers those are from the store (ucp/lookupKeys.ts). Every
// answer is UCP's: a catalog response, or an error response (`ucp.status`
// "error") — as the tool's failure when the request must change (a bad
// argument, search down), as its result when the request was fine and nothing
// matches (get_product of an unknown id), the way UCP's MCP binding shows it.

const DEFAULT_PAGE = 10
/** Deeper than this, an agent should refine the query rather than page on. */
const MAX_OFFSET = 200
/** Offers of one model get_product lists. */
const MAX_OFFERS = 50
/** Offers a search answer lists per product (most relevant first); get_product lists every one. */
const SEARCH_VARIANTS = 3

/** The JSON API's 503 body for a search Meilisearch could not serve. */
export const searchUnavailable = (_: SearchError) =>
  toolFailure("search_unavailable", `product search is temporarily unavailable; retry in ${RETRY_AFTER_SECONDS} s`, {
    retry_after_seconds: RETRY_AFTER_SECONDS
  })

/** A failure of the JSON API's shape as UCP's error response; a bad argument names its path. */
const asUcpError = (capability: CatalogCapability) => (failure: ToolFailure) => {
  const field = (failure.error.details as ReadonlyArray<{ field?: string }> | undefined)?.[0]?.field
  return errorAnswer(
    capability,
    failure.error.code,
    failure.error.message,
    "recoverable",
    field === undefined || field === "(root)" ? undefined : `$.${field}`
  )
}

// Cursors are opaque to clients; ours is the offset in products and the
// step of the reading that answered the first page (a later page must not
// fall back to a stricter step), so a page is stable while the catalog is.
const encodeCursor = (offset: number, step: number) =>
  Buffer.from(`o:${offset}${step > 0 ? `.${step}` : ""}`, "utf8").toString("base64url")
const decodeCursor = (cursor: string | undefined) => {
  if (cursor === undefined) return Effect.succeed({ offset: 0, step: 0 })
  const match = /^o:(\d{1,4})(?:\.(\d))?$/.exec(Buffer.from(cursor, "base64url").toString("utf8"))
  const offset = match === null ? NaN : Number(match[1])
  return Number.isInteger(offset) && offset <= MAX_OFFSET
    ? Effect.succeed({ offset, step: Number(match![2] ?? 0) })
    : Effect.fail(invalidArgument("catalog.pagination.cursor", "is not a cursor from a previous search_catalog answer"))
}

/** One search of a reading: its words, the filters the words set, and how to match and order. */
interface SearchStep {
  readonly q: string
  readonly filters: ReadonlyArray<string>
  readonly sort?: ReadonlyArray<string> | undefined
  readonly strategy?: "all" | "frequency" | undefined
}

const storageUnavailable = toolFailure("storage_unavailable", "the catalog store is not reachable; retry shortly", {
  retry_after_seconds: RETRY_AFTER_SECONDS
})

export const makeCatalogTools = Effect.gen(function* () {
  const discovery = yield* DiscoverySearch
  const db = yield* Database
  const publicUrl = yield* PublicUrl
  const { defaultCountry } = yield* AppConfig
  const present = (
    offers: ReadonlyArray<ProductDocument>,
    tag: string,
    view: View | undefined,
    maxVariants?: number,
    axes?: ReadonlyArray<string>
  ) => ucpProduct(offers, { base: publicUrl.base, tag }, maxVariants, view, axes)

  /** A model's offers that meet the filters, `first` leading (the offer asked for or shown). */
  const offersOf = (
    first: ProductDocument,
    offers: ReadonlyArray<ProductDocument>,
    keep: (offer: ProductDocument) => boolean
  ) => [first, ...offers.filter((offer) => offer.id !== first.id && keep(offer))]

  const readPhrase = (phrase: string | undefined) =>
    phrase === undefined || phrase.trim() === ""
      ? Effect.succeed(undefined)
      : discovery.readIntent(phrase.trim().replace(/\s+/g, " "))

  /**
   * A page of models and the step that found them: on a first page, one
   * search per step of the reading until one finds something (most pages:
   * the first); a later page reads the step of its cursor.
   */
  const modelsFor = (
    steps: ReadonlyArray<SearchStep>,
    given: ReadonlyArray<string>,
    page: { readonly offset: number; readonly step: number },
    limit: number
  ) =>
    Effect.gen(function* () {
      const last = page.offset > 0 ? Math.min(page.step, steps.length - 1) : steps.length - 1
      for (let index = page.offset > 0 ? last : 0; index <= last; index++) {
        const step = steps[index]
        const filters = [...given, ...step.filters]
        const { models } = yield* discovery
          .models({ q: step.q, filters, limit, offset: page.offset, sort: step.sort, strategy: step.strategy })
          .pipe(Effect.mapError(searchUnavailable))
        if (models.length > 0 || index === last) {
          const filter = filters.join(" AND ")
          const found = models.map((model) =>
            offersOf(model.shown, model.offers, (offer) => offerMatches(offer, filter))
          )
          return { models: found, step: index }
        }
      }
      return { models: [], step: 0 }
    })

  const searchCatalog = (input: unknown) =>
    Effect.gen(function* () {
      const { catalog } = yield* decodeArguments(SearchCatalogParams)(input)
      const { context } = yield* marketContext(catalog.context, catalog.filters, defaultCountry)
      const [query, background] = [yield* readPhrase(catalog.query), yield* readPhrase(catalog.context?.intent)]
      const reading = readRequest(query, background, catalog.filters, context)
      if (reading === undefined && catalog.filters === undefined) {
        return yield* Effect.fail(invalidArgument("catalog.query", "give a query, a context.intent, filters, or both"))
      }
      const tag = yield* callerTag
      // UCP lets an implementation clamp the page size: a larger limit is served at our maximum.
      const requested = catalog.pagination?.limit ?? DEFAULT_PAGE
      const limit = Math.min(requested, MAX_PAGE)
      const page = yield* decodeCursor(catalog.pagination?.cursor)
      const { offset } = page
      const given = filterExpressions(catalog.filters, context)
      const steps: ReadonlyArray<SearchStep> = reading === undefined ? [{ q: "", filters: [] }] : readingSteps(reading)
      const { models, step } = yield* modelsFor(steps, given, page, limit + 1)
      const hasNext = models.length > limit && offset + limit <= MAX_OFFSET
      const listed = models.slice(0, limit)
      const products = listed.map((offers) => present(offers, tag, catalog.view, SEARCH_VARIANTS))
      const shownOffers = listed.flatMap((offers) => offers.slice(0, SEARCH_VARIANTS))
      const messages = [
        ...(reading === undefined ? [] : [info("interpretation", reading.explanation)]),
        ...(requested > limit
          ? [info("limit_clamped", `limit ${requested} served as ${MAX_PAGE}, the most per page`)]
          : []),
        ...(models.length === 0
          ? [info("no_results", "Nothing matched: try fewer words or wider filters.")]
          : offerMessages(shownOffers))
      ]
      return {
        ucp: responseEnvelope(SEARCH_CAPABILITY),
        products,
        pagination: { has_next_page: hasNext, ...(hasNext ? { cursor: encodeCursor(offset + limit, step) } : {}) },
        messages
      }
    }).pipe(Effect.mapError(asUcpError(SEARCH_CAPABILITY)))

  const lookupCatalog = (input: unknown) =>
    Effect.gen(function* () {
      const { catalog } = yield* decodeArguments(LookupCatalogParams)(input)
      const { context } = yield* marketContext(catalog.context, catalog.filters, defaultCountry)
      const tag = yield* callerTag
      const inputs = [...new Set(catalog.ids.map((id) => id.trim()))]
      const resolved = yield* Effect.forEach(inputs, (id) => resolveKey(discovery, db, id), { concurrency: 4 }).pipe(
        Effect.mapError((error) => (error._tag === "SearchError" ? searchUnavailable(error) : storageUnavailable))
      )
      const keep = (offer: ProductDocument) => matchesFilters(offer, catalog.filters, context)
      const found = lookupProducts(resolved.flat(), keep)
      const products = found.map(({ offers, inputsOf }) => {
        const product = present(offers, tag, catalog.view)
        return {
          ...product,
          variants: product.variants.map((variant) => ({ ...variant, inputs: inputsOf(variant.id) }))
        }
      })
      const missing = inputs.filter((_, i) => resolved[i].length === 0)
      return {
        ucp: responseEnvelope(LOOKUP_CAPABILITY),
        products,
        messages: [
          ...missing.map((id) => info("not_found", id)),
          ...offerMessages(found.flatMap((entry) => entry.offers))
        ]
      }
    }).pipe(Effect.mapError(asUcpError(LOOKUP_CAPABILITY)))

  const getProduct = (input: unknown) =>
    Effect.gen(function* () {
      const { catalog } = yield* decodeArguments(GetProductParams)(input)
      const { context } = yield* marketContext(catalog.context, catalog.filters, defaultCountry)
      const tag = yield* callerTag
      const id = catalog.id.trim()
      const model = yield* discovery.modelOf(legacyProductId(id)).pipe(Effect.mapError(searchUnavailable))
      if (Option.isNone(model)) {
        // An answer, not a failure: the request was well formed, the catalog has no such product.
        return errorAnswer(LOOKUP_CAPABILITY, "not_found", `Product not found: ${id}`, "unrecoverable", "$.catalog.id")
      }
      const keep = (offer: ProductDocument) => matchesFilters(offer, catalog.filters, context)
      const { featured, notice } = inCurrency(
        model.value,
        keep,
        context?.currency,
        context?.address_country?.trim().toUpperCase()
      )
      const detail = productDetail(
        { ...model.value, shown: featured },
        {
          // when no offer is sold in the asked-for currency, every offer is listed and a message says so
          keep: notice === undefined ? keep : () => true,
          selected: catalog.selected ?? [],
          preferences: catalog.preferences ?? []
        }
      )
      if (detail === undefined) {
        return errorAnswer(
          LOOKUP_CAPABILITY,
          "not_found",
          `No variant of ${id} meets the filters and context given`,
          "recoverable",
          "$.catalog.filters"
        )
      }
      const shown = detail.offers.slice(0, MAX_OFFERS)
      return {
        ucp: responseEnvelope(LOOKUP_CAPABILITY),
        product: { ...present(shown, tag, catalog.view, undefined, detail.axes), ...detail.fields },
        messages: [...(notice === undefined ? [] : [notice]), ...detail.messages, ...offerMessages(shown)]
      }
    }).pipe(Effect.mapError(asUcpError(LOOKUP_CAPABILITY)))

  /**
   * The offer get_product features: the one asked for, unless a currency is
   * asked for and it is priced in another; then the model's first offer in
   * that currency, so price_range is in it. When none is sold in it, a
   * message says so (the range is then in the asked-for offer's currency,
   * never a mix).
   */
  const inCurrency = (
    model: { readonly shown: ProductDocument; readonly offers: ReadonlyArray<ProductDocument> },
    keep: (offer: ProductDocument) => boolean,
    currency: string | undefined,
    /** The country offers must be sold in (the market's), if any. */
    country: string | undefined
  ) => {
    const { shown, offers } = model
    if (currency === undefined || shown.currency === currency) return { featured: shown }
    const featured = offers.find((offer) => offer.currency === currency && keep(offer))
    if (featured !== undefined) return { featured }
    // Say which it is: nothing priced in the currency, or offers in it that the shopper's country or filters leave out.
    const priced = offers.filter((offer) => offer.currency === currency)
    const why =
      priced.length === 0
        ? `no offer of this product is priced in ${currency}`
        : country !== undefined && !priced.some((offer) => offer.countries.includes(country))
          ? `its offers priced in ${currency} are not sold in ${country}`
          : `none of its offers priced in ${currency} meets the filters given`
    return { featured: shown, notice: info("currency_not_sold", `${why}; its price_range is in ${shown.currency}`) }
  }

  return { searchCatalog, lookupCatalog, getProduct }
})
