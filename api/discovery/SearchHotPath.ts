import { Cause, Effect, Exit, Layer, Schema } from "effect"
import { HttpServerRequest } from "effect/http"
import type { ServerResponse } from "node:http"
import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { PublicUrl } from "../../infra/PublicUrl.ts"
import { INTERNAL_ERROR } from "../ErrorResponses.ts"
import type { ErrorBody } from "../errors.ts"
import type { LateHotPath } from "../lateHotPath.ts"
import { SearchQuery } from "./Api.ts"
import { searchFeed } from "./searchFeed.ts"
import { logSearchUnavailable, SEARCH_UNAVAILABLE, SEARCH_UNAVAILABLE_HEADERS } from "./unavailable.ts"

// GET /api/search, answered before the Effect router when its parameters
// decode (like the redirect, api/redirect/Redirect.ts): the endpoint's own
// query schema, the same search and the same answer (searchFeed.ts), without
// the router's work per request (route match, request and response
// wrappers, middleware, a fiber context per request). Measured in
// bench:search's service on 5,500 products: 0.47 ms of CPU per search through
// the router, 0.41 ms here. Anything else (another method, a parameter
// that does not decode) is declined and reaches the router, whose 400 names
// the field: there is one validation, and one set of error answers.

const PATH = "/api/search"
const decodeQuery = Schema.decodeUnknownExit(Schema.toCodecArrayFromSingle(SearchQuery))

/** True for /api/search itself, with or without a query string (not /api/search/ or /api/searches). */
const isSearchPath = (url: string) => url.startsWith(PATH) && (url.length === PATH.length || url[PATH.length] === "?")

/** The decoded query of a GET /api/search URL, or undefined when the router should answer it. */
const decode = (url: string): typeof SearchQuery.Type | undefined => {
  // the query as the router reads it (HttpServerRequest.searchParamsFromURL): repeated keys become arrays
  const exit = decodeQuery(HttpServerRequest.searchParamsFromURL(new URL(url, "http://localhost")))
  return Exit.isSuccess(exit) ? exit.value : undefined
}

// Popular phrases repeat (DiscoverySearch keeps their plans for the same
// reason), and a URL always decodes the same: recent URLs keep their query.
// The URL parse and schema decode cost 13-15 µs of a search's latency.
// Only short URLs are kept: excess parameters decode fine, and a request
// may carry up to node's 16 KB of them.
const DECODED_URLS = 2_000
const DECODED_URL_LENGTH = 512
const decoded = new Map<string, typeof SearchQuery.Type>()
const queryOf = (url: string): typeof SearchQuery.Type | undefined => {
  const known = decoded.get(url)
  if (known !== undefined) return known
  const query = decode(url)
  if (query !== undefined && url.length <= DECODED_URL_LENGTH) {
    if (decoded.size >= DECODED_URLS) decoded.delete(decoded.keys().next().value as string)
    decoded.set(url, query)
  }
  return query
}

/**
 * A JSON answer serialized once and written as text: node joins a string
 * body to the response head and encodes both in one socket write, where a
 * Buffer body first costs its own UTF-8 copy (35 µs of an 18 KB answer,
 * measured) and goes out beside the head as a second chunk. Its length is
 * the UTF-8 byte count, not the string's: answers carry non-ASCII text.
 */
const send = (res: ServerResponse, status: number, body: unknown, headers: ReadonlyArray<string> = []) => {
  const text = JSON.stringify(body)
  res
    .writeHead(status, [
      "content-type",
      "application/json",
      "content-length",
      String(Buffer.byteLength(text)),
      ...headers
    ])
    .end(text)
}
const errorOf = (error: ErrorBody) => ({ error })
const UNAVAILABLE_HEAD = Object.entries(SEARCH_UNAVAILABLE_HEADERS).flat()

/** Sets `slot` to the /api/search hot path while this layer lives (it needs the running server's public URL). */
export const searchHotPath = (slot: LateHotPath) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const discovery = yield* DiscoverySearch
      const { base } = yield* PublicUrl
      const { defaultCountry } = yield* AppConfig
      const runFork = Effect.runForkWith(yield* Effect.context<never>())

      const answer = (query: typeof SearchQuery.Type, res: ServerResponse) =>
        searchFeed(discovery, base, query, defaultCountry).pipe(
          Effect.map((feed) => send(res, 200, feed)),
          Effect.catchTag("SearchError", (error) =>
            logSearchUnavailable(error).pipe(
              Effect.map(() => send(res, 503, errorOf(SEARCH_UNAVAILABLE), UNAVAILABLE_HEAD))
            )
          ),
          // as the router's ErrorResponses would: a defect is logged and answered 500
          Effect.catchCause((cause) =>
            Cause.hasInterruptsOnly(cause)
              ? Effect.void
              : Effect.logError("unhandled error while serving a request", cause).pipe(
                  Effect.annotateLogs({ method: "GET", path: PATH }),
                  Effect.map(() => {
                    if (!res.headersSent) send(res, 500, errorOf(INTERNAL_ERROR))
                  })
                )
          )
        )

      slot.set((req, res) => {
        const url = req.url
        if (req.method !== "GET" || url === undefined || !isSearchPath(url)) return false
        let query: typeof SearchQuery.Type | undefined
        try {
          query = queryOf(url)
        } catch {
          // a listener that throws would take the process down; the router answers instead
          return false
        }
        if (query === undefined) return false
        runFork(answer(query, res))
        return true
      })
      yield* Effect.addFinalizer(() => Effect.sync(() => slot.set(undefined)))
    })
  )
