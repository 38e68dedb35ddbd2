import { Schema } from "effect"
import { STATUSES } from "../../../conversions/ConversionRecord.ts"

// The contract of GET /admin/conversions/reconciliation
// (conversions/Reconciliation.ts computes it; docs/reconciliation.md explains it).
const Money = Schema.String.annotate({
  description: 'Exact decimal as text, reporting currency unless a currency is named, e.g. "12.3500"'
})
const Shares = Schema.Struct({ pending: Money, approved: Money, total: Money })

export const ReconciliationQuery = {
  network: Schema.optional(
    Schema.String.check(Schema.isPattern(/^[a-z0-9][a-z0-9_-]{0,63}$/, { message: "network must be a network id" }))
  ).annotate({ description: "Only this network id (e.g. cj)" }),
  month: Schema.optional(
    Schema.String.check(
      Schema.isPattern(/^\d{4}-(0[1-9]|1[0-2])$/, { message: "month must be YYYY-MM (a UTC calendar month)" })
    )
  ).annotate({ description: "Only this month of the sales (UTC), YYYY-MM; every month with conversions when absent" })
}

export const ReconciliationMonth = Schema.Struct({
  network: Schema.String,
  month: Schema.String.annotate({ description: "YYYY-MM: the UTC month of the sales" }),
  reporting_currency: Schema.String,
  network_reports: Schema.Struct({
    by_status: Schema.Array(
      Schema.Struct({ status: Schema.Literals(STATUSES), conversions: Schema.Number, commission: Money })
    ).annotate({
      description:
        "Conversions and commission by status as the network reports them: each transaction's latest status and amounts, its corrections applied"
    }),
    earning_commission: Money.annotate({ description: "Pending + approved commission: what can be credited" }),
    unattributed: Schema.Struct({ conversions: Schema.Number, commission: Money }).annotate({
      description: "Pending and approved conversions matching no tracking link: the platform keeps their commission"
    })
  }),
  credited: Schema.Struct({ partner: Shares, platform: Shares }).annotate({
    description: "What the ledger credited: the partner and platform shares of pending and approved conversions"
  }),
  expected: Schema.Struct({ partner: Money, platform: Money }).annotate({
    description:
      "The revenue split of the earning commission at each conversion's partner share (70/30 unless the partner's share differs); unattributed commission to the platform"
  }),
  difference: Schema.Struct({
    commission: Money.annotate({ description: "credited partner + platform - earning commission" }),
    partner: Money.annotate({ description: "credited - expected; up to half a minor unit per conversion is rounding" }),
    platform: Money
  }),
  state: Schema.Literals(["settled", "open", "awaiting_network", "flagged"]).annotate({
    description:
      "settled: nothing left to explain; open: the month is not over; awaiting_network: only pending conversions differ (timing); flagged: see flags"
  }),
  month_closed: Schema.Boolean,
  timing: Schema.Array(
    Schema.Struct({
      reason: Schema.Literals(["month_open", "pending"]),
      message: Schema.String,
      conversions: Schema.Number,
      commission: Money
    })
  ).annotate({ description: "Differences timing explains" }),
  flags: Schema.Array(
    Schema.Struct({
      reason: Schema.Literals([
        "correction_without_original",
        "correction_in_other_currency",
        "partner_share_mismatch",
        "split_mismatch",
        "credited_not_earning",
        "pending_past_validation"
      ]),
      message: Schema.String,
      count: Schema.Number.annotate({ description: "Conversions or corrections concerned" }),
      amount: Money,
      currency: Schema.String
    })
  ).annotate({ description: "Differences timing does not explain, each with its reason" })
})

export const Reconciliation = Schema.Struct({
  reporting_currency: Schema.String,
  validation_days: Schema.Number.annotate({
    description: "A month's conversions still pending this many days after it ended are flagged"
  }),
  months: Schema.Array(ReconciliationMonth).annotate({ description: "Per network and month, newest month first" })
})
