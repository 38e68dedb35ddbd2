import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { MATCH_THRESHOLD } from "../../../../domain/matching/fuzzy/matchThreshold.ts"
import { MAX_URL_LENGTH } from "../../../../domain/matching/submittedUrl.ts"
import { BadRequest, ServiceUnavailable } from "../../../errors.ts"
import { PartnerAuth } from "../../auth/Api.ts"
import { MatchMarket, MatchRequest, NoMatchReasons } from "../../links/Api.ts"

export const MatchLinkRequest = Schema.Struct({
  url: Schema.String.annotate({
    description:
      `Any page URL: a merchant page, a misspelt or foreign shop domain, a marketplace listing, or a tracking link ` +
      `(unwrapped first). Absolute http(s), at most ${MAX_URL_LENGTH} characters.`
  }),
  country: MatchRequest.fields.country
})

export const MatchLinkReasons = [...NoMatchReasons, "below_threshold", "known_site"] as const

const Recognised = Schema.Struct({
  brand: Schema.String.annotate({ description: "The merchant we took the URL to mean" }),
  from: Schema.Literals(["host", "path"]),
  kind: Schema.String.annotate({
    description:
      "host: other_suffix (the brand on another country domain), store_affix (nikestore.de), or the slip: " +
      "doubled_letter, repeated_dropped, transposition, missing_letter, extra_letter, adjacent_key, substitution, distant; " +
      "path: listing_brand (a listing naming the brand)"
  }),
  text: Schema.String.annotate({ description: "What in the URL we read: the host label or the path words" }),
  domain: Schema.NullOr(Schema.String).annotate({
    description: "The programme domain used (null when no programme could be chosen)"
  }),
  country_matched: Schema.Boolean.annotate({
    description: "The programme serves the country of the URL's country-code suffix"
  })
})

export const MatchLinkResponse = Schema.Struct({
  matched: Schema.Boolean,
  program: Schema.NullOr(Schema.String).annotate({ description: "Programme name" }),
  program_id: Schema.NullOr(Schema.String),
  program_number: Schema.NullOr(Schema.Int).annotate({
    description: "The programme's stable integer id, as GET /api/v1/programs lists it"
  }),
  network: Schema.NullOr(Schema.String).annotate({ description: "Network id, e.g. 'awin' (as in /api/v1/networks)" }),
  network_name: Schema.NullOr(Schema.String),
  affiliate_url: Schema.NullOr(Schema.String).annotate({
    description: "The network deep link the tracking URL redirects to"
  }),
  tracking_url: Schema.NullOr(Schema.String).annotate({
    description: "Relative /t/{tracking_id}: the calling partner's link"
  }),
  tracking_id: Schema.NullOr(Schema.String),
  destination_url: Schema.NullOr(Schema.String).annotate({
    description:
      "The merchant page the shopper lands on: for a fuzzy host match the same path on the merchant's real domain, " +
      "for a brand named in a listing path the merchant's home page; never the submitted host"
  }),
  original_url: Schema.String,
  method: Schema.NullOr(Schema.Literals(["domain", "fuzzy"])),
  confidence: Schema.Number.annotate({
    description:
      `0..1. Domain matches are 1; fuzzy matches need at least ${MATCH_THRESHOLD}. ` +
      "When not matched: the best candidate's score, or 0."
  }),
  created: Schema.NullOr(Schema.Boolean).annotate({ description: "false when this partner already had this link" }),
  reason: Schema.NullOr(Schema.Literals(MatchLinkReasons)).annotate({
    description:
      "Why not matched. The /links/match reasons, plus below_threshold (a candidate, not sure enough) and " +
      "known_site (the site is in the catalog only through another host, e.g. google.com vs store.google.com)"
  }),
  message: Schema.NullOr(Schema.String),
  recognised: Schema.NullOr(Recognised).annotate({
    description: "Fuzzy matching: which merchant we recognised and from what"
  }),
  market: MatchMarket,
  candidate_source: Schema.NullOr(Schema.Literals(["search_index", "in_memory"])).annotate({
    description:
      "Fuzzy matching: candidates from the Meilisearch programmes index, or from the in-memory catalog when " +
      "Meilisearch was unavailable"
  })
})

export class AiMatchLinkApi extends HttpApiGroup.make("aiMatchLink")
  .add(
    HttpApiEndpoint.post("matchLink", "/match-link", {
      payload: MatchLinkRequest,
      success: MatchLinkResponse,
      error: [BadRequest, ServiceUnavailable]
    }).annotate(
      OpenApi.Description,
      "Domain matching first (as POST /api/v1/links/match); when no catalog domain covers the URL, the merchant it most likely " +
        "means: a misspelt domain, the brand on another country domain, a store domain, a listing naming the brand. " +
        `Below confidence ${MATCH_THRESHOLD} the answer is matched: false. The tracking link is the calling partner's.`
    )
  )
  .middleware(PartnerAuth)
  .prefix("/api/v1/ai")
  .annotateMerge(OpenApi.annotations({ title: "AI tools" })) {}
