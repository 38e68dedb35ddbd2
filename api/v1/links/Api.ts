import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { MAX_URL_LENGTH } from "../../../domain/matching/submittedUrl.ts"
import { CREDENTIAL_MARKERS } from "../../../domain/links/credentialParams.ts"

const CREDENTIALS_DROPPED =
  `query (and fragment) parameters whose name contains ${CREDENTIAL_MARKERS.join(", ")} (any case, e.g. reset_token, ` +
  "api_key, sessionid) or whose value is an e-mail address are dropped, and so is a user:password@ part"
import { BadRequest, NotFound, ServiceUnavailable, Unauthorized } from "../../errors.ts"
import { MAX_LINK_NAME_LENGTH } from "../../../domain/links/linkName.ts"
import { OptionalPartnerAuth, PartnerAuth } from "../auth/Api.ts"
import { ListQuery, Page } from "../ListParams.ts"
import { CountryParam } from "../../discovery/marketParams.ts"

export const MatchRequest = Schema.Struct({
  url: Schema.String.annotate({
    description: `Any merchant page, or an existing affiliate/tracking link (it is unwrapped). Absolute http(s), at most ${MAX_URL_LENGTH} characters.`
  }),
  country: Schema.optional(CountryParam).annotate({
    description:
      "The visitor's country (ISO 3166-1 alpha-2). A merchant with programmes in several countries is matched to " +
      "this country's programme when the URL names no country itself (nike.com/t/..., not nike.com/gb/... or " +
      "amazon.co.uk). Default: the region of the request's Accept-Language, else the operator's DEFAULT_COUNTRY."
  })
})

export const MatchMarket = Schema.NullOr(
  Schema.Struct({
    country: Schema.String,
    source: Schema.Literals(["url", "parameter", "accept-language", "default"]).annotate({
      description:
        "url: the URL names the country (a country domain or path); otherwise where the visitor's country came " +
        "from (the country field, Accept-Language, DEFAULT_COUNTRY)"
    })
  })
).annotate({ description: "The market whose programme was preferred, or null when neither URL nor visitor named one." })

const MatchedProgram = Schema.Struct({
  id: Schema.String,
  number: Schema.NullOr(Schema.Int).annotate({
    description: "The programme's stable integer id, as GET /api/v1/programs lists it (null: not numbered yet)"
  }),
  name: Schema.String,
  network: Schema.String.annotate({ description: "Network id, e.g. 'awin'" }),
  domain: Schema.String.annotate({
    description: "The catalog domain that matched (host, parent or registrable domain)"
  }),
  commission_type: Schema.String,
  country: Schema.NullOr(Schema.String).annotate({ description: "The programme's country (ISO 3166-1 alpha-2)" })
})

const MatchedLink = Schema.Struct({
  tracking_id: Schema.String,
  tracking_url: Schema.String.annotate({ description: "Absolute {base}/t/{tracking_id}: the link to publish" }),
  affiliate_url: Schema.String.annotate({
    description: "The network deep link /t/ redirects to; carries tracking_id as the sub-id"
  }),
  original_url: Schema.String.annotate({
    description: `The submitted URL, echoed. It is stored without credentials: ${CREDENTIALS_DROPPED}`
  }),
  destination_url: Schema.String.annotate({
    description: "The merchant page after unwrapping and removing tracking parameters"
  }),
  deep_link: Schema.Boolean.annotate({
    description:
      "false when the programme forbids deep links: the link then lands on the merchant's home page (lands_on), not on destination_url"
  }),
  lands_on: Schema.String.annotate({
    description: "The merchant page the shopper arrives at: destination_url, or the home page when deep_link is false"
  })
})

export const NoMatchReasons = [
  "no_program",
  "no_active_program",
  "unwrap_loop",
  "unwrap_too_deep",
  "tracking_link_without_destination",
  "deep_link_unavailable"
] as const

export const MatchResponse = Schema.Union([
  Schema.Struct({
    matched: Schema.Literal(true),
    program: MatchedProgram,
    market: MatchMarket,
    link: MatchedLink,
    created: Schema.Boolean.annotate({
      description: "false when this partner already had a link for this URL (it is returned again)"
    })
  }),
  Schema.Struct({
    matched: Schema.Literal(false),
    reason: Schema.Literals(NoMatchReasons).annotate({
      description:
        "no_program: no programme covers the merchant; no_active_program: only paused/closed programmes or networks; " +
        "unwrap_loop / unwrap_too_deep / tracking_link_without_destination: a tracking link whose destination could not be followed; " +
        "deep_link_unavailable: an active programme exists, but its network has no link template we can fill (no tracking link is invented)"
    }),
    message: Schema.String,
    original_url: Schema.String,
    destination_url: Schema.String.annotate({
      description: "The URL we tried to match (after unwrapping and stripping)"
    }),
    market: MatchMarket,
    program: Schema.Null,
    link: Schema.Null
  })
])

const LinkName = Schema.String.check(
  Schema.isMaxLength(MAX_LINK_NAME_LENGTH, { message: `name must be at most ${MAX_LINK_NAME_LENGTH} characters` })
)

export const LinkState = Schema.Literals(["active", "disabled"]).annotate({
  description:
    "disabled: /t/ answers 410 Gone (a page naming the merchant's page, untracked) and counts no click, until enabled again. " +
    "Deleted links are not listed; their clicks and conversions stay in the statistics."
})

export const LinkItem = Schema.Struct({
  tracking_id: Schema.String,
  name: Schema.NullOr(Schema.String).annotate({ description: "The partner's own name for the link, or null" }),
  state: LinkState,
  tracking_url: Schema.String,
  affiliate_url: Schema.String.annotate({
    description: "Where /t/ redirects: the network deep link, or the plain destination while unaffiliated"
  }),
  original_url: Schema.String.annotate({
    description: `The URL submitted when the link was made, as stored: ${CREDENTIALS_DROPPED}`
  }),
  destination_url: Schema.String,
  program_number: Schema.NullOr(Schema.Int).annotate({
    description: "program_id's stable integer id, as GET /api/v1/programs lists it (null while unaffiliated)"
  }),
  program_id: Schema.NullOr(Schema.String).annotate({
    description: "The programme the link earns through now (null while unaffiliated)"
  }),
  network_id: Schema.NullOr(Schema.String),
  tag: Schema.String,
  source: Schema.String.annotate({
    description: "match (POST /links/match) or feed (first click on a discovery-feed link)"
  }),
  market: Schema.NullOr(Schema.String).annotate({
    description:
      "The shoppers' country (ISO 3166-1 alpha-2) this link was made for: set when the visitor's market chose the " +
      "programme of a merchant with programmes in several countries (so a partner can hold one link per market to the " +
      "same URL); null: the link serves every market"
  }),
  created_at: Schema.String,
  status: Schema.Literals(["affiliated", "unaffiliated"]).annotate({
    description:
      "unaffiliated: the link's programme closed, paused or left its network and no other active programme covers " +
      "the destination; /t/ sends shoppers to the plain destination (no commission) until one appears, then the link is re-affiliated. " +
      "The tracking id never changes."
  }),
  unaffiliated_since: Schema.NullOr(Schema.String),
  last_change: Schema.NullOr(
    Schema.Struct({
      changed_at: Schema.String,
      old_program_id: Schema.NullOr(Schema.String),
      new_program_id: Schema.NullOr(Schema.String),
      reason: Schema.String.annotate({
        description:
          "Why the old programme could not take traffic: program_closed, program_paused, program_missing, network_closed, " +
          "network_paused, network_without_deep_links; program_available when an unaffiliated link found a programme again"
      })
    })
  ).annotate({
    description:
      "The latest re-resolution of the link after a networks/programmes feed run (the programme chosen by the matching rule), or null"
  })
})

const TrackingIdParam = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9_-]{1,64}$/, { message: "tracking_id must be 1..64 letters, digits, - or _" })
)

export const LinkEditRequest = Schema.Struct({
  name: Schema.optional(Schema.NullOr(LinkName)).annotate({
    description: `A name for the link (at most ${MAX_LINK_NAME_LENGTH} characters; blank or null removes it)`
  }),
  disabled: Schema.optional(Schema.Boolean).annotate({
    description: "true: /t/ answers 410 Gone and counts no click; false: the link redirects again"
  })
})

export class LinksApi extends HttpApiGroup.make("links")
  .add(
    HttpApiEndpoint.post("match", "/match", {
      payload: MatchRequest,
      success: MatchResponse,
      error: [BadRequest, ServiceUnavailable]
    })
      .middleware(OptionalPartnerAuth)
      .annotate(
        OpenApi.Description,
        "Matches a URL to the best active programme and returns a tracking link (the same one again for the same caller and normalised URL). " +
          "With an API key the link is the partner's; without one it is anonymous: the answer is the only place its " +
          "tracking id is shown (anonymous links are never listed). No match is a 200 with matched: false and a reason."
      ),
    HttpApiEndpoint.get("list", "/", {
      query: ListQuery,
      success: Page(LinkItem),
      error: [BadRequest, Unauthorized, ServiceUnavailable]
    })
      .middleware(PartnerAuth)
      .annotate(
        OpenApi.Description,
        "The calling partner's tracking links, newest first. An API key is required (401 without): links made " +
          "anonymously are not listed to anyone, since nothing ties them to a caller; keep the tracking_url from the match answer."
      ),
    HttpApiEndpoint.patch("edit", "/:tracking_id", {
      params: { tracking_id: TrackingIdParam },
      payload: LinkEditRequest,
      success: LinkItem,
      error: [BadRequest, Unauthorized, NotFound, ServiceUnavailable]
    })
      .middleware(PartnerAuth)
      .annotate(
        OpenApi.Description,
        "Names, disables or enables one of your links; fields left out keep their value. 404 when you have no such " +
          "link (another partner's, anonymous, or deleted)."
      ),
    HttpApiEndpoint.delete("remove", "/:tracking_id", {
      params: { tracking_id: TrackingIdParam },
      success: Schema.Struct({ tracking_id: Schema.String, deleted: Schema.Literal(true) }),
      error: [BadRequest, Unauthorized, NotFound, ServiceUnavailable]
    })
      .middleware(PartnerAuth)
      .annotate(
        OpenApi.Description,
        "Deletes one of your links: it is no longer listed and /t/ answers 410 Gone (no click counted). Its clicks and " +
          "conversions stay in your statistics (partners/me, export). Matching the same URL again brings the same link back, " +
          "active (same tracking id). 404 when you have no such link."
      )
  )
  .prefix("/api/v1/links")
  .annotateMerge(OpenApi.annotations({ title: "Links", description: "Matching URLs to programmes; tracking links" })) {}
