import { Context, Effect, Layer } from "effect"
import { affiliateUrlFor, type MatchMarket, type NoMatchReason } from "../domain/matching/resolve.ts"
import { type Selection, selectionOfProgram } from "../domain/matching/selectProgram.ts"
import { isSafeRedirectTarget } from "../domain/matching/submittedUrl.ts"
import type { DatabaseError } from "../infra/Database.ts"
import type { Partner } from "../partners/Partners.ts"
import { LinkSettings } from "./LinkSettings.ts"
import { ProgramMatcher } from "./ProgramMatcher.ts"
import { ANONYMOUS_TAG, type TrackingLink, TrackingLinks } from "./TrackingLinks.ts"

// From "a partner sent this URL" to a stored tracking link: domain matching
// and link creation in one place, shared by POST /api/v1/links/match and the
// AI tools (which try fuzzy matching when this finds nothing).

/** What each no-match reason means, for the API answers that report it. */
export const noMatchMessages: Record<NoMatchReason, string> = {
  no_program: "no affiliate programme in the catalog covers this merchant",
  no_active_program: "programmes exist for this merchant, but every one of them (or its network) is paused or closed",
  unwrap_loop: "the tracking link points back to itself",
  unwrap_too_deep: "the link wraps too many tracking links to follow",
  tracking_link_without_destination: "this is a tracking link, but its destination could not be read",
  deep_link_unavailable:
    "the merchant has an active programme, but its network gives us no way to build a tracking link " +
    "(no deep-link template, or one that cannot carry this page); we do not invent one"
}

export type LinkMatch =
  | { readonly kind: "invalid"; readonly message: string }
  | {
      readonly kind: "matched"
      readonly selection: Selection
      /** The market whose programme was preferred (the URL's, else the visitor's). */
      readonly market: MatchMarket | undefined
      readonly link: TrackingLink
      /** false when this caller already had a link for this URL (it is returned again) */
      readonly created: boolean
    }
  | {
      readonly kind: "unmatched"
      readonly reason: NoMatchReason
      readonly normalizedUrl: string
      readonly market: MatchMarket | undefined
    }

export interface LinkRequest {
  readonly partner: Partner | undefined
  /** Exactly as submitted (stored as original_url). */
  readonly originalUrl: string
  /** The merchant page the link leads to (unwrapped, tracking parameters stripped). */
  readonly destinationUrl: string
  readonly selection: Selection
  readonly productId?: string | null
  /** The visitor's country when it chose the programme (resolve.ts, linkMarket): the link is that market's. */
  readonly market?: string
}

export class LinkMatching extends Context.Service<
  LinkMatching,
  {
    /**
     * Domain matching (exact host, parents, registrable domain) and the
     * caller's tracking link; `country` is the visitor's market, whose
     * programme a multi-country merchant's URL that names no market gets.
     * A partner's link it had deleted comes back, active (same tracking id).
     */
    match(partner: Partner | undefined, url: string, country?: string): Effect.Effect<LinkMatch, DatabaseError>
    /**
     * The caller's tracking link to `destinationUrl` through an already chosen
     * programme (fuzzy matches, generated copy). undefined when the programme's
     * network template cannot produce a safe affiliate URL for it.
     */
    linkFor(
      request: LinkRequest
    ): Effect.Effect<{ readonly link: TrackingLink; readonly created: boolean } | undefined, DatabaseError>
  }
>()("app/links/LinkMatching") {
  static readonly layer = Layer.effect(
    LinkMatching,
    Effect.gen(function* () {
      const matcher = yield* ProgramMatcher
      const links = yield* TrackingLinks
      const settings = yield* LinkSettings

      const linkFor = (request: LinkRequest) => {
        const build = (id: string) => affiliateUrlFor(request.selection, request.destinationUrl, id)
        const probe = build("probe")
        if (probe === undefined || !isSafeRedirectTarget(probe)) return Effect.succeed(undefined)
        return links.getOrCreate({
          partnerId: request.partner?.id ?? null,
          tag: request.partner?.tag ?? ANONYMOUS_TAG,
          originalUrl: request.originalUrl,
          normalizedUrl: request.destinationUrl,
          destinationUrl: request.destinationUrl,
          programId: request.selection.program.id,
          networkId: request.selection.network.id,
          productId: request.productId ?? null,
          source: "match",
          market: request.market ?? null,
          affiliateUrlFor: (id) => build(id)!
        })
      }

      const match = Effect.fn("LinkMatching.match")(function* (
        partner: Partner | undefined,
        url: string,
        country?: string
      ) {
        const resolution = yield* matcher.resolve(url, country)
        if (resolution.kind === "invalid") return { kind: "invalid", message: resolution.message } satisfies LinkMatch
        const unmatched = (reason: NoMatchReason): LinkMatch => ({
          kind: "unmatched",
          reason,
          normalizedUrl: resolution.normalizedUrl,
          market: resolution.market
        })
        const selection = resolution.selection
        if (selection === undefined) return unmatched(resolution.reason ?? "no_program")
        const made = yield* linkFor({
          partner,
          originalUrl: url,
          destinationUrl: resolution.normalizedUrl,
          selection,
          ...(resolution.linkMarket === undefined ? {} : { market: resolution.linkMarket })
        })
        if (made === undefined) return unmatched("deep_link_unavailable")
        if (!made.created && partner !== undefined) yield* settings.restoreIfDeleted(partner.id, made.link.id)
        // A link asked for again keeps the programme it was made with (a
        // better offer since does not rewrite it): the answer names that one.
        const linked =
          made.created || made.link.programId === null || made.link.programId === selection.program.id
            ? selection
            : (selectionOfProgram((yield* matcher.current).catalog, made.link.programId, selection.domain) ?? selection)
        return { kind: "matched", selection: linked, market: resolution.market, ...made } satisfies LinkMatch
      })

      return LinkMatching.of({ match, linkFor })
    })
  )
}
