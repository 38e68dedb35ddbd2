import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BadRequest, ServiceUnavailable } from "../../errors.ts"
import { IpRateLimit } from "../auth/Api.ts"
import { ListQuery, Page } from "../ListParams.ts"

const searchTerm = Schema.String.check(
  Schema.isMaxLength(100, { message: "q must be at most 100 characters" })
).annotate({ description: "Case-insensitive substring of the name (or id)" })

const NetworkStatus = Schema.Literals(["active", "paused", "closed"])
const ProgramStatus = Schema.Literals(["active", "paused", "closed", "pending"])

export const NetworkItem = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  status: Schema.String,
  website: Schema.NullOr(Schema.String),
  click_hosts: Schema.Array(Schema.String),
  subid_param: Schema.NullOr(Schema.String),
  confidence: Schema.String.annotate({ description: "H documented, M consistent real-world links, U unverified" }),
  successor_id: Schema.NullOr(Schema.String),
  regions: Schema.Array(Schema.String),
  programs: Schema.Number.annotate({ description: "Programmes in the catalog on this network" })
})

export const ProgramItem = Schema.Struct({
  id: Schema.String.annotate({ description: "Programme id, '{network_id}:{merchant_id}', e.g. 'awin:1001'" }),
  number: Schema.Int.annotate({
    description:
      "The programme's stable integer id (kept across catalog updates and restarts): accepted wherever a programme id is, " +
      "e.g. program_id of POST /api/v1/ai/generate-content"
  }),
  network_id: Schema.String,
  merchant_id: Schema.String,
  name: Schema.String,
  domains: Schema.Array(Schema.String),
  country: Schema.NullOr(Schema.String),
  category: Schema.NullOr(Schema.String),
  commission_type: Schema.String,
  commission_rate: Schema.String.annotate({
    description: "Exact decimal: percent for CPS, amount per action otherwise"
  }),
  commission_currency: Schema.NullOr(Schema.String),
  cookie_days: Schema.NullOr(Schema.Number),
  status: Schema.String,
  deep_link_allowed: Schema.Boolean,
  epc: Schema.NullOr(Schema.String)
})

export class CatalogApi extends HttpApiGroup.make("catalog")
  .add(
    HttpApiEndpoint.get("networks", "/networks", {
      query: { ...ListQuery, status: Schema.optional(NetworkStatus), q: Schema.optional(searchTerm) },
      success: Page(NetworkItem),
      error: [BadRequest, ServiceUnavailable]
    }).annotate(OpenApi.Description, "Affiliate networks, by name. Filters: status, q."),
    HttpApiEndpoint.get("programs", "/programs", {
      query: {
        ...ListQuery,
        network: Schema.optional(Schema.String.check(Schema.isMaxLength(64))).annotate({ description: "Network id" }),
        domain: Schema.optional(Schema.String.check(Schema.isMaxLength(253))).annotate({
          description:
            "A host; matches the programmes the link matcher would consider (host, parents, registrable domain)"
        }),
        q: Schema.optional(searchTerm),
        status: Schema.optional(ProgramStatus),
        country: Schema.optional(
          Schema.String.check(
            Schema.isPattern(/^[A-Za-z]{2}$/, { message: "country must be an ISO 3166-1 alpha-2 code" })
          )
        )
      },
      success: Page(ProgramItem),
      error: [BadRequest, ServiceUnavailable]
    }).annotate(
      OpenApi.Description,
      "Programmes (merchants on a network), by name. Filters: network, domain, q, status, country."
    )
  )
  .middleware(IpRateLimit)
  .prefix("/api/v1")
  .annotateMerge(OpenApi.annotations({ title: "Catalog", description: "Networks and programmes" })) {}
