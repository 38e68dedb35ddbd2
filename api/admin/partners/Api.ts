import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { TAG_PATTERN } from "../../../domain/links/feedTrackingId.ts"
import { BadRequest, NotFound, ServiceUnavailable, Unauthorized } from "../../errors.ts"
import { KEY_CACHE_TTL_MS } from "../../../partners/KeyCache.ts"
import { AdminAuth } from "../Api.ts"

/** A partner's id (digits) or its tag. */
export const PartnerRefParam = Schema.String.check(
  Schema.isPattern(/^(?:[1-9][0-9]{0,9}|[a-z0-9][a-z0-9_-]{0,63})$/, {
    message: `partner must be a partner id (digits) or a tag matching ${TAG_PATTERN.source}`
  })
)

export const RevokeRequest = Schema.Struct({
  reissue: Schema.optional(Schema.Boolean).annotate({
    description: "true: a new key replaces the revoked one and is returned once, for the operator to hand over"
  })
})

export const RevokedKey = Schema.Struct({
  partner: Schema.Struct({ id: Schema.Number, name: Schema.String, tag: Schema.String }),
  revoked: Schema.Literal(true),
  api_key: Schema.NullOr(Schema.String).annotate({
    description: "The new key when reissue was asked (shown once), else null: the partner has no working key"
  })
})

export class AdminPartnersApi extends HttpApiGroup.make("adminPartners")
  .add(
    HttpApiEndpoint.post("revokeKey", "/partners/:partner/keys/revoke", {
      params: { partner: PartnerRefParam },
      payload: RevokeRequest,
      success: RevokedKey,
      error: [BadRequest, Unauthorized, NotFound, ServiceUnavailable]
    }).annotate(
      OpenApi.Description,
      "Revokes a partner's API key (partner by id or tag): it stops working at once here and within " +
        `${KEY_CACHE_TTL_MS / 1000} seconds on ` +
        "every replica. The partner's tag, links and statistics stay; with reissue the answer carries a new key."
    )
  )
  .middleware(AdminAuth)
  .prefix("/admin")
  .annotateMerge(
    OpenApi.annotations({ title: "Admin: partners", description: "Partner API keys (Bearer ADMIN_TOKEN)" })
  ) {}
