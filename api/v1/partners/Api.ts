import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, ServiceUnavailable, Unauthorized } from "../../errors.ts"
import { PartnerAuth, RegistrationRateLimit } from "../auth/Api.ts"
import { KEY_CACHE_TTL_MS } from "../../../partners/KeyCache.ts"
import { PartnerStats } from "../../../partners/StatsSchema.ts"
import { EXPORT_HEADER } from "../../../partners/exportColumns.ts"

const text = (field: string, max: number) =>
  Schema.String.check(
    Schema.isMaxLength(max, { message: `${field} must be at most ${max} characters` }),
    Schema.isPattern(/\S/, { message: `${field} must not be blank` })
  )

// Deliberately simple: one @, no spaces, a dot in the domain. Deliverability is
// not our business; catching typos and junk is.
const EMAIL =
  /^[^\s@"<>()[\],;:\\]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+$/

export const RegisterRequest = Schema.Struct({
  name: text("name", 100).annotate({ description: "Display name; the partner tag is derived from it." }),
  email: Schema.String.check(
    Schema.isMaxLength(254, { message: "email must be at most 254 characters" }),
    Schema.isPattern(EMAIL, { message: "email must be a valid address like name@example.com" })
  ),
  app_url: Schema.optional(
    Schema.NullOr(
      Schema.String.check(
        Schema.isMaxLength(2048, { message: "app_url must be at most 2048 characters" }),
        Schema.isPattern(/^https?:\/\/[^\s/?#]+[^\s]*$/i, { message: "app_url must be an absolute http(s) URL" })
      )
    )
  ),
  description: Schema.optional(
    Schema.NullOr(
      Schema.String.check(Schema.isMaxLength(1000, { message: "description must be at most 1000 characters" }))
    )
  )
})

export const RegisterResponse = Schema.Struct({
  partner: Schema.Struct({ id: Schema.Number, name: Schema.String, tag: Schema.String }),
  api_key: Schema.String.annotate({ description: "Shown once; only its hash is stored." }),
  message: Schema.String
})

export const RotatedKey = Schema.Struct({
  partner: Schema.Struct({ id: Schema.Number, name: Schema.String, tag: Schema.String }),
  api_key: Schema.String.annotate({ description: "The new key, shown once; only its hash is stored." }),
  message: Schema.String
})

export class PartnersApi extends HttpApiGroup.make("partners")
  .add(
    HttpApiEndpoint.post("register", "/register", {
      payload: RegisterRequest,
      success: RegisterResponse,
      // the store may fail under the insert: a 503 the client may retry (undeclared, it was a 500)
      error: [BadRequest, ServiceUnavailable]
    })
      .middleware(RegistrationRateLimit)
      .annotate(
        OpenApi.Description,
        "Registers a partner and returns its API key once (store it: it is not shown again). Limited per IP."
      ),
    HttpApiEndpoint.get("me", "/me", { success: PartnerStats })
      .middleware(PartnerAuth)
      .annotate(
        OpenApi.Description,
        "The partner and its statistics: human clicks (total, unique), bot clicks, conversions by status, partner revenue " +
          "(pending, approved), EPC (partner earnings per 100 human clicks) and conversion rate; overall, per link and per day (last 30 days); " +
          "and late_revenue: conversions recorded before their link was known here and attributed to you later (attributed_at > first_seen_at)."
      ),
    HttpApiEndpoint.get("export", "/me/export", {
      query: {
        format: Schema.optional(Schema.Literal("csv")).annotate({ description: "csv (the default and only format)" })
      },
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv; charset=utf-8" })),
      error: [BadRequest, Unauthorized, ServiceUnavailable]
    })
      .middleware(PartnerAuth)
      .annotate(
        OpenApi.Description,
        `Your whole history as CSV (RFC 4180: CRLF line ends, quoted fields; a text cell starting with =, +, -, @, tab ` +
          `or CR is prefixed with an apostrophe so a spreadsheet does not run it as a formula). Columns: ${EXPORT_HEADER.join(", ")}. ` +
          "record=clicks rows: one per UTC day and link (human clicks, unique clicks, bot clicks). record=conversion rows: " +
          "one per conversion (kind sale, or correction: a network's negative correction row, which nets its money but is not " +
          "a conversion), with status, event time and your share in the reporting currency. The sums match partners/me: " +
          "clicks over clicks rows; conversions = sale rows; revenue = partner_share of pending and approved rows. " +
          "Deleted links' rows are included."
      ),
    HttpApiEndpoint.post("rotateKey", "/me/keys/rotate", {
      success: RotatedKey,
      error: [Unauthorized, ServiceUnavailable]
    })
      .middleware(PartnerAuth)
      .annotate(
        OpenApi.Description,
        "Replaces the API key sent in Authorization by a new one, returned once. The old key stops working at once on " +
          `the replica that answered and within ${KEY_CACHE_TTL_MS / 1000} seconds on every other (each trusts an authenticated key that long). ` +
          "Your tag, links and statistics stay. 401 when the key was already rotated or revoked (e.g. two rotations at once: " +
          "one wins). A leaked key the partner cannot use any more is revoked by the operator (npm run partners:revoke)."
      )
  )
  .prefix("/api/v1/partners")
  .annotateMerge(OpenApi.annotations({ title: "Partners", description: "Registration, API keys and statistics" })) {}
