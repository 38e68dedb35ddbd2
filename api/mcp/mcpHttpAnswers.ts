import { HttpBody, HttpServerResponse } from "effect/http"
import { errorResponse } from "../ErrorResponses.ts"

// The shapes of /mcp's own answers. The MCP transport refuses some requests
// at the HTTP level with an empty body (404 unknown session, 405 method,
// 406 Accept, 400 a batch it does not take, 403 Origin): they get the JSON
// API's error body. And it serialises some JSON-RPC errors with the internal
// `_tag` of their Effect class: JSON-RPC error objects are { code, message, data? }.

/** A JSON-RPC error response (HTTP 200: the request was read, the message refused). */
export const jsonRpcError = (id: unknown, code: number, message: string, data?: Record<string, unknown>) =>
  HttpServerResponse.jsonUnsafe({
    jsonrpc: "2.0",
    id: typeof id === "string" || typeof id === "number" ? id : null,
    error: data === undefined ? { code, message } : { code, message, data }
  })

/** JSON-RPC's code for a request whose parameters are not acceptable. */
export const INVALID_PARAMS = -32602
/** The implementation-defined server error range of JSON-RPC: a limit of this server. */
export const SERVER_LIMIT = -32000

/** What the transport would answer a session id it does not hold; we never hand one out, so it cannot happen. */
const sessionNotFound = () =>
  errorResponse(404, {
    code: "session_not_found",
    message: "this server keeps no MCP sessions: send requests without Mcp-Session-Id"
  })

const METHOD_NOT_ALLOWED =
  "is not served on /mcp: POST JSON-RPC messages (this server keeps no sessions, so there is none to end with " +
  "DELETE, and sends no server-initiated messages, so there is no GET stream)"

/** DELETE ends a session; no session outlives its request here. Allow names POST only. */
export const noSessionToEnd = () =>
  HttpServerResponse.setHeader(
    errorResponse(405, { code: "method_not_allowed", message: `DELETE ${METHOD_NOT_ALLOWED}` }),
    "allow",
    "POST"
  )

const bareAnswer = (status: number, method: string, wasBatch: boolean) => {
  switch (status) {
    case 400:
      return errorResponse(400, {
        code: "bad_request",
        message: wasBatch
          ? "JSON-RPC batches are accepted only inside a session of protocol version 2025-03-26, " +
            "and never with initialize; send the messages one per request"
          : "the request is not a message this MCP endpoint accepts"
      })
    case 403:
      return errorResponse(403, { code: "forbidden", message: "requests from this Origin are not accepted" })
    case 404:
      return sessionNotFound()
    case 405:
      return errorResponse(405, {
        code: "method_not_allowed",
        message: `${method} ${METHOD_NOT_ALLOWED}`
      })
    case 406:
      return errorResponse(406, {
        code: "not_acceptable",
        message: "send Accept: application/json, text/event-stream (Streamable HTTP clients accept both)"
      })
    default:
      return undefined
  }
}

const withoutTag = (message: unknown): unknown => {
  if (typeof message !== "object" || message === null || !("error" in message)) return message
  const error = (message as { error: unknown }).error
  if (typeof error !== "object" || error === null || !("_tag" in error)) return message
  const { _tag, ...plain } = error as Record<string, unknown>
  return { ...message, error: plain }
}

/**
 * The answer as documented: an empty HTTP-level refusal gets our JSON error
 * body (its headers, such as Allow, kept), and a JSON-RPC error in a JSON
 * body loses its `_tag`.
 */
export const documentedAnswer = (
  response: HttpServerResponse.HttpServerResponse,
  method: string,
  wasBatch: boolean
): HttpServerResponse.HttpServerResponse => {
  if (response.body._tag === "Empty" && response.status >= 400) {
    const answer = bareAnswer(response.status, method, wasBatch)
    if (answer === undefined) return response
    const kept = Object.entries(response.headers).filter(([name]) => !name.startsWith("content-"))
    // the transport allows DELETE (our per-request sessions end that way); a client has none to end
    const allow = response.status === 405 ? { allow: "POST" } : {}
    return HttpServerResponse.setHeaders(answer, { ...Object.fromEntries(kept), ...allow })
  }
  if (response.body._tag !== "Uint8Array" || !response.body.contentType.includes("json")) return response
  const text = new TextDecoder().decode(response.body.body)
  if (!text.includes('"_tag"')) return response
  const body: unknown = JSON.parse(text)
  const plain = Array.isArray(body) ? body.map(withoutTag) : withoutTag(body)
  return HttpServerResponse.setBody(response, HttpBody.jsonUnsafe(plain))
}
