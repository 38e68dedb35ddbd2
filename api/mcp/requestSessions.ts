import { Effect } from "effect"
import { type Headers, HttpEffect, type HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { MetricsShape } from "../../infra/Metrics.ts"
import { PROTOCOLS } from "./serverInfo.ts"

// /mcp keeps no session between requests, so that any replica answers any
// request and a process restart loses nothing. The MCP revisions our clients
// speak (2025-03-26 to 2025-11-25) let a server answer initialize without an
// Mcp-Session-Id; the client then sends every later request without one. The
// MCP library, though, serves those revisions only inside a session: each
// request is run in a session of this process that no other request uses
// while it runs, taken from a small pool of idle ones (or opened by an
// in-process initialize) and given back after it. Such a session holds no
// caller's state: who calls is read from each request's headers, its
// initialize was ours, and one whose log level a request changed
// (logging/setLevel) is ended instead of given back. Its id never leaves the process.

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

/** Idle sessions kept per protocol revision: about the requests one process serves at once. */
const MAX_IDLE_PER_VERSION = 32

/**
 * Lends the per-request sessions; opens and ends them by in-process requests
 * to the router (marked, so the guard lets them by). The sessions lent out
 * are a gauge on /metrics: at rest it is 0, anything else is a leak.
 */
export const makeRequestSessions = (router: HttpRouter.HttpRouter, metrics: MetricsShape) => {
  const internal = new WeakSet<HttpServerRequest.HttpServerRequest>()
  const held = new Set<string>()
  const idle = new Map<string, Array<string>>()
  metrics.gauge(SESSIONS_GAUGE, "MCP sessions lent to requests in flight (none outlives its request)", () => held.size)

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

  /** A session at `protocolVersion` for one request alone: an idle one, else a new one. */
  const lend = (protocolVersion: string) =>
    Effect.suspend(() => {
      const sessionId = idle.get(protocolVersion)?.pop()
      if (sessionId === undefined) return open(protocolVersion)
      held.add(sessionId)
      return Effect.succeed<string | undefined>(sessionId)
    })

  /** After its request: back to the pool when `reusable` and the pool has room, else ended. */
  const giveBack = (sessionId: string, protocolVersion: string, reusable: boolean) =>
    Effect.suspend(() => {
      held.delete(sessionId)
      const pool = idle.get(protocolVersion) ?? []
      if (!reusable || pool.length >= MAX_IDLE_PER_VERSION) return end(sessionId)
      pool.push(sessionId)
      idle.set(protocolVersion, pool)
      return Effect.void
    })

  return { isInternal: (request: HttpServerRequest.HttpServerRequest) => internal.has(request), lend, giveBack, end }
}
