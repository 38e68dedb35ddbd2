import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BadRequest, ServiceUnavailable } from "../../../errors.ts"
import { PartnerAuth } from "../../auth/PartnerAuth.ts"

export const AiDealsQuery = Schema.Struct({
  category: Schema.optional(Schema.String),
  min_discount: Schema.optional(Schema.String)
})

export const AiDealsResponse = Schema.Struct({
  trending: Schema.Array(Schema.Unknown),
  price_drops: Schema.Array(Schema.Unknown),
  high_commission: Schema.Array(Schema.Unknown)
})

export class AiDealsApi extends HttpApiGroup.make("aiDeals")
  .add(
    HttpApiEndpoint.get("deals", "/deals", {
      query: AiDealsQuery,
      success: AiDealsResponse,
      error: [BadRequest, ServiceUnavailable]
    }).annotate(OpenApi.Description, "Trending deals, price drops and high-commission deals, with the numbers behind each ranking.")
  )
  .middleware(PartnerAuth)
  .prefix("/api/v1/ai")
  .annotateMerge(OpenApi.annotations({ title: "AI tools" }))
{}
