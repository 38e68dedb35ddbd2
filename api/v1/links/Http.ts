import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AppConfig } from "../../../infra/AppConfig.ts"
import { PublicUrl } from "../../../infra/PublicUrl.ts"
import { visitorMarket } from "../../discovery/marketParams.ts"
import { Api } from "../../Api.ts"
import { badRequest } from "../../errors.ts"
import { CurrentPartner, MaybePartner } from "../auth/PartnerAuth.ts"
import { orUnavailable } from "../dbUnavailable.ts"
import { pageOf, pageRequest } from "../ListParams.ts"
import { LinkMatching } from "../../../links/LinkMatching.ts"
import { matchAnswer } from "../../../links/matchAnswer.ts"
import { type LinkChange, type TrackingLink, TrackingLinks } from "../../../links/TrackingLinks.ts"
import { CatalogQueries } from "../../../catalog/CatalogQueries.ts"

export const linkItem = (
  publicUrl: PublicUrl["Service"],
  link: TrackingLink,
  change: LinkChange | undefined,
  programNumber: number | null
) => ({
  tracking_id: link.id,
  tracking_url: publicUrl.to(`/t/${link.id}`),
  affiliate_url: link.affiliateUrl,
  original_url: link.originalUrl,
  destination_url: link.destinationUrl,
  program_id: link.programId,
  program_number: programNumber,
  network_id: link.networkId,
  tag: link.tag,
  source: link.source,
  created_at: link.createdAt.toISOString(),
  status: link.unaffiliatedAt === null ? ("affiliated" as const) : ("unaffiliated" as const),
  unaffiliated_since: link.unaffiliatedAt?.toISOString() ?? null,
  last_change:
    change === undefined
      ? null
      : {
          changed_at: change.changedAt.toISOString(),
          old_program_id: change.oldProgramId,
          new_program_id: change.newProgramId,
          reason: change.reason
        }
})

export const LinksHandlers = HttpApiBuilder.group(
  Api,
  "links",
  Effect.fn(function* (handlers) {
    const matching = yield* LinkMatching
    const links = yield* TrackingLinks
    const publicUrl = yield* PublicUrl
    const { defaultCountry } = yield* AppConfig
    const catalog = yield* CatalogQueries
    return handlers
      .handle("match", ({ payload, request }) =>
        Effect.gen(function* () {
          const { partner } = yield* MaybePartner
          const visitor = visitorMarket(payload.country, request.headers["accept-language"], defaultCountry)
          const result = yield* orUnavailable(matching.match(partner, payload.url, visitor?.market.country))
          if (result.kind === "invalid") return yield* badRequest("url", result.message)
          return matchAnswer(publicUrl, payload.url, result, visitor?.source)
        })
      )
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const partner = yield* CurrentPartner
          const page = pageRequest(query)
          const { changes, rows, total } = yield* orUnavailable(links.list(partner.id, page.limit, page.offset))
          const numbers = yield* orUnavailable(
            catalog.numbersOf(rows.flatMap((link) => (link.programId === null ? [] : [link.programId])))
          )
          return pageOf(
            rows.map((link) =>
              linkItem(
                publicUrl,
                link,
                changes.get(link.id),
                link.programId === null ? null : (numbers.get(link.programId) ?? null)
              )
            ),
            page,
            total
          )
        })
      )
  })
)
