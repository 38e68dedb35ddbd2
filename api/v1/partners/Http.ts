import { Effect, Layer } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../Api.ts"
import { unauthorized } from "../../errors.ts"
import { CurrentPartner } from "../auth/Api.ts"
import { orUnavailable } from "../dbUnavailable.ts"
import { PartnerStatsQuery } from "../../../partners/PartnerStatsQuery.ts"
import { PartnerExport } from "../../../partners/PartnerExport.ts"
import { Partners } from "../../../partners/Partners.ts"

const blankToNull = (value: string | null | undefined) =>
  value === undefined || value === null || value.trim() === "" ? null : value.trim()

export const PartnersHandlers = HttpApiBuilder.group(
  Api,
  "partners",
  Effect.fn(function* (handlers) {
    const partners = yield* Partners
    const stats = yield* PartnerStatsQuery
    const exports = yield* PartnerExport
    return handlers
      .handle("register", ({ payload }) =>
        Effect.gen(function* () {
          const { partner, apiKey } = yield* orUnavailable(
            partners.register({
              name: payload.name.trim(),
              email: payload.email,
              appUrl: blankToNull(payload.app_url),
              description: blankToNull(payload.description)
            })
          )
          return {
            partner: { id: partner.id, name: partner.name, tag: partner.tag },
            api_key: apiKey,
            message:
              "Store this API key now: it will not be shown again (we keep only its hash). " +
              "Send it as 'Authorization: Bearer <api_key>'."
          }
        })
      )
      .handle("me", () =>
        Effect.gen(function* () {
          const partner = yield* CurrentPartner
          return yield* orUnavailable(stats.forPartner(partner))
        })
      )
      .handle("export", () =>
        Effect.gen(function* () {
          const partner = yield* CurrentPartner
          return yield* orUnavailable(exports.csv(partner.id))
        })
      )
      .handle("rotateKey", () =>
        Effect.gen(function* () {
          const partner = yield* CurrentPartner
          // PartnerAuth accepted this header's key; the rotation replaces exactly it.
          const request = yield* HttpServerRequest.HttpServerRequest
          const currentKey = (request.headers["authorization"] ?? "").replace(/^Bearer\s+/i, "").trim()
          const apiKey = yield* orUnavailable(partners.rotate(partner.id, currentKey))
          if (apiKey === undefined) return yield* unauthorized("this API key was rotated or revoked meanwhile")
          return {
            partner: { id: partner.id, name: partner.name, tag: partner.tag },
            api_key: apiKey,
            message:
              "Store this API key now: it will not be shown again. The previous key no longer works " +
              "(on every replica within seconds)."
          }
        })
      )
  })
).pipe(Layer.provide(Layer.mergeAll(PartnerStatsQuery.layer, PartnerExport.layer)))
