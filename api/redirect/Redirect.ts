import { Clock, Context, Effect, Layer } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { ClickRecorder } from "../../clicks/ClickRecorder.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Metrics } from "../../infra/Metrics.ts"
import { RateLimiter } from "../../partners/RateLimiter.ts"
import { PAGE_SECURITY_HEADERS } from "../../discovery/pageShell.ts"
import { clientAddress } from "../v1/auth/clientIp.ts"
import { answerGone } from "./goneLink.ts"
import { type CachedRedirect, REDIRECT_HEADERS, RedirectLinks } from "../../links/RedirectLinks.ts"

// GET/HEAD /t/{trackingId}: the hot path, as a plain node:http listener that
// sees every request before the Effect router (which serves the rest of the
// API). A cache hit costs a regex, a Map lookup, a few bytes appended to the
// click page and one writeHead with a header list built when the link was
// loaded: no Effect fiber, no closure, no object per request. A cold link
// runs the Effect lookup (coalesced in LinkCache). The destination only ever
// comes from our own stored link: the query string and headers of the
// request are never read for it.
const STORED_ID = /^[A-Za-z0-9_-]{1,64}$/
const FEED_ID = /^f\.[A-Za-z0-9_-]{1,300}\.[a-z0-9][a-z0-9_-]{0,63}$/

const notFoundHtml = Buffer.from(
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>Link not found</title></head>` +
    `<body style="font-family:system-ui;max-width:40rem;margin:3rem auto;padding:0 1rem">` +
    `<h1>This link does not exist</h1><p>The tracking link you followed is unknown or no longer available.</p>` +
    `<p><a href="/">Go to the start page</a></p></body></html>`
)
const notFoundJson = Buffer.from(
  JSON.stringify({ error: { code: "link_not_found", message: "no tracking link with this id" } })
)
const unavailableJson = Buffer.from(
  JSON.stringify({
    error: { code: "link_lookup_unavailable", message: "the link store is not reachable; retry shortly" }
  })
)
const withBody = (contentType: string, body: Buffer, extra: ReadonlyArray<string> = []) => [
  "content-type",
  contentType,
  "content-length",
  String(body.length),
  ...REDIRECT_HEADERS,
  ...extra
]
const NOT_FOUND_HTML_HEAD = withBody(
  "text/html; charset=utf-8",
  notFoundHtml,
  Object.entries(PAGE_SECURITY_HEADERS).flat()
)
const NOT_FOUND_JSON_HEAD = withBody("application/json", notFoundJson)
const UNAVAILABLE_HEAD = withBody("application/json", unavailableJson, ["retry-after", "1"])

/** The 429 of a client whose store lookups are spent (its Retry-After varies: built per refusal). */
const refuseLookup = (res: ServerResponse, retryAfterSeconds: number) => {
  const body = Buffer.from(
    JSON.stringify({
      error: {
        code: "rate_limited",
        message: `too many lookups of unknown or uncached links; retry in ${retryAfterSeconds} s`,
        details: { scope: "redirect_lookup", retry_after_seconds: retryAfterSeconds }
      }
    })
  )
  res.writeHead(429, withBody("application/json", body, ["retry-after", String(retryAfterSeconds)])).end(body)
}

const trackingIdOf = (url: string): string | undefined => {
  const query = url.indexOf("?")
  const raw = url.slice(3, query < 0 ? url.length : query)
  if (!raw.includes("%")) return raw
  try {
    return decodeURIComponent(raw)
  } catch {
    return undefined
  }
}

/**
 * Every X-Forwarded-For line joined, as node joins them in `req.headers`: the
 * entry our proxy appended may be on a line after ones the client sent.
 */
const forwardedFor = (raw: ReadonlyArray<string>): string | undefined => {
  let joined: string | undefined
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]
    if (key.length === 15 && key.toLowerCase() === "x-forwarded-for") {
      joined = joined === undefined ? raw[i + 1] : `${joined}, ${raw[i + 1]}`
    }
  }
  return joined
}

/** The request headers the redirect reads, found in rawHeaders without building `req.headers`. */
const header = (raw: ReadonlyArray<string>, name: string): string | undefined => {
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]
    // most clients send lower-case names: compare before allocating a lower-cased copy
    if (key.length === name.length && (key === name || key.toLowerCase() === name)) return raw[i + 1]
  }
  return undefined
}

export class RedirectHotPath extends Context.Service<
  RedirectHotPath,
  {
    /** Answers GET/HEAD /t/*; returns false for every other request. */
    handle(req: IncomingMessage, res: ServerResponse): boolean
  }
>()("app/api/redirect/RedirectHotPath") {
  static readonly layer = Layer.effect(
    RedirectHotPath,
    Effect.gen(function* () {
      const { cache, preview } = yield* RedirectLinks
      const clicks = yield* ClickRecorder
      const { trustProxy, rateLimitPerIp } = yield* AppConfig
      // A link in the cache costs nothing to answer; one that is not (an
      // unknown or random id) costs a store lookup: those spend a per-client
      // bucket of the IP allowance's size, in this process's memory (one Map
      // operation; hits never touch it), so random ids cannot flood the store.
      const clock = yield* Clock.Clock
      const lookups = new RateLimiter(rateLimitPerIp, () => clock.currentTimeMillisUnsafe())
      const metrics = yield* Metrics
      const context = yield* Effect.context<never>()
      const runFork = Effect.runForkWith(context)
      const redirects = metrics.counter("redirects_total", "302 answers on /t/{id}")
      const notFounds = metrics.counter("redirect_not_found_total", "Unknown ids on /t/{id}")
      const failures = metrics.counter("redirect_lookup_failures_total", "Link lookups that failed (answered 503)")
      const lookupsRefused = metrics.counter("api_rate_limited_total", "Requests answered 429", {
        scope: "redirect_lookup"
      })

      const notFound = (req: IncomingMessage, res: ServerResponse) => {
        notFounds.inc()
        const html = (header(req.rawHeaders, "accept") ?? "").includes("text/html")
        res.writeHead(404, html ? NOT_FOUND_HTML_HEAD : NOT_FOUND_JSON_HEAD).end(html ? notFoundHtml : notFoundJson)
      }

      const answer = (req: IncomingMessage, res: ServerResponse, target: CachedRedirect) => {
        if (target.gone !== undefined) return answerGone(req, res, target.gone)
        // HEAD answers the same but is not a click (link checkers, unfurlers probing).
        // The click is appended before the answer leaves: an answered click is recorded.
        if (req.method === "GET") {
          const raw = req.rawHeaders
          const peer = req.socket.remoteAddress
          clicks.record(
            target.trackingId,
            target.partnerId,
            target.tag,
            trustProxy > 0 ? clientAddress(forwardedFor(raw), peer, trustProxy) : (peer ?? "unknown"),
            header(raw, "user-agent"),
            header(raw, "referer")
          )
        }
        redirects.inc()
        res.writeHead(302, target.head as Array<string>).end()
      }

      const clientOf = (req: IncomingMessage) => {
        const peer = req.socket.remoteAddress
        return trustProxy > 0 ? clientAddress(forwardedFor(req.rawHeaders), peer, trustProxy) : (peer ?? "unknown")
      }

      // A GET loads (and for a feed id, creates once) the stored link into the
      // cache; a HEAD only looks, so link checkers and unfurlers write nothing.
      const answerCold = (req: IncomingMessage, res: ServerResponse, id: string) => {
        const verdict = lookups.take(clientOf(req))
        if (!verdict.allowed) {
          lookupsRefused.inc()
          return refuseLookup(res, verdict.retryAfterSeconds)
        }
        runFork(
          (req.method === "GET" ? cache.get(id) : preview(id)).pipe(
            Effect.matchCause({
              onSuccess: (target) => (target === undefined ? notFound(req, res) : answer(req, res, target)),
              onFailure: (cause) => {
                failures.inc()
                if (!res.headersSent) res.writeHead(503, UNAVAILABLE_HEAD).end(unavailableJson)
                runFork(Effect.logError("redirect: link lookup failed", cause))
              }
            })
          )
        )
      }

      const route = (req: IncomingMessage, res: ServerResponse, url: string) => {
        const id = trackingIdOf(url)
        if (id === undefined || !(STORED_ID.test(id) || FEED_ID.test(id))) return notFound(req, res)
        const hit = cache.peek(id)
        if (hit !== undefined) answer(req, res, hit)
        else answerCold(req, res, id)
      }

      const handle = (req: IncomingMessage, res: ServerResponse): boolean => {
        const url = req.url
        if (url === undefined || !url.startsWith("/t/") || (req.method !== "GET" && req.method !== "HEAD")) return false
        // A listener that throws would take the process down: a defect here
        // becomes a logged 503, as the Effect router would make it a 500.
        try {
          route(req, res, url)
        } catch (error) {
          failures.inc()
          if (!res.headersSent) res.writeHead(503, UNAVAILABLE_HEAD).end(unavailableJson)
          runFork(Effect.logError("redirect: defect", error))
        }
        return true
      }
      return RedirectHotPath.of({ handle })
    })
  )
}
