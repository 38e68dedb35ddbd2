import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { affiliateUrlFor, type NoMatchReason } from "../../../domain/matching/resolve.ts"
import { isSafeRedirectTarget } from "../../../domain/matching/submittedUrl.ts"
import { PublicUrl } from "../../../infra/PublicUrl.ts"
import { Api } from "../../Api.ts"
import { badRequest } from "../../errors.ts"
import { MaybePartner } from "../auth/PartnerAuth.ts"
import { orUnavailable } from "../dbUnavailable.ts"
import { pageOf, pageRequest } from "../ListParams.ts"
import { ProgramMatcher } from "./ProgramMatcher.ts"
import { ANONYMOUS_TAG, type TrackingLink, TrackingLinks } from "./TrackingLinks.ts"

const reasonMessages: Record<NoMatchReason, string> = {
  no_program: "no affiliate programme in the catalog covers this merchant",
  no_active_program: "programmes exist for this merchant, but none is active on an open network with a usable deep-link template",
  unwrap_loop: "the tracking link points back to itself",
  unwrap_too_deep: "the link wraps too many tracking links to follow",
  tracking_link_without_destination: "this is a tracking link, but its destination could not be read",
  deep_link_unavailable: "the best programme's network has no usable deep-link template"
}

export const linkItem = (publicUrl: PublicUrl["Service"], link: TrackingLink) => ({
  tracking_id: link.id,
  tracking_url: publicUrl.to(`/t/${link.id}`),
  affiliate_url: link.affiliateUrl,
  original_url: link.originalUrl,
  destination_url: link.destinationUrl,
  program_id: link.programId,
  network_id: link.networkId,
  tag: link.tag,
  source: link.source,
  created_at: link.createdAt.toISOString()
})

export const LinksHandlers = HttpApiBuilder.group(
  Api,
  "links",
  Effect.fn(function*(handlers) {
    const matcher = yield* ProgramMatcher
    const links = yield* TrackingLinks
    const publicUrl = yield* PublicUrl
    return handlers
      .handle("match", ({ payload }) =>
        Effect.gen(function*() {
          const { partner } = yield* MaybePartner
          const resolution = yield* matcher.resolve(payload.url)
          if (resolution.kind === "invalid") return yield* badRequest("url", resolution.message)
          const noMatch = (reason: NoMatchReason) => ({
            matched: false as const,
            reason,
            message: reasonMessages[reason],
            original_url: payload.url,
            destination_url: resolution.normalizedUrl,
            program: null,
            link: null
          })
          const selection = resolution.selection
          if (selection === undefined) return noMatch(resolution.reason ?? "no_program")
          const build = (id: string) => affiliateUrlFor(selection, resolution.normalizedUrl, id)
          const probe = build("probe")
          if (probe === undefined || !isSafeRedirectTarget(probe)) return noMatch("deep_link_unavailable")
          const { link, created } = yield* orUnavailable(links.getOrCreate({
            partnerId: partner?.id ?? null,
            tag: partner?.tag ?? ANONYMOUS_TAG,
            originalUrl: payload.url,
            normalizedUrl: resolution.normalizedUrl,
            destinationUrl: resolution.normalizedUrl,
            programId: selection.program.id,
            networkId: selection.network.id,
            productId: null,
            source: "match",
            affiliateUrlFor: (id) => build(id)!
          }))
          return {
            matched: true as const,
            program: {
              id: selection.program.id,
              name: selection.program.name,
              network: selection.network.id,
              domain: selection.domain,
              commission_type: selection.program.commissionType
            },
            link: {
              tracking_id: link.id,
              tracking_url: publicUrl.to(`/t/${link.id}`),
              affiliate_url: link.affiliateUrl,
              original_url: payload.url,
              destination_url: link.destinationUrl
            },
            created
          }
        }))
      .handle("list", ({ query }) =>
        Effect.gen(function*() {
          const { partner } = yield* MaybePartner
          const page = pageRequest(query)
          const { rows, total } = yield* orUnavailable(links.list(partner?.id ?? null, page.limit, page.offset))
          return pageOf(rows.map((link) => linkItem(publicUrl, link)), page, total)
        }))
  })
)
