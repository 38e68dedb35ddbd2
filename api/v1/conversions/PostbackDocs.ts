import { EARLIEST_CONVERSION_TIME, MAX_FUTURE_MS, MAX_PER_POSTBACK } from "../../../conversions/PostbackBody.ts"
import { REPLAY_WINDOW_SECONDS } from "../../../conversions/PostbackSignature.ts"
import { MAX_BODY_BYTES, POSTBACK_PATH } from "./postbackRoute.ts"
import { withPaths } from "../../openApiExtend.ts"

// The postback is a raw route (the HMAC needs the raw body), so HttpApi does
// not see it; this adds its operation to /openapi.json (and /docs) by hand.
const errorBody = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "string" }, message: { type: "string" }, details: {} }
    }
  }
}
/** An OpenAPI response carrying our JSON error body (shared by the other hand-written operations). */
export const jsonErrorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: errorBody } }
})
const error = jsonErrorResponse
// What the strict decoder (conversions/PostbackBody.ts) accepts, no more:
// strings only (a JSON number is refused, so money is never read as a float),
// no unknown property, no control character or lone surrogate in any text.
const decimal = {
  type: "string",
  pattern: "^\\d+(\\.\\d{1,4})?$",
  description: "Exact decimal as a string (a JSON number is refused), at most 4 fraction digits"
}
const earliest = EARLIEST_CONVERSION_TIME.toISOString()
const latest = `${MAX_FUTURE_MS / 3_600_000} hours after the server's time`
const time = (description: string) => ({
  type: "string",
  format: "date-time",
  description: `${description} ISO 8601 (no offset = UTC); from ${earliest} to ${latest}.`
})
const conversion = {
  type: "object",
  additionalProperties: false,
  required: ["transaction_id", "order_amount", "commission", "currency", "status", "event_time"],
  properties: {
    network: { type: "string", description: "Optional; must equal X-Network" },
    transaction_id: {
      type: "string",
      minLength: 1,
      maxLength: 200,
      description:
        "The network's transaction id; with the network it identifies the conversion. Unique within one postback; no control characters"
    },
    click_ref: {
      type: ["string", "null"],
      maxLength: 200,
      description:
        "The sub-id value: our tracking id. Credited only when that link's programme is on X-Network; otherwise (or unknown, or empty) kept as unattributed with its reason"
    },
    order_amount: decimal,
    commission: decimal,
    currency: { type: "string", pattern: "^[A-Z]{3}$" },
    status: { type: "string", enum: ["pending", "approved", "declined", "reversed"] },
    event_time: time("When the sale happened:"),
    updated_time: {
      ...time(
        "Optional; when the network last changed it. An older update than the stored one is ignored, and a declined or reversed conversion moves back only with a newer one:"
      ),
      type: ["string", "null"]
    }
  }
}
const header = (name: string, description: string) => ({
  name,
  in: "header",
  required: true,
  schema: { type: "string" },
  description
})

export const addPostbackToOpenApi = (spec: Readonly<Record<string, unknown>>) =>
  withPaths(
    spec,
    {
      [POSTBACK_PATH]: {
        post: {
          tags: ["Conversions"],
          operationId: "conversions.postback",
          summary: "Server-to-server conversion postback (signed)",
          description:
            `Networks push conversions here. Authentication: X-Signature = hex HMAC-SHA256(secret of X-Network, \`\${X-Timestamp}.\${raw body}\`); ` +
            `X-Timestamp within ${REPLAY_WINDOW_SECONDS / 60} minutes of the server clock; a signed request is accepted once (the same one again: 401 \`replay\`). ` +
            `Idempotent: the same transaction updates its one conversion. Refused with 403 while POSTBACK_SECRETS is not set. ` +
            `Body: one conversion, an array, or { conversions: [...] } (at most ${MAX_PER_POSTBACK}, ${MAX_BODY_BYTES / 1024} KiB); any invalid one and nothing is written.`,
          parameters: [
            header("X-Network", "Network id whose shared secret signed the request (POSTBACK_SECRETS)"),
            header("X-Timestamp", "Unix seconds when the request was signed"),
            header("X-Signature", "Hex HMAC-SHA256 of `${X-Timestamp}.${raw body}`")
          ],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  oneOf: [
                    conversion,
                    { type: "array", items: conversion },
                    {
                      type: "object",
                      additionalProperties: false,
                      required: ["conversions"],
                      properties: { conversions: { type: "array", items: conversion } }
                    }
                  ]
                }
              }
            }
          },
          responses: {
            200: {
              description: "Stored (or already up to date)",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      accepted: { type: "integer" },
                      inserted: { type: "integer" },
                      updated: { type: "integer" },
                      unchanged: { type: "integer" },
                      stale: { type: "integer", description: "Older than what is stored; ignored" },
                      ids: { type: "array", items: { type: "string" } }
                    }
                  }
                }
              }
            },
            400: error(
              "Malformed body or X-Timestamp, a wrong type, an unknown property, a duplicate transaction_id, a time out of range or a text with a control character or lone surrogate; details.field names the field (details.row the conversion's index)"
            ),
            401: error(
              "Unknown network, missing or wrong signature, or timestamp outside the window (code unauthorized); the same signed request accepted before (code replay)"
            ),
            403: error("Postbacks are off: POSTBACK_SECRETS is not set (code postbacks_disabled)"),
            413: error("Body too large"),
            503: {
              ...error(
                "Storage unavailable; retry after Retry-After seconds (the request was not stored, so the same one may be sent again)"
              ),
              headers: {
                "Retry-After": {
                  required: true,
                  schema: { type: "integer" },
                  description: "Seconds to wait before retrying"
                }
              }
            }
          }
        }
      }
    },
    { name: "Conversions", description: "Conversion postbacks from networks" }
  )
