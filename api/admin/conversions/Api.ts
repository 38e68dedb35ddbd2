import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { STATUSES, UNATTRIBUTED_REASONS } from "../../../conversions/ConversionRecord.ts"
import { BadRequest, ServiceUnavailable, Unauthorized } from "../../errors.ts"
import { ListQuery, Page } from "../../v1/ListParams.ts"
import { AdminAuth } from "../Api.ts"
import { Reconciliation, ReconciliationQuery } from "./ReconciliationApi.ts"

const Money = Schema.String.annotate({ description: 'Exact decimal as text, e.g. "12.3500"' })

export const ConversionItem = Schema.Struct({
  id: Schema.String.annotate({ description: "'{network_id}:{network_tx_id}'" }),
  network_id: Schema.String,
  network_tx_id: Schema.String,
  click_ref: Schema.NullOr(Schema.String).annotate({ description: "The sub-id value the network reported" }),
  tracking_id: Schema.NullOr(Schema.String).annotate({ description: "null: unattributed" }),
  partner_id: Schema.NullOr(Schema.Number),
  tag: Schema.NullOr(Schema.String),
  status: Schema.Literals(STATUSES),
  currency: Schema.String,
  order_amount: Money,
  commission: Money,
  reporting_currency: Schema.String,
  commission_reporting: Money,
  order_amount_reporting: Money,
  revenue_share: Schema.NullOr(Money).annotate({ description: "Partner share applied; null when there is no partner" }),
  partner_share: Money,
  platform_share: Money,
  event_at: Schema.String,
  network_updated_at: Schema.NullOr(Schema.String),
  unattributed_reason: Schema.NullOr(Schema.Literals(UNATTRIBUTED_REASONS)).annotate({
    description:
      "Why no tracking link is credited (null while attributed): no_click_ref, unknown_link, or network_mismatch (the link's programme is on another network than the one reporting the conversion)"
  }),
  source: Schema.String,
  updated_at: Schema.String
})

const Totals = Schema.Struct({ pending: Money, approved: Money, total: Money })

export const RevenueSummary = Schema.Struct({
  reporting_currency: Schema.String,
  by_status: Schema.Array(
    Schema.Struct({
      status: Schema.String,
      conversions: Schema.Number,
      commission: Money,
      partner_share: Money,
      platform_share: Money
    })
  ),
  unattributed: Schema.Struct({ conversions: Schema.Number, commission: Money }).annotate({
    description: "Pending and approved conversions whose click reference matched no tracking link"
  }),
  platform_revenue: Totals,
  partner_revenue: Totals
})

export class AdminConversionsApi extends HttpApiGroup.make("adminConversions")
  .add(
    HttpApiEndpoint.get("list", "/conversions", {
      query: {
        ...ListQuery,
        status: Schema.optional(Schema.Literals(STATUSES)),
        unattributed: Schema.optional(Schema.Literals(["true", "false"])).annotate({
          description: "true: only conversions matching no tracking link; false: only attributed ones"
        }),
        unattributed_reason: Schema.optional(Schema.Literals(UNATTRIBUTED_REASONS)).annotate({
          description: "Only unattributed conversions with this reason"
        }),
        network: Schema.optional(
          Schema.String.check(
            Schema.isPattern(/^[a-z0-9][a-z0-9_-]{0,63}$/, { message: "network must be a network id" })
          )
        ),
        partner_id: Schema.optional(
          Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 2_147_483_647 }))
        )
      },
      success: Page(ConversionItem),
      error: [BadRequest, Unauthorized, ServiceUnavailable]
    }).annotate(
      OpenApi.Description,
      "Conversions, newest event first. Filters: status, unattributed, unattributed_reason, network, partner_id."
    ),
    HttpApiEndpoint.get("summary", "/conversions/summary", {
      success: RevenueSummary,
      error: [Unauthorized, ServiceUnavailable]
    }).annotate(
      OpenApi.Description,
      "Totals in the reporting currency: by status, unattributed, and platform / partner revenue (pending and approved only; declined and reversed earn nothing)."
    ),
    HttpApiEndpoint.get("reconciliation", "/conversions/reconciliation", {
      query: ReconciliationQuery,
      success: Reconciliation,
      error: [BadRequest, Unauthorized, ServiceUnavailable]
    }).annotate(
      OpenApi.Description,
      "Per network and month of the sales: conversions and commission by status as the network reports them, next to what partners and the platform were credited and what the revenue split expects (70/30 by default), with the difference; differences that timing does not explain (pending long after the month, corrections that moved nothing, shares that do not add up) are flagged with a reason."
    ),
    HttpApiEndpoint.post("reattribute", "/conversions/reattribute", {
      success: Schema.Struct({ reattributed: Schema.Number }),
      error: [Unauthorized, ServiceUnavailable]
    }).annotate(
      OpenApi.Description,
      "Attributes unattributed conversions whose click reference now matches a tracking link (also done after every report load)."
    )
  )
  .middleware(AdminAuth)
  .prefix("/admin")
  .annotateMerge(
    OpenApi.annotations({
      title: "Admin: conversions",
      description: "Operator views of conversions and revenue (Bearer ADMIN_TOKEN)"
    })
  ) {}
