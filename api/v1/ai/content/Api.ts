import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { COPY_TYPES, TONES } from "../../../../domain/copy/facts.ts"
import { LIMITS } from "../../../../domain/copy/limits.ts"
import { BadRequest, Conflict, NotFound, ServiceUnavailable } from "../../../errors.ts"
import { PartnerAuth } from "../../auth/Api.ts"
import { FALLBACK_REASONS } from "../../../../ai/content/fallbackReasons.ts"

// type and tone are plain strings in the schema so an unknown value gets our
// own 400 naming the field and listing the allowed values (see Http.ts).
export const GenerateContentRequest = Schema.Struct({
  program_id: Schema.Union([Schema.String, Schema.Int]).annotate({
    description:
      "The programme as listed by GET /api/v1/programs: its id, e.g. 'awin:1001', or its integer number, e.g. 17"
  }),
  type: Schema.String.annotate({
    description:
      `One of ${COPY_TYPES.join(", ")}. social: one post of at most ${LIMITS.social.totalMax} characters including link, ` +
      `disclosure and hashtags; email: subject, preheader and body; blog: a titled section of at least ${LIMITS.blog.minParagraphs} ` +
      "paragraphs; deal_alert: the programme's best verified price drop (409 no_deal when it has none)."
  }),
  tone: Schema.String.annotate({ description: `One of ${TONES.join(", ")}` })
})

const ProductUsed = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  brand: Schema.NullOr(Schema.String),
  price: Schema.Number.annotate({ description: "Current price" }),
  currency: Schema.String,
  reference_price: Schema.NullOr(Schema.Number).annotate({
    description:
      "Our own reference: the lowest price observed in the 30 days before the current price, shown only when the current price is below it " +
      "(the discovery feed's originalPrice). The store's own 'was' price is never used."
  }),
  discount_percent: Schema.NullOr(Schema.Number).annotate({
    description: "Percent below reference_price, rounded down"
  }),
  availability: Schema.String
})

export const GenerateContentResponse = Schema.Struct({
  type: Schema.Literals(COPY_TYPES),
  tone: Schema.Literals(TONES),
  body: Schema.String.annotate({
    description:
      "The finished copy, ready to publish: text, then the disclosure immediately before the call to action and the tracking link " +
      "(social: on one line, followed by hashtags). Plain text; blog and email paragraphs are separated by blank lines."
  }),
  title: Schema.NullOr(Schema.String).annotate({ description: "The blog section's title; null for other types" }),
  subject: Schema.NullOr(Schema.String).annotate({
    description: `Email subject (at most ${LIMITS.email.subjectMax} characters); null for other types`
  }),
  preheader: Schema.NullOr(Schema.String).annotate({
    description: `Email preheader (at most ${LIMITS.email.preheaderMax} characters); null for other types`
  }),
  call_to_action: Schema.String.annotate({ description: "The phrase placed before the link in body, e.g. 'Shop now'" }),
  hashtags: Schema.Array(Schema.String).annotate({
    description: "Hashtags appended to a social post (from the store, category and deal); empty for other types"
  }),
  tracking_url: Schema.String.annotate({
    description: "Absolute {base}/t/{tracking_id}: the partner's tracking link, also listed by GET /api/v1/links"
  }),
  tracking_id: Schema.String,
  destination_url: Schema.String.annotate({
    description: "Where the link leads: the store's home page, or the featured product for deal_alert"
  }),
  disclosure: Schema.String.annotate({
    description:
      "The disclosure text as placed in body next to the link (FTC Endorsement Guides). Social posts use a short '#ad' form; " +
      "Amazon programmes add Amazon's required sentence."
  }),
  program: Schema.Struct({
    id: Schema.String,
    number: Schema.NullOr(Schema.Int).annotate({
      description: "The programme's stable integer id, as GET /api/v1/programs lists it (null: not numbered yet)"
    }),
    name: Schema.String,
    network: Schema.String.annotate({ description: "Network id" })
  }),
  facts: Schema.Struct({
    store: Schema.String,
    domain: Schema.String,
    category: Schema.NullOr(Schema.String),
    products: Schema.Array(ProductUsed).annotate({
      description:
        "The programme's best current products (in stock first, deepest verified saving first): the only prices and savings the copy may quote. " +
        "Empty when the catalog has none, and the copy is then about the store without numbers."
    })
  }),
  generator: Schema.Literals(["template", "llm"]).annotate({
    description:
      "template: composed from phrase banks (the default, needs nothing external); llm: written by the configured LLM and fact-checked"
  }),
  fallback: Schema.NullOr(
    Schema.Struct({
      reason: Schema.Literals(FALLBACK_REASONS),
      message: Schema.String
    })
  ).annotate({
    description:
      "Set when an LLM is configured but its copy was not used and the template wrote it instead: timeout, unreachable, http_error, " +
      "malformed_response, invalid_output (empty, too long, wrong shape), invented_numbers (a number not in facts), unsupported_claim (codes, shipping, ...). " +
      "null otherwise (no LLM configured is not a fallback)."
  })
})

export class AiContentApi extends HttpApiGroup.make("aiContent")
  .add(
    HttpApiEndpoint.post("generateContent", "/generate-content", {
      payload: GenerateContentRequest,
      success: GenerateContentResponse,
      error: [BadRequest, NotFound, Conflict, ServiceUnavailable]
    }).annotate(
      OpenApi.Description,
      "Promotional copy for a programme with the partner's tracking link, a call to action and the disclosure next to the link. " +
        "Prices and savings come only from our catalog and price history; no coupon codes or other claims are invented. " +
        "404 program_not_found; 409 when no link can be made (program_inactive, network_unavailable, no_store_domain, deep_link_unavailable) " +
        "or, for deal_alert, when the programme has no verified price drop (no_deal)."
    )
  )
  .middleware(PartnerAuth)
  .prefix("/api/v1/ai")
  .annotateMerge(OpenApi.annotations({ title: "AI tools" })) {}
