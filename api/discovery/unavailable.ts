import { Effect } from "effect"
import type { SearchError } from "../../infra/SearchEngine.ts"
import { errorResponse } from "../ErrorResponses.ts"
import type { ErrorBody } from "../errors.ts"

/** Seconds a client should wait before retrying a search that failed on Meilisearch. */
export const RETRY_AFTER_SECONDS = 5

/** The error body and headers of a search that could not be served (here and on the hot path, SearchHotPath.ts). */
export const SEARCH_UNAVAILABLE: ErrorBody = {
  code: "search_unavailable",
  message: "product search is temporarily unavailable; retry shortly",
  details: { retry_after_seconds: RETRY_AFTER_SECONDS }
}
export const SEARCH_UNAVAILABLE_HEADERS = { "retry-after": String(RETRY_AFTER_SECONDS), "cache-control": "no-store" }

export const logSearchUnavailable = (error: SearchError) =>
  Effect.logWarning("search unavailable").pipe(Effect.annotateLogs({ reason: error.message }))

/**
 * The 503 for a search that could not be served: our JSON error body plus
 * Retry-After. (Returned as a response because HttpApi error schemas carry
 * no headers; the endpoints still declare ServiceUnavailable for the OpenAPI.)
 */
export const searchUnavailable = (error: SearchError) =>
  logSearchUnavailable(error).pipe(Effect.as(errorResponse(503, SEARCH_UNAVAILABLE, SEARCH_UNAVAILABLE_HEADERS)))
