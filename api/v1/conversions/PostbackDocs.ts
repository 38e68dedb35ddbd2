import { MAX_PER_POSTBACK } from "../../../conversions/PostbackBody.ts"
import { REPLAY_WINDOW_SECONDS } from "../../../conversions/PostbackSignature.ts"
import { MAX_BODY_BYTES, POSTBACK_PATH } from "./Postback.ts"
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
const decimal = {
  type: "string",
  pattern: "^-?\\d+(\\.\\d{1,4})?$",
  description: "Exact decimal (a JSON number is read exactly too)"
}
const conversion = {
  type: "object",
  required: ["transaction_id", "order_amount", "commission", "currency", "status", "event_time"],
  properties: {
    network: { type: "string", description: "Optional; must equal X-Network" },
    transaction_id: {
      type: "string",
      maxLength: 200,
      description: "The network's transaction id; with the network it identifies the conversion"
    },
    click_ref: {
      type: ["string", "null"],
      description: "The sub-id value: our tracking id. Unknown or empty: kept as unattributed"
    },
    order_amount: decimal,
    commission: decimal,
    currency: { type: "string", pattern: "^[A-Z]{3}$" },
    status: { type: "string", enum: ["pending", "approved", "declined", "reversed"] },
    event_time: { type: "string", format: "date-time" },
    updated_time: {
      type: "string",
      format: "date-time",
      description: "Optional; an older update than the stored one is ignored"
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
            `X-Timestamp within ${REPLAY_WINDOW_SECONDS / 60} minutes of the server clock. Idempotent: the same transaction updates its one conversion. ` +
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
            400: error("Malformed body or X-Timestamp; the message and details.field name the field"),
            401: error("Unknown network, missing or wrong signature, or timestamp outside the window"),
            413: error("Body too large"),
            503: error("Storage unavailable; retry")
          }
        }
      }
    },
    { name: "Conversions", description: "Conversion postbacks from networks" }
  )
