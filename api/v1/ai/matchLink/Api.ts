import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BadRequest, ServiceUnavailable } from "../../../errors.ts"
import { PartnerAuth } from "../../auth/PartnerAuth.ts"

export const MatchLinkRequest = Schema.Struct({ url: Schema.String })

export const MatchLinkResponse = Schema.Struct({
  matched: Schema.Boolean,
  program: Schema.NullOr(Schema.String),
  network: Schema.NullOr(Schema.String),
  affiliate_url: Schema.NullOr(Schema.String),
  tracking_url: Schema.NullOr(Schema.String),
  method: Schema.NullOr(Schema.Literals(["domain", "fuzzy"])),
  confidence: Schema.Number
})

export class AiMatchLinkApi extends HttpApiGroup.make("aiMatchLink")
  .add(
    HttpApiEndpoint.post("matchLink", "/match-link", {
      payload: MatchLinkRequest,
      success: MatchLinkResponse,
      error: [BadRequest, ServiceUnavailable]
    }).annotate(OpenApi.Description, "Domain matching first, then fuzzy matching of the merchant the URL most likely means.")
  )
  .middleware(PartnerAuth)
  .prefix("/api/v1/ai")
  .annotateMerge(OpenApi.annotations({ title: "AI tools" }))
{}
