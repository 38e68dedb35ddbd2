import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { partnerRefOf, Partners } from "../../../partners/Partners.ts"
import { Api } from "../../Api.ts"
import { notFound } from "../../errors.ts"
import { storageUnavailable } from "../../v1/dbUnavailable.ts"
import { AdminAuthLayer } from "../Auth.ts"

const orUnavailable = storageUnavailable("admin partners", "the partner store")

export const AdminPartnersHandlers = HttpApiBuilder.group(
  Api,
  "adminPartners",
  Effect.fn(function* (handlers) {
    const partners = yield* Partners
    return handlers.handle("revokeKey", ({ params, payload }) =>
      Effect.gen(function* () {
        const ref = partnerRefOf(params.partner)
        const result = yield* orUnavailable(partners.revoke(ref, { reissue: payload.reissue === true }))
        if (result === undefined) return yield* notFound("partner", `no partner ${params.partner} (by id or tag)`)
        const { partner, apiKey } = result
        return {
          partner: { id: partner.id, name: partner.name, tag: partner.tag },
          revoked: true as const,
          api_key: apiKey
        }
      })
    )
  })
).pipe(Layer.provide(AdminAuthLayer))
