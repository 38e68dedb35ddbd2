import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AppConfig } from "../../../infra/AppConfig.ts"
import { PublicUrl } from "../../../infra/PublicUrl.ts"
import { visitorMarket } from "../../discovery/marketParams.ts"
import { Api } from "../../Api.ts"
import { badRequest, notFound } from "../../errors.ts"
import { CurrentPartner, MaybePartner } from "../auth/Api.ts"
import { orUnavailable } from "../dbUnavailable.ts"
import { pageOf, pageRequest } from "../ListParams.ts"
import { LinkMatching } from "../../../links/LinkMatching.ts"
import { type LinkSetting, LinkSettings } from "../../../links/LinkSettings.ts"
import { matchAnswer } from "../../../links/matchAnswer.ts"
import { type LinkChange, type TrackingLink, TrackingLinks } from "../../../links/TrackingLinks.ts"
import { CatalogQueries } from "../../../catalog/CatalogQueries.ts"
import { withoutControlCharacters } from "../../../domain/text/controlCharacters.ts"

export const linkItem = (
  publicUrl: PublicUrl["Service"],
  link: TrackingLink,
  change: LinkChange | undefined,
  programNumber: number | null,
  setting?: LinkSetting
) => ({
  tracking_id: link.id,
  name: setting?.name ?? null,
  state: setting?.state === "disabled" ? ("disabled" as const) : ("active" as const),
  tracking_url: publicUrl.to(`/t/${link.id}`),
  affiliate_url: link.affiliateUrl,
  original_url: link.originalUrl,
  destination_url: link.destinationUrl,
  program_id: link.programId,
  program_number: programNumber,
  network_id: link.networkId,
  tag: link.tag,
  source: link.source,
  market: link.market,
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

/** A link name as stored: trimmed, without control characters; blank means none. */
export const linkName = (name: string | null | undefined) => {
  if (name === undefined) return undefined
  const cleaned = name === null ? "" : withoutControlCharacters(name).trim()
  return cleaned === "" ? null : cleaned
}

const noSuchLink = notFound("link", "you have no link with this tracking id")

export const LinksHandlers = HttpApiBuilder.group(
  Api,
  "links",
  Effect.fn(function* (handlers) {
    const matching = yield* LinkMatching
    const links = yield* TrackingLinks
    const settings = yield* LinkSettings
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
          const named = yield* orUnavailable(settings.settingsOf(rows.map((row) => row.id)))
          return pageOf(
            rows.map((link) =>
              linkItem(
                publicUrl,
                link,
                changes.get(link.id),
                link.programId === null ? null : (numbers.get(link.programId) ?? null),
                named.get(link.id)
              )
            ),
            page,
            total
          )
        })
      )
      .handle("edit", ({ params, payload }) =>
        Effect.gen(function* () {
          const partner = yield* CurrentPartner
          const setting = yield* orUnavailable(
            settings.edit(partner.id, params.tracking_id, { name: linkName(payload.name), disabled: payload.disabled })
          )
          if (setting === undefined) return yield* noSuchLink
          const link = yield* orUnavailable(links.findById(params.tracking_id))
          if (link === undefined) return yield* noSuchLink
          const numbers = yield* orUnavailable(catalog.numbersOf(link.programId === null ? [] : [link.programId]))
          const number = link.programId === null ? null : (numbers.get(link.programId) ?? null)
          return linkItem(publicUrl, link, undefined, number, setting)
        })
      )
      .handle("remove", ({ params }) =>
        Effect.gen(function* () {
          const partner = yield* CurrentPartner
          const removed = yield* orUnavailable(settings.remove(partner.id, params.tracking_id))
          if (!removed) return yield* noSuchLink
          return { tracking_id: params.tracking_id, deleted: true as const }
        })
      )
  })
)
