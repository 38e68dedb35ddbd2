import { jsonErrorResponse } from "../v1/conversions/PostbackDocs.ts"
import { withPaths } from "../openApiExtend.ts"

// The redirect stays outside HttpApi (it is the hottest route, answered before
// the Effect router), so HttpApi cannot describe it; this adds its operations
// to /openapi.json (and /docs) by hand. Keep it in step with the redirect.
const trackingId = {
  name: "trackingId",
  in: "path",
  required: true,
  schema: { type: "string", pattern: "^([A-Za-z0-9_-]{1,64}|f\\.[A-Za-z0-9_-]{1,300}\\.[a-z0-9][a-z0-9_-]{0,63})$" },
  description:
    "A stored link's id (from POST /api/v1/links/match), or a discovery-feed id f.{base64url(product id)}.{tag}"
}

const found = (description: string) => ({
  description,
  headers: {
    Location: { required: true, schema: { type: "string", format: "uri" }, description: "The network's affiliate URL" },
    "Cache-Control": { schema: { type: "string", example: "private, no-store" } }
  }
})

const responses = (redirect: string) => ({
  302: found(redirect),
  404: {
    description:
      "Unknown or malformed id: an HTML page when Accept includes text/html, else our JSON error (code link_not_found)",
    content: {
      "text/html": { schema: { type: "string" } },
      ...jsonErrorResponse("").content
    }
  },
  503: {
    ...jsonErrorResponse(
      "The link store is not reachable (code link_lookup_unavailable); retry after Retry-After seconds"
    ),
    headers: {
      "Retry-After": { required: true, schema: { type: "integer" }, description: "Seconds to wait before retrying" }
    }
  }
})

const operation = (method: "get" | "head", summary: string, redirect: string) => ({
  tags: ["Redirect"],
  operationId: `redirect.${method}`,
  summary,
  parameters: [trackingId],
  responses: responses(redirect)
})

export const REDIRECT_OPENAPI_PATH = "/t/{trackingId}"

export const addRedirectToOpenApi = (spec: Readonly<Record<string, unknown>>) =>
  withPaths(
    spec,
    {
      [REDIRECT_OPENAPI_PATH]: {
        get: operation(
          "get",
          "Follow a tracking link (records a click)",
          "Redirect to the merchant through the network; the click is logged in the background"
        ),
        head: operation(
          "head",
          "Check a tracking link (no click recorded)",
          "Same answer as GET, without a body; not counted as a click (link checkers, unfurlers)"
        )
      }
    },
    { name: "Redirect", description: "The tracking redirect: 302 from memory, clicks logged in batches" }
  )
