import { Schema } from "effect"

// GET /api/v1/partners/me. Clicks count humans only (bots are stored but
// reported apart); money is the partner's share in the reporting currency,
// as exact decimal strings.
const Money = Schema.String.annotate({ description: "Exact decimal string, reporting currency, partner share" })

export const StatsFigures = Schema.Struct({
  clicks: Schema.Number.annotate({ description: "Human clicks" }),
  unique_clicks: Schema.Number.annotate({
    description: "Human clicks that were the visitor's first on the link within an hour"
  }),
  bot_clicks: Schema.Number,
  conversions: Schema.Struct({
    total: Schema.Number.annotate({
      description:
        "Conversions by status; a correction of a sale (a partial refund) moves the sale's money and shows under adjustments, " +
        "it is not a conversion of its own"
    }),
    pending: Schema.Number,
    approved: Schema.Number,
    declined: Schema.Number,
    reversed: Schema.Number
  }),
  revenue: Schema.Struct({
    pending: Money,
    approved: Money,
    total: Money.annotate({ description: "pending + approved" })
  }),
  epc: Money.annotate({ description: "Partner earnings (pending + approved) per 100 human clicks" }),
  conversion_rate: Schema.Number.annotate({ description: "(pending + approved conversions) / human clicks, 0..1" })
})

// "Late" has one meaning: the conversion was first recorded unattributed
// (its tracking link was not known here yet, so the platform held the
// commission) and attributed to the partner afterwards. attributed_at > first_seen_at.
export const LateRevenue = Schema.Struct({
  conversions: Schema.Number.annotate({ description: "Late pending and approved conversions" }),
  revenue: Schema.Struct({
    pending: Money,
    approved: Money,
    total: Money.annotate({ description: "pending + approved" })
  }),
  last_attributed_at: Schema.NullOr(Schema.String).annotate({
    description: "When the latest late conversion was attributed to you"
  }),
  recent: Schema.Array(
    Schema.Struct({
      conversion_id: Schema.String.annotate({ description: "'{network}:{transaction id}'" }),
      tracking_id: Schema.String,
      status: Schema.String,
      partner_share: Money,
      event_at: Schema.String.annotate({ description: "When the sale happened (network time)" }),
      first_seen_at: Schema.String.annotate({ description: "When we first recorded the conversion, unattributed" }),
      attributed_at: Schema.String.annotate({ description: "When it was attributed to you" })
    })
  ).annotate({ description: "The 20 most recently attributed late conversions (any status)" })
}).annotate({
  description:
    "Revenue that arrived late: conversions first recorded before their tracking link was known here " +
    "(unattributed, the platform held the commission) and attributed to you later, when the link was created, a report " +
    "changed, or the re-attribution schedule ran (every 15 minutes). Late means attributed_at > first_seen_at. " +
    "Already included in totals, links and days."
})

// Optional in the contract (clients written before it keep validating); the server always sends it.
export const Adjustments = Schema.Struct({
  adjustments: Schema.Number.annotate({ description: "How many adjustments moved your revenue, ever" }),
  revenue: Money.annotate({ description: "Their net effect on your revenue (usually negative)" }),
  recent: Schema.Array(
    Schema.Struct({
      conversion_id: Schema.String.annotate({ description: "'{network}:{transaction id}' of the sale it moved" }),
      tracking_id: Schema.NullOr(Schema.String),
      kind: Schema.Literals(["correction", "amendment", "reversal", "reinstatement"]).annotate({
        description:
          "correction: the network reported a correction of the sale (CJ: a record of its own, e.g. a partial refund); " +
          "amendment: the network changed the sale's amount; reversal: declined or reversed after it earned; " +
          "reinstatement: earning again after a decline"
      }),
      reason: Schema.NullOr(Schema.String).annotate({ description: "The network's reason for a correction, if given" }),
      previous_status: Schema.String,
      status: Schema.String,
      partner_share_change: Money.annotate({ description: "What it moved on your share (negative: less revenue)" }),
      event_at: Schema.String.annotate({ description: "When the sale happened (network time)" }),
      arrived_at: Schema.String.annotate({ description: "When the change arrived here: the day it shows on" })
    })
  ).annotate({ description: "The 20 latest adjustments, newest first" })
}).annotate({
  description:
    "Changes to conversions already credited to you: corrections, amended amounts, reversals. The revenue of totals, " +
    "links and days is per sale day and already net of them; adjustments say when and why it moved. A sale read " +
    "together with its correction is credited net from the start (no adjustment); a change of status that moves no " +
    "money (pending to approved) is not an adjustment."
})

export const PartnerStats = Schema.Struct({
  partner: Schema.Struct({
    id: Schema.Number,
    name: Schema.String,
    tag: Schema.String,
    email: Schema.String,
    app_url: Schema.NullOr(Schema.String),
    revenue_share: Schema.Number.annotate({ description: "The partner's share of commission, e.g. 0.7" }),
    created_at: Schema.String
  }),
  reporting_currency: Schema.NullOr(Schema.String).annotate({
    description: "Currency of all money figures; null until a conversion exists"
  }),
  totals: StatsFigures,
  links: Schema.Array(
    Schema.Struct({
      tracking_id: Schema.String,
      // Optional in the contract (clients written before them keep validating); the server always sends them.
      name: Schema.optional(Schema.NullOr(Schema.String)).annotate({ description: "The name you gave the link" }),
      state: Schema.optional(Schema.Literals(["active", "disabled", "deleted"])).annotate({
        description: "disabled or deleted links count no new clicks; their history stays here"
      }),
      tracking_url: Schema.String,
      destination_url: Schema.String,
      program_id: Schema.NullOr(Schema.String),
      program_number: Schema.NullOr(Schema.Int).annotate({
        description: "program_id's stable integer id, as GET /api/v1/programs lists it"
      }),
      network_id: Schema.NullOr(Schema.String),
      created_at: Schema.String,
      ...StatsFigures.fields
    })
  ).annotate({ description: "Per link, most clicked first (at most 100; see links_total)" }),
  links_total: Schema.Number,
  late_revenue: LateRevenue,
  adjustments: Schema.optional(Adjustments),
  days: Schema.Array(
    Schema.Struct({
      date: Schema.String,
      ...StatsFigures.fields,
      adjustments: Schema.optional(
        Money.annotate({
          description: "Net change of your revenue by adjustments that arrived this day (any sale day; see adjustments)"
        })
      )
    })
  ).annotate({
    description: "Per UTC day over the last 30 days, days without activity included as zeros"
  })
})
export type PartnerStats = typeof PartnerStats.Type
