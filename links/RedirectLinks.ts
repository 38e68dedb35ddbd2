import { Context, Effect, Layer } from "effect"
import { isSafeRedirectTarget } from "../domain/matching/submittedUrl.ts"
import { AppConfig } from "../infra/AppConfig.ts"
import { Database, type DatabaseError } from "../infra/Database.ts"
import { CatalogEvents } from "../infra/events/CatalogEvents.ts"
import { Metrics } from "../infra/Metrics.ts"
import { ProgramMatcher } from "./ProgramMatcher.ts"
import { TrackingLinks } from "./TrackingLinks.ts"
import { resolveFeedLink } from "./FeedLinks.ts"
import { LinkCache, type RedirectTarget } from "./LinkCache.ts"
import { type LinkState, LinkSettings } from "./LinkSettings.ts"

/** A cached redirect with its response headers built once, when the link is loaded. */
export interface CachedRedirect extends RedirectTarget {
  /** Raw header list for writeHead: location, an empty body's length, cache-control, x-robots-tag. */
  readonly head: ReadonlyArray<string>
  /**
   * Set when the partner disabled or deleted the link: /t/ answers 410 Gone
   * (naming the merchant's page, untracked) and counts no click.
   */
  readonly gone?: { readonly state: Exclude<LinkState, "active">; readonly destination: string }
}

/** Headers every /t/ answer carries, whatever its status. */
export const REDIRECT_HEADERS = ["cache-control", "private, no-store", "x-robots-tag", "noindex"] as const

const cached = (target: RedirectTarget): CachedRedirect => ({
  ...target,
  head: ["location", target.location, "content-length", "0", ...REDIRECT_HEADERS]
})

// The redirect's link cache as a service, so whoever changes a link (e.g.
// re-resolution after a catalog change) can call `invalidate(trackingId)`
// and the next click reads the store again. The destination only ever comes
// from our own stored link, and is refused unless it is http(s) without CR/LF.
export class RedirectLinks extends Context.Service<
  RedirectLinks,
  {
    readonly cache: LinkCache<DatabaseError, CachedRedirect>
    /**
     * What a HEAD (not a click) on an id not in the cache answers, without
     * writing: a feed id that no GET has stored a link for yet redirects to its
     * product page; nothing is cached, so the first GET still creates the link.
     */
    preview(id: string): Effect.Effect<CachedRedirect | undefined, DatabaseError>
    /** Forgets a tracking id's cached destination (and feed ids resolved to it). */
    invalidate(trackingId: string): void
    /** Forgets every cached destination (links changed by another process). */
    invalidateAll(): void
  }
>()("app/links/RedirectLinks") {
  static readonly layer = Layer.effect(
    RedirectLinks,
    Effect.gen(function* () {
      const db = yield* Database
      const links = yield* TrackingLinks
      const matcher = yield* ProgramMatcher
      const settings = yield* LinkSettings
      const config = yield* AppConfig
      const metrics = yield* Metrics
      const refused = metrics.counter("redirect_refused_total", "Stored destinations refused (not http(s) or CR/LF)")

      // Only partners' links have settings: a cold anonymous link costs no second read.
      const stateOf = (target: RedirectTarget) =>
        target.partnerId === null
          ? Effect.succeed(undefined)
          : Effect.map(settings.settingsOf([target.trackingId]), (found) => found.get(target.trackingId)?.state)
      /** The answer as the link's settings leave it: as is while active, else gone (410) with its safe destination. */
      const withSettings = <A extends RedirectTarget, E>(
        answer: A,
        destination: Effect.Effect<string | undefined, E>
      ) =>
        Effect.gen(function* () {
          const state = yield* stateOf(answer)
          if (state === undefined || state === "active") return answer
          const url = (yield* destination) ?? ""
          return { ...answer, gone: { state, destination: isSafeRedirectTarget(url) ? url : "" } }
        })
      const loadStored = (id: string) =>
        Effect.gen(function* () {
          const link = yield* links.findById(id)
          if (link === undefined) return undefined
          if (!isSafeRedirectTarget(link.affiliateUrl)) {
            refused.inc()
            return undefined
          }
          const target = cached({
            location: link.affiliateUrl,
            trackingId: link.id,
            partnerId: link.partnerId,
            tag: link.tag
          })
          return yield* withSettings(target, Effect.succeed(link.destinationUrl))
        })
      // A feed id resolved to a partner's stored link answers as that link's
      // own /t/{id} does: disabled or deleted, 410 Gone and no click, so the
      // partner's switch holds for every id that leads to the link.
      const loadFeed = (id: string, create: boolean) =>
        Effect.gen(function* () {
          const target = yield* resolveFeedLink(id, { db, matcher, links }, { create })
          if (target === undefined) return undefined
          const answer = cached(target)
          // A derived id (no programme, or no partner's link): nobody's settings apply.
          if (target.trackingId.startsWith("f.")) return answer
          return yield* withSettings(
            answer,
            Effect.map(links.findById(target.trackingId), (link) => link?.destinationUrl)
          )
        })
      const cache = new LinkCache(config.linkCacheSize, (id: string) =>
        id.startsWith("f.") ? loadFeed(id, true) : loadStored(id)
      )
      // A link moved to another programme (or none) redirects to its new
      // destination from the next click; moved by another process, within
      // CATALOG_POLL_MS (which links is not known here: forget them all).
      links.onReassigned((reassigned) => {
        for (const id of reassigned) cache.invalidate(id)
      })
      // Disabled, enabled or deleted here: the next click reads the link again.
      settings.onChanged((id) => cache.invalidate(id))
      yield* (yield* CatalogEvents).subscribe("redirect cache", ({ change }) =>
        Effect.sync(() => {
          if (change._tag === "Followed" && change.linksMoved) cache.invalidateAll()
        })
      )

      metrics.gauge("link_cache_hits_total", "Link cache hits", () => cache.hits)
      metrics.gauge("link_cache_misses_total", "Link cache misses (DuckDB reads, coalesced)", () => cache.misses)
      metrics.gauge("link_cache_entries", "Links held in the redirect cache", () => cache.size)
      return RedirectLinks.of({
        cache,
        preview: (id) => (id.startsWith("f.") ? loadFeed(id, false) : cache.get(id)),
        invalidate: (trackingId) => cache.invalidate(trackingId),
        invalidateAll: () => cache.invalidateAll()
      })
    })
  )
}
