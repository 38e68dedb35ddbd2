import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { ClickRecorder } from "../../clicks/ClickRecorder.ts"
import { isSafeRedirectTarget } from "../../domain/matching/submittedUrl.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Database } from "../../infra/Database.ts"
import { Metrics } from "../../infra/Metrics.ts"
import { clientIp } from "../v1/auth/clientIp.ts"
import { ProgramMatcher } from "../v1/links/ProgramMatcher.ts"
import { TrackingLinks } from "../v1/links/TrackingLinks.ts"
import { resolveFeedLink } from "./FeedLinks.ts"
import { LinkCache, type RedirectTarget } from "./LinkCache.ts"

// GET/HEAD /t/{trackingId}: the hot path. A plain HttpRouter route (HttpApi's
// per-request machinery would cost a third of the throughput). The 302 comes
// from memory (LinkCache); the click goes to ClickRecorder's queue; nothing
// here waits on a disk write. The destination only ever comes from our own
// stored link: the query string and headers of the request are never read
// for it.
const STORED_ID = /^[A-Za-z0-9_-]{1,64}$/
const FEED_ID = /^f\.[A-Za-z0-9_-]{1,300}\.[a-z0-9][a-z0-9_-]{0,63}$/

const REDIRECT_HEADERS = { "cache-control": "private, no-store", "x-robots-tag": "noindex" }

const notFoundHtml =
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<meta name="robots" content="noindex"><title>Link not found</title></head>` +
  `<body style="font-family:system-ui;max-width:40rem;margin:3rem auto;padding:0 1rem">` +
  `<h1>This link does not exist</h1><p>The tracking link you followed is unknown or no longer available.</p>` +
  `<p><a href="/">Go to the start page</a></p></body></html>`

const notFound = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["accept"] ?? "").includes("text/html")
    ? HttpServerResponse.text(notFoundHtml, { status: 404, contentType: "text/html; charset=utf-8", headers: REDIRECT_HEADERS })
    : HttpServerResponse.jsonUnsafe(
      { error: { code: "link_not_found", message: "no tracking link with this id" } },
      { status: 404, headers: REDIRECT_HEADERS }
    )

const trackingIdOf = (url: string): string | undefined => {
  const path = url.split("?", 1)[0]
  const raw = path.slice(path.indexOf("/t/") + 3)
  if (raw.includes("%")) {
    try {
      return decodeURIComponent(raw)
    } catch {
      return undefined
    }
  }
  return raw
}

export const RedirectRoute = Layer.unwrap(
  Effect.gen(function*() {
    const db = yield* Database
    const links = yield* TrackingLinks
    const matcher = yield* ProgramMatcher
    const clicks = yield* ClickRecorder
    const config = yield* AppConfig
    const metrics = yield* Metrics

    const loadStored = (id: string) =>
      Effect.map(links.findById(id), (link): RedirectTarget | undefined => {
        if (link === undefined) return undefined
        if (!isSafeRedirectTarget(link.affiliateUrl)) {
          refused.inc()
          return undefined
        }
        return { location: link.affiliateUrl, trackingId: link.id, partnerId: link.partnerId, tag: link.tag }
      })
    const cache = new LinkCache(config.linkCacheSize, (id: string) =>
      id.startsWith("f.") ? resolveFeedLink(id, { db, matcher, links }) : loadStored(id))
    // A link moved to another programme (or none) redirects to its new destination from the next click.
    links.onReassigned((ids) => cache.invalidate(ids))

    const redirects = metrics.counter("redirects_total", "302 answers on /t/{id}")
    const notFounds = metrics.counter("redirect_not_found_total", "Unknown ids on /t/{id}")
    const refused = metrics.counter("redirect_refused_total", "Stored destinations refused (not http(s) or CR/LF)")
    const failures = metrics.counter("redirect_lookup_failures_total", "Link lookups that failed (answered 503)")
    metrics.gauge("link_cache_hits_total", "Link cache hits", () => cache.hits)
    metrics.gauge("link_cache_misses_total", "Link cache misses (DuckDB reads, coalesced)", () => cache.misses)
    metrics.gauge("link_cache_entries", "Links held in the redirect cache", () => cache.size)

    const answer = (request: HttpServerRequest.HttpServerRequest, target: RedirectTarget | undefined) => {
      if (target === undefined) {
        notFounds.inc()
        return notFound(request)
      }
      // HEAD answers the same but is not a click (link checkers, unfurlers probing).
      if (request.method !== "HEAD") {
        clicks.record({
          trackingId: target.trackingId,
          partnerId: target.partnerId,
          tag: target.tag,
          ip: clientIp(request, config.trustProxy),
          userAgent: request.headers["user-agent"],
          referrer: request.headers["referer"]
        })
      }
      redirects.inc()
      return HttpServerResponse.empty({ status: 302, headers: { location: target.location, ...REDIRECT_HEADERS } })
    }

    const handler = (request: HttpServerRequest.HttpServerRequest) => {
      const id = trackingIdOf(request.url)
      if (id === undefined || !(STORED_ID.test(id) || FEED_ID.test(id))) {
        notFounds.inc()
        return Effect.succeed(notFound(request))
      }
      const hit = cache.peek(id)
      if (hit !== undefined) return Effect.succeed(answer(request, hit))
      return cache.get(id).pipe(
        Effect.map((target) => answer(request, target)),
        Effect.catch((error) => {
          failures.inc()
          return Effect.logError("redirect: link lookup failed", error).pipe(
            Effect.as(HttpServerResponse.jsonUnsafe(
              { error: { code: "link_lookup_unavailable", message: "the link store is not reachable; retry shortly" } },
              { status: 503, headers: { ...REDIRECT_HEADERS, "retry-after": "1" } }
            ))
          )
        })
      )
    }

    return HttpRouter.add("GET", "/t/:trackingId", handler)
  })
)
