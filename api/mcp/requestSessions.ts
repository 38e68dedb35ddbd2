import { Effect } from "effect"
import { type Headers, HttpEffect, type HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { MetricsShape } from "../../infra/Metrics.ts"
import { PROTOCOLS } from "./serverInfo.ts"

// /mcp keeps no session between requests, so that any replica answers any
// request and a process restart loses nothing. The MCP revisions our clients
// speak (2025-03-26 to 2025-11-25) let a server answer initialize without an
// Mcp-Session-Id; the client then sends every later request without one. The
// MCP library, though, serves those revisions only inside a session: each
// request is run in a session of its own, opened in this process just before
// it and ended just after it (a few in-process calls, no network, no state
// left behind). The session's id never leaves the process.

export const SESSION_HEADER = "mcp-session-id"
export const SESSIONS_GAUGE = "mcp_request_sessions_open"
const VERSION_HEADER = "mcp-protocol-version"
/** A client that sends no MCP-Protocol-Version speaks 2025-03-26 (the transport specification says so). */
const UNDECLARED_VERSION = "2025-03-26"
const SUPPORTED: ReadonlyArray<string> = PROTOCOLS.map((protocol) => protocol.protocolVersion)

/** The revision a request speaks, when we speak it too; else the transport answers the unsupported version itself. */
export const requestVersion = (request: HttpServerRequest.HttpServerRequest) => {
  const version = request.headers[VERSION_HEADER] ?? UNDECLARED_VERSION
  return SUPPORTED.includes(version) ? version : undefined
}

/**
 * The request as the MCP library should see it: the same object (its body,
 * already read, stays cached on it) with other headers. A new request made
 * with `modify` would read the consumed body again.
 */
export const withHeaders = (
  request: HttpServerRequest.HttpServerRequest,
  headers: Headers.Headers
): HttpServerRequest.HttpServerRequest =>
  new Proxy(request, {
    get: (target, property) => (property === "headers" ? headers : Reflect.get(target, property, target))
  })

export const withoutSessionHeader = (response: HttpServerResponse.HttpServerResponse) =>
  response.headers[SESSION_HEADER] === undefined ? response : HttpServerResponse.removeHeader(response, SESSION_HEADER)

/**
 * Opens and ends the per-request sessions by in-process requests to the
 * router (marked, so the guard lets them by). `open` counts the sessions held
 * (a gauge on /metrics: at rest it is 0, anything else is a leak).
 */
export const makeRequestSessions = (router: HttpRouter.HttpRouter, metrics: MetricsShape) => {
  const internal = new WeakSet<HttpServerRequest.HttpServerRequest>()
  const held = new Set<string>()
  metrics.gauge(SESSIONS_GAUGE, "MCP sessions held for requests in flight (none outlives its request)", () => held.size)

  /** Runs one request through the router as the server would (pre-response handlers applied): its final answer. */
  const run = (init: RequestInit) =>
    Effect.suspend(() => {
      const request = HttpServerRequest.fromWeb(new Request("http://localhost/mcp", init))
      internal.add(request)
      let answer: HttpServerResponse.HttpServerResponse | undefined
      return HttpEffect.toHandled(router.asHttpEffect(), (_, response) =>
        Effect.sync(() => {
          answer = response
        })
      ).pipe(
        Effect.provideService(HttpServerRequest.HttpServerRequest, request),
        Effect.map(() => answer)
      )
    })

  /** A fresh session at `protocolVersion`: its id, or undefined when the library would not open one. */
  const open = (protocolVersion: string) =>
    run({
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion, capabilities: {}, clientInfo: { name: "request", version: "1" } }
      })
    }).pipe(
      Effect.map((answer) => {
        const sessionId = answer?.headers[SESSION_HEADER]
        if (sessionId !== undefined) held.add(sessionId)
        return sessionId
      })
    )

  /** Ends a session as its client's DELETE would: its state is freed. */
  const end = (sessionId: string) =>
    run({ method: "DELETE", headers: { [SESSION_HEADER]: sessionId } }).pipe(
      Effect.ignore,
      Effect.ensuring(Effect.sync(() => held.delete(sessionId)))
    )

  return { isInternal: (request: HttpServerRequest.HttpServerRequest) => internal.has(request), open, end }
}
