import { MAX_BODY_BYTES } from "../bodyLimit.ts"
import { withResponses } from "../openApiExtend.ts"
import { POSTBACK_PATH } from "../v1/conversions/postbackRoute.ts"
import { jsonErrorResponse } from "../v1/conversions/PostbackDocs.ts"
import { isPublicRead } from "./publicReads.ts"

// The answers the HTTP edge gives on any operation, documented on each one
// (a client generated from /openapi.json should expect them): 431 from
// node's parser for an over-long request line or headers, 417 for an Expect
// header other than 100-continue, 413 and 415 for
// the operations that take a body, 429 for the public reads' per-client
// limits (PublicReadLimits.ts).

const headersTooLarge = jsonErrorResponse(
  "Request line and headers larger than 16 KB (code headers_too_large); the connection is closed"
)
const expectationFailed = jsonErrorResponse(
  "An Expect header other than 100-continue (code expectation_failed); the connection is closed"
)
const payloadTooLarge = jsonErrorResponse(
  `Request body larger than its limit (${MAX_BODY_BYTES} bytes for the JSON API; code payload_too_large)`
)
const unsupportedMediaType = jsonErrorResponse(
  "Body not sent as JSON with Content-Type: application/json (code unsupported_media_type)"
)
const rateLimited = {
  ...jsonErrorResponse(
    "Too many requests from this client (code rate_limited; details.scope ip: the per-IP allowance, concurrency: " +
      "too many requests in flight at once, redirect_lookup: too many links looked up in the store); retry after " +
      "Retry-After seconds"
  ),
  headers: { "Retry-After": { description: "Seconds until a retry can succeed", schema: { type: "integer" } } }
}

/** `spec` with the edge's answers on every operation that can receive them. */
export const addEdgeResponsesToOpenApi = (spec: Readonly<Record<string, unknown>>) =>
  withResponses(spec, (path, operation) => ({
    "417": expectationFailed,
    "431": headersTooLarge,
    ...(operation.requestBody === undefined ? {} : { "413": payloadTooLarge }),
    // the postback reads its raw body itself (its HMAC covers the bytes), whatever the Content-Type
    ...(operation.requestBody === undefined || path === POSTBACK_PATH ? {} : { "415": unsupportedMediaType }),
    // the redirect's store lookups have their own per-client bucket (api/redirect/Redirect.ts)
    ...(isPublicRead(path) || path.startsWith("/t/") ? { "429": rateLimited } : {})
  }))
