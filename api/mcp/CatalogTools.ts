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
import { GetProductParams, LookupCatalogParams, MAX_PAGE, SearchCatalogParams } from "./toolDefinitions.ts"
import type { ToolFailure } from "./toolDefinitions.ts"
import { errorAnswer, info, offerMessages } from "./ucp/answerMessages.ts"
import { filterExpressions, matchesFilters } from "./ucp/filters.ts"
import { marketContext } from "./ucp/market.ts"
import { PRODUCT_PREFIX, ucpProduct, type View } from "./ucp/products.ts"
import { type CatalogCapability, LOOKUP_CAPABILITY, responseEnvelope, SEARCH_CAPABILITY } from "./ucp/profile.ts"
import { readingSteps, readRequest } from "./ucp/reading.ts"

// The UCP catalog tools over the discovery index: search_catalog,
// lookup_catalog and get_product. Every product is rendered from index
// documents alone, like /api/search. Every answer is UCP's: a catalog
// response, or an error response (`ucp.status` "error") — as the tool's
// failure when the request must change (a bad argument, search down), as its
// result when the request was fine and nothing matches (get_product of an
// unknown id), the way UCP's MCP binding shows it.

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

/** A product id names a model through its featured offer; anything else is read as a variant (offer) id. */
const resolveId = (id: string) =>
  id.startsWith(PRODUCT_PREFIX)
    ? { documentId: id.slice(PRODUCT_PREFIX.length), match: "featured" as const }
    : { documentId: id, match: "exact" as const }

export const makeCatalogTools = Effect.gen(function* () {
  const discovery = yield* DiscoverySearch
  const publicUrl = yield* PublicUrl
  const { defaultCountry } = yield* AppConfig
  const present = (offers: ReadonlyArray<ProductDocument>, tag: string, view: View | undefined, maxVariants?: number) =>
    ucpProduct(offers, { base: publicUrl.base, tag }, maxVariants, view)

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
      const models = [...byModel.values()].map((offers) => [...offers.values()])
      const products = models.map((entries) => {
        const product = present(
          entries.map((entry) => entry.doc),
          tag,
          catalog.view
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
        messages: [
          ...missing.map((id) => info("not_found", id)),
          ...offerMessages(models.flatMap((entries) => entries.map((entry) => entry.doc)))
        ]
      }
    }).pipe(Effect.mapError(asUcpError(LOOKUP_CAPABILITY)))

  const getProduct = (input: unknown) =>
    Effect.gen(function* () {
      const { catalog } = yield* decodeArguments(GetProductParams)(input)
      const { context } = yield* marketContext(catalog.context, catalog.filters, defaultCountry)
      const tag = yield* callerTag
      const id = catalog.id.trim()
      const model = yield* discovery.modelOf(resolveId(id).documentId).pipe(Effect.mapError(searchUnavailable))
      if (Option.isNone(model)) {
        // An answer, not a failure: the request was well formed, the catalog has no such product.
        return errorAnswer(LOOKUP_CAPABILITY, "not_found", `Product not found: ${id}`, "unrecoverable", "$.catalog.id")
      }
      const { listed, notice } = inCurrency(
        model.value,
        (offer) => matchesFilters(offer, catalog.filters, context),
        context?.currency
      )
      const shown = listed.slice(0, MAX_OFFERS)
      return {
        ucp: responseEnvelope(LOOKUP_CAPABILITY),
        product: present(shown, tag, catalog.view),
        messages: [...(notice === undefined ? [] : [notice]), ...offerMessages(shown)]
      }
    }).pipe(Effect.mapError(asUcpError(LOOKUP_CAPABILITY)))

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
      notice: info(
        "currency_not_sold",
        `no offer of this product is priced in ${currency}; its price_range is in ${shown.currency}`
      )
    }
  }

  return { searchCatalog, lookupCatalog, getProduct }
})
