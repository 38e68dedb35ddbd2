import { Effect, Layer, Option } from "effect"
import { HttpRouter } from "effect/http"
import { htmlResponse } from "../../discovery/pageShell.ts"
import { TAG_PATTERN, feedTrackingId } from "../../domain/links/feedTrackingId.ts"
import { Database } from "../../infra/Database.ts"
import { PublicUrl } from "../../infra/PublicUrl.ts"
import type { SearchError } from "../../infra/SearchEngine.ts"
import type { DatabaseError } from "../../infra/Store.ts"
import type { ProductDocument } from "../../readModel/documents.ts"
import { modelIdOf } from "../../readModel/productIds.ts"
import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import { landingDocumentFromCatalog } from "../../discovery/landingFromCatalog.ts"
import { badIdPage, landingPage, notFoundPage, unavailablePage } from "../../discovery/landingHtml.ts"
import { priceHistory } from "../../discovery/landingExtras.ts"
import { errorResponse } from "../ErrorResponses.ts"
import { DEALS_DEFAULT_TAG } from "./Http.ts"
import { RETRY_AFTER_SECONDS } from "./unavailable.ts"

// GET /deals/{id}: the HTML page behind links.landing. Rendered from the
// index document (one getDocument), so it normally costs no store read; when
// Meilisearch cannot answer, the same document is built from the store (DuckDB or PostgreSQL). `?tag=`
// keeps the attribution of the feed request that linked here.

const html = htmlResponse

/** Meilisearch document ids are at most 511 bytes: a longer id names no deal. */
const MAX_DEAL_ID_LENGTH = 511

export const LandingPageRoute = Layer.unwrap(
  Effect.gen(function* () {
    const discovery = yield* DiscoverySearch
    const db = yield* Database
    const publicUrl = yield* PublicUrl
    return HttpRouter.add("GET", "/deals/:id", (request) =>
      Effect.gen(function* () {
        const params = yield* HttpRouter.params
        const id = params.id ?? ""
        if (id.length > MAX_DEAL_ID_LENGTH) {
          return (request.headers["accept"] ?? "").includes("text/html")
            ? html(badIdPage(MAX_DEAL_ID_LENGTH), 400)
            : errorResponse(400, {
                code: "invalid_parameter",
                message: `id: must be at most ${MAX_DEAL_ID_LENGTH} characters`,
                details: { field: "id" }
              })
        }
        const tagParam = new URL(request.url, "http://x").searchParams.get("tag")
        const tag = tagParam !== null && TAG_PATTERN.test(tagParam) ? tagParam : DEALS_DEFAULT_TAG
        // None: neither Meilisearch nor the store could answer (503); Some(None): no such deal (404).
        const found = yield* discovery.document(id).pipe(
          Effect.catchTag(
            "SearchError",
            (error): Effect.Effect<Option.Option<ProductDocument>, SearchError | DatabaseError> =>
              // a product id names a model, whose offers only the index groups: no store copy to show
              modelIdOf(id) !== undefined
                ? Effect.fail(error)
                : Effect.logWarning("landing page: search unavailable, reading the product from the store").pipe(
                    Effect.annotateLogs({ reason: error.message }),
                    Effect.andThen(landingDocumentFromCatalog(db, id))
                  )
          ),
          Effect.map(Option.some),
          Effect.catchTags({
            DatabaseError: () => Effect.succeed(Option.none()),
            SearchError: () => Effect.succeed(Option.none())
          })
        )
        if (Option.isNone(found)) {
          return html(unavailablePage(), 503, { "retry-after": String(RETRY_AFTER_SECONDS) })
        }
        if (Option.isNone(found.value)) return html(notFoundPage(), 404)
        const doc = found.value.value
        const tracked = `${publicUrl.base}/t/${feedTrackingId(doc.product_id, tag)}`
        // Extras: the model's other stores (one index read) and the price history (one store read); without them the page still shows.
        const [model, history] = yield* Effect.all(
          [
            discovery.modelOf(id).pipe(Effect.orElseSucceed(() => Option.none())),
            priceHistory(db, doc.product_id).pipe(Effect.orElseSucceed(() => []))
          ],
          { concurrency: 2 }
        )
        const otherOffers = Option.match(model, {
          onNone: () => [],
          onSome: ({ offers }) =>
            offers
              .filter((offer) => offer.id !== doc.id && offer.store !== doc.store)
              .map((offer) => ({ doc: offer, tracked: `${publicUrl.base}/t/${feedTrackingId(offer.product_id, tag)}` }))
        })
        return html(landingPage(doc, tracked, { otherOffers, priceHistory: history }), 200, {
          "cache-control": "public, max-age=300"
        })
      })
    )
  })
)
