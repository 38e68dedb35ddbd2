import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { TAG_PATTERN, feedTrackingId } from "../../domain/links/feedTrackingId.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { PublicUrl } from "../../infra/PublicUrl.ts"
import { convertedText, pageMarket, pageMarketText } from "./pageMarket.ts"
import { MAX_FILTER_LENGTH, MAX_QUERY_LENGTH, MAX_SEARCH_OFFSET } from "./Api.ts"
import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import { htmlResponse } from "../../discovery/pageShell.ts"
import { landingPath } from "../../discovery/present.ts"
import {
  badSearchPage,
  resultsPage,
  searchUnavailablePage,
  type StartHighlights,
  startPage
} from "../../discovery/startHtml.ts"
import { hasVerifiedSaving } from "../../discovery/present.ts"
import { RETRY_AFTER_SECONDS } from "./unavailable.ts"
import { SERVICE_TAGS } from "../../domain/links/serviceTags.ts"

// GET / (the start page) and GET /search?q= (results for people): the same
// intent search as /api/search, rendered as HTML. Input problems get a page
// that says what to change (4xx); a search outage gets a 503 page.

/** Attribution of clicks from our own search page; a partner linking here may pass ?tag=. */
export const WEB_TAG = SERVICE_TAGS.web
const RESULTS_LIMIT = 12
/** Deals read for the start page, of which a few verified ones are shown, and the categories they come from. */
const START_DEALS_READ = 24
const START_DEALS_SHOWN = 6
const START_CATEGORIES = 8
const REJECTED = "We could not search for that. Try other words, or a simpler price such as “under 100”."

export const StartPageRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const discovery = yield* DiscoverySearch
    const publicUrl = yield* PublicUrl
    const { defaultCountry } = yield* AppConfig
    const links = { docs: publicUrl.to("/docs"), mcp: publicUrl.to("/mcp") }

    const cardLinks = (doc: { readonly id: string; readonly product_id: string }) => ({
      landing: `${landingPath(doc.id)}?tag=${WEB_TAG}`,
      tracked: publicUrl.to(`/t/${feedTrackingId(doc.product_id, WEB_TAG)}`)
    })
    // One deals query: the best verified deals and the categories of the deals
    // read. When search cannot answer, the page is shown without them (the form still works).
    const highlights = discovery.deals({ limit: START_DEALS_READ }).pipe(
      Effect.map(({ documents }): StartHighlights => {
        const verified = documents.filter(hasVerifiedSaving).slice(0, START_DEALS_SHOWN)
        const categories = [...new Set(documents.flatMap((doc) => (doc.category === null ? [] : [doc.category])))]
        return {
          deals: verified.map((doc) => ({ doc, links: cardLinks(doc) })),
          categories: categories.sort().slice(0, START_CATEGORIES)
        }
      }),
      Effect.catchTag("SearchError", (error) =>
        Effect.logWarning("start page: deals unavailable").pipe(
          Effect.annotateLogs({ reason: error.message }),
          Effect.as({ deals: [], categories: [] })
        )
      )
    )

    const start = HttpRouter.add(
      "GET",
      "/",
      Effect.map(highlights, (shown) =>
        htmlResponse(startPage(links, undefined, shown), 200, { "cache-control": "public, max-age=60" })
      )
    )

    const search = HttpRouter.add("GET", "/search", (request) => {
      const params = new URL(request.url, "http://x").searchParams
      const query = (params.get("q") ?? "").trim()
      const tagParam = params.get("tag")
      const tag = tagParam !== null && TAG_PATTERN.test(tagParam) ? tagParam : WEB_TAG
      if (query === "") {
        return Effect.succeed(htmlResponse(startPage(links, "Type what you are looking for, then search."), 400))
      }
      if (query.length > MAX_QUERY_LENGTH) {
        return Effect.succeed(
          htmlResponse(
            badSearchPage(
              query,
              `Your search is ${query.length} characters long; please keep it to ${MAX_QUERY_LENGTH} or fewer.`
            ),
            400
          )
        )
      }
      const offsetParam = params.get("offset")
      const offset = offsetParam === null || offsetParam === "" ? 0 : Number(offsetParam)
      if (!Number.isInteger(offset) || offset < 0 || offset > MAX_SEARCH_OFFSET) {
        return Effect.succeed(
          htmlResponse(
            badSearchPage(query, `The page you asked for is out of range: offset must be 0 to ${MAX_SEARCH_OFFSET}.`),
            400
          )
        )
      }
      const categoryParam = (params.get("category") ?? "").trim()
      if (categoryParam.length > MAX_FILTER_LENGTH) {
        return Effect.succeed(
          htmlResponse(
            badSearchPage(query, `The category is too long; please keep it to ${MAX_FILTER_LENGTH} characters.`),
            400
          )
        )
      }
      const category = categoryParam === "" ? undefined : categoryParam
      /** This page's address for another phrase, category or page (the tag kept). */
      const pageHref = (q: string, at: number, inCategory: string | undefined) => {
        const search = new URLSearchParams({ q })
        if (inCategory !== undefined) search.set("category", inCategory)
        if (at > 0) search.set("offset", String(at))
        if (tag !== WEB_TAG) search.set("tag", tag)
        // the shopper's market goes with them to the next page or suggestion
        for (const name of ["country", "currency"]) {
          const value = params.get(name)
          if (value !== null && value !== "") search.set(name, value)
        }
        return `/search?${search.toString()}`
      }
      const market = pageMarket(params, request.headers["accept-language"], defaultCountry)
      if (market.kind === "invalid") return Effect.succeed(htmlResponse(badSearchPage(query, market.problem), 400))
      return discovery
        .search({
          q: query,
          category,
          limit: RESULTS_LIMIT,
          offset,
          currency: market.currency,
          country: market.country
        })
        .pipe(
          Effect.map(({ documents, intent, includesOutOfStock, total, suggestions, converted }) =>
            htmlResponse(
              resultsPage({
                query,
                interpretation: `${intent.interpretation}; ${pageMarketText(market.chosen, documents, converted)}`,
                includesOutOfStock,
                total: Math.max(total, offset + documents.length),
                offset,
                order:
                  intent.preference === "lower_price" && intent.broadQuery !== ""
                    ? "cheapest first"
                    : "most relevant first",
                previous: offset > 0 ? pageHref(query, Math.max(0, offset - RESULTS_LIMIT), category) : undefined,
                next:
                  documents.length === RESULTS_LIMIT &&
                  offset + RESULTS_LIMIT < total &&
                  offset + RESULTS_LIMIT <= MAX_SEARCH_OFFSET
                    ? pageHref(query, offset + RESULTS_LIMIT, category)
                    : undefined,
                suggestions: (suggestions ?? []).map((s) => ({ text: s.text, href: pageHref(s.q, 0, s.category) })),
                results: documents.map((doc) => ({
                  doc,
                  converted: convertedText(doc, documents, converted),
                  links: {
                    landing: `${landingPath(doc.id)}?tag=${tag}`,
                    tracked: publicUrl.to(`/t/${feedTrackingId(doc.product_id, tag)}`)
                  }
                }))
              }),
              200,
              // the market may come from Accept-Language: a shared cache must not serve GB prices to a US browser
              { "cache-control": "public, max-age=60", vary: "Accept-Language" }
            )
          ),
          // Meilisearch unreachable: 503. Meilisearch rejecting the request the
          // phrase became (e.g. a price too large for a filter): the person can
          // reword it, so a 400 that says so; logged either way.
          Effect.catchTag("SearchError", (error) =>
            Effect.logWarning(error.unavailable ? "search page unavailable" : "search page query rejected").pipe(
              Effect.annotateLogs({ reason: error.message }),
              Effect.as(
                error.unavailable
                  ? htmlResponse(searchUnavailablePage(query), 503, {
                      "retry-after": String(RETRY_AFTER_SECONDS),
                      "cache-control": "no-store"
                    })
                  : htmlResponse(badSearchPage(query, REJECTED), 400)
              )
            )
          )
        )
    })

    return Layer.mergeAll(start, search)
  })
)
