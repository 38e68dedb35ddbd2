import { Effect } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Metrics } from "../../infra/Metrics.ts"
import { type Denied, rateLimitedBody, RateLimits } from "../../partners/RateLimits.ts"
import { clientAddress } from "../v1/auth/clientIp.ts"
import { type EdgeGuard, type EdgeGuards, type EdgeUpgradeGuard, rawResponse } from "./EdgeServer.ts"
import { isPublicRead } from "./publicReads.ts"

// The per-client limits of every public read (pages, /api/search,
// /api/deals, /api/v1/products/search, /docs, /openapi.json, /ready and any
// path no route claims), checked before the hot paths and the router, so
// that one client is answered 429 before it can overwhelm Meilisearch or the
// store (a 503 stays what it means: a real outage). Two limits:
// - at most CONCURRENT_REQUESTS_PER_IP requests of one client in flight
//   (this process's memory: concurrency is a property of this process);
// - the caller's IP allowance (RATE_LIMIT_IP_*), the same token bucket the
//   anonymous /api/v1 calls spend: in memory on DuckDB, shared by every
//   replica on PostgreSQL and answered from each replica's memory there too
//   (partners/RateLimits.ts), so the guard never waits.
// Not here: /t/ (the redirect limits its store lookups itself), /api/v1
// (its middlewares limit per key or per IP), /mcp (its own guard), /admin
// (the admin token), /health (liveness costs nothing and a probe must never
// be refused) and /metrics (the admin token, or its loopback port).

/** Retry-After of a refusal for concurrency: a request in flight is usually done within a second. */
const BUSY: Denied = { allowed: false, retryAfterSeconds: 1 }

const refuse = (res: ServerResponse, scope: string, verdict: Denied) => {
  const body = Buffer.from(JSON.stringify(rateLimitedBody(scope, verdict)))
  res
    .writeHead(429, [
      "content-type",
      "application/json",
      "content-length",
      String(body.length),
      "retry-after",
      String(verdict.retryAfterSeconds),
      "cache-control",
      "no-store"
    ])
    .end(body)
}

/** The client address a response counts against, to release its slot when the response closes. */
const CLIENT = Symbol("edgeClient")
type Counted = ServerResponse & { [CLIENT]?: string }

/** The edge guard of public reads (EdgeServer.ts runs it before the hot paths). */
export const makePublicReadLimits = Effect.gen(function* () {
  const limits = yield* RateLimits
  const { trustProxy, httpEdge } = yield* AppConfig
  const metrics = yield* Metrics
  const busyRefusals = metrics.counter("api_rate_limited_total", "Requests answered 429", { scope: "concurrency" })
  const cap = httpEdge.concurrentRequestsPerIp
  const inFlight = new Map<string, number>()

  function release(this: Counted) {
    const client = this[CLIENT]!
    const left = (inFlight.get(client) ?? 1) - 1
    if (left <= 0) inFlight.delete(client)
    else inFlight.set(client, left)
  }

  /** Takes one of the client's in-flight slots until the response closes; false when none is free. */
  const occupy = (client: string, res: Counted) => {
    if (cap <= 0) return true
    const count = inFlight.get(client) ?? 0
    if (count >= cap) return false
    inFlight.set(client, count + 1)
    res[CLIENT] = client
    res.once("close", release)
    return true
  }

  const clientOf = (req: IncomingMessage) =>
    clientAddress(
      // node joins repeated X-Forwarded-For lines with commas
      trustProxy > 0 ? (req.headers["x-forwarded-for"] as string | undefined) : undefined,
      req.socket.remoteAddress,
      trustProxy
    )

  const request: EdgeGuard = (req, res) => {
    const url = req.url
    if (url === undefined || !isPublicRead(url)) return false
    const client = clientOf(req)
    if (!occupy(client, res)) {
      busyRefusals.inc()
      refuse(res, "concurrency", BUSY)
      return true
    }
    const verdict = limits.takeNow("ip", `ip:${client}`)
    if (verdict.allowed) return false
    limits.countRefusal("ip")
    refuse(res, "ip", verdict)
    return true
  }

  // A request with an Upgrade header (an h2c attempt, say) is served like
  // any other by the router: it spends the same allowance. It is not counted
  // in flight (its answer is written on the socket, past this guard's view).
  const upgrade: EdgeUpgradeGuard = (req, socket) => {
    const url = req.url
    if (url === undefined || !isPublicRead(url)) return false
    const verdict = limits.takeNow("ip", `ip:${clientOf(req)}`)
    if (verdict.allowed) return false
    limits.countRefusal("ip")
    socket.on("error", () => undefined)
    socket.end(rawResponse(429, JSON.stringify(rateLimitedBody("ip", verdict)), verdict.retryAfterSeconds))
    return true
  }
  return { request, upgrade } satisfies EdgeGuards
})
