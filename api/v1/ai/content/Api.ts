import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BadRequest, NotFound, ServiceUnavailable } from "../../../errors.ts"
import { PartnerAuth } from "../../auth/PartnerAuth.ts"

export const GenerateContentRequest = Schema.Struct({
  program_id: Schema.String,
  type: Schema.String,
  tone: Schema.String
})

export const GenerateContentResponse = Schema.Struct({
  content: Schema.String
})

export class AiContentApi extends HttpApiGroup.make("aiContent")
  .add(
    HttpApiEndpoint.post("generateContent", "/generate-content", {
      payload: GenerateContentRequest,
      success: GenerateContentResponse,
      error: [BadRequest, NotFound, ServiceUnavailable]
    }).annotate(OpenApi.Description, "Promotional copy for a programme with the partner's tracking link and the disclosure.")
  )
  .middleware(PartnerAuth)
  .prefix("/api/v1/ai")
  .annotateMerge(OpenApi.annotations({ title: "AI tools" }))
{}
