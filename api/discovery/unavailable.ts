import { Effect } from "effect"
import type { SearchError } from "../../infra/SearchEngine.ts"
import { errorResponse } from "../ErrorResponses.ts"

/** Seconds a client should wait before retrying a search that failed on Meilisearch. */
export const RETRY_AFTER_SECONDS = 5

/**
 * The 503 for a search that could not be served: our JSON error body plus
 * Retry-After. (Returned as a response because HttpApi error schemas carry
 * no headers; the endpoints still declare ServiceUnavailable for the OpenAPI.)
 */
export const searchUnavailable = (error: SearchError) =>
  Effect.logWarning("search unavailable").pipe(
    Effect.annotateLogs({ reason: error.message }),
    Effect.as(
      errorResponse(
        503,
        {
          code: "search_unavailable",
          message: "product search is temporarily unavailable; retry shortly",
          details: { retry_after_seconds: RETRY_AFTER_SECONDS }
        },
        { "retry-after": String(RETRY_AFTER_SECONDS), "cache-control": "no-store" }
      )
    )
  )
