import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Deal, MarketNote } from "../../../../discovery/schemas.ts"
import { marketFields } from "../../../discovery/marketParams.ts"
import { BadRequest, ServiceUnavailable } from "../../../errors.ts"
import { PartnerAuth } from "../../auth/Api.ts"
import { MAX_LIMIT } from "../../../../ai/deals/limits.ts"

// GET /api/v1/ai/deals: the contract. Unknown query parameters are ignored,
// as on /api/deals.

export { MAX_LIMIT }
export const DEFAULT_LIMIT = 10
const MAX_CATEGORY_LENGTH = 100

const Percent = Schema.NumberFromString.check(Schema.isFinite(), Schema.isBetween({ minimum: 0, maximum: 100 }))
const Limit = Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: MAX_LIMIT }))

export const AiDealsQuery = Schema.Struct({
  category: Schema.optional(Schema.String.check(Schema.isMaxLength(MAX_CATEGORY_LENGTH))).annotate({
    description:
      "Category or any level of the merchant's product type (case-insensitive), as on /api/deals; default all."
  }),
  min_discount: Schema.optional(Percent).annotate({
    description:
      "Minimum discount in percent (0..100) against our own 30-day reference price; filters every list. Default 0."
  }),
  limit: Schema.optional(Limit).annotate({ description: `Deals per list, 1..${MAX_LIMIT}, default ${DEFAULT_LIMIT}.` }),
  ...marketFields
})

const money = Schema.Number

export const TrendingRanking = Schema.Struct({
  score: Schema.Number.annotate({
    description:
      "Σ exp(-ln2 · age / half-life) over visits in the window. A visit: a unique human click; one visitor (IP hash) " +
      "counts once per product and hour, however many clicks or links."
  }),
  half_life_hours: Schema.Number,
  clicks_24h: Schema.Number.annotate({ description: "Visits in the last 24 hours." }),
  clicks_prev_24h: Schema.Number.annotate({ description: "Visits 24-48 hours ago." }),
  clicks_window: Schema.Number.annotate({ description: "Visits inside the score's window." }),
  growth: Schema.NullOr(Schema.Number).annotate({
    description: "(clicks_24h - clicks_prev_24h) / clicks_prev_24h; null when there were none before."
  })
})

export const PriceDropRanking = Schema.Struct({
  current: money,
  low_30d: money.annotate({ description: "Lowest price in effect in the 30 days before the current price started." }),
  median_90d: Schema.NullOr(money).annotate({
    description: "Time-weighted median of the prices in effect in the 90 days before the current price started."
  }),
  drop_vs_median_percent: Schema.NullOr(Schema.Number),
  discount_percent: Schema.Number.annotate({
    description: "Below low_30d, rounded down: the discovery feed's discount."
  }),
  below_30d_low: Schema.Boolean,
  reference_kind: Schema.Literals(["full", "partial"]),
  observations_30d: Schema.Number.annotate({ description: "Price changes in effect during the 30-day window." }),
  observations_90d: Schema.Number.annotate({ description: "Price changes in effect during the 90-day window." }),
  history_days: Schema.Number.annotate({ description: "Days of price history before the current price." }),
  price_since: Schema.String
})

export const CommissionRanking = Schema.Struct({
  program: Schema.Struct({
    id: Schema.String,
    number: Schema.NullOr(Schema.Int).annotate({ description: "The programme's stable integer id" }),
    name: Schema.String,
    network_id: Schema.String,
    network: Schema.String
  }),
  commission_type: Schema.String,
  commission_rate: Schema.Number.annotate({ description: "Percent for CPS; an amount per action otherwise." }),
  price: money,
  conversion_rate: Schema.Number,
  conversion_source: Schema.Literals(["observed", "default"]),
  observed_clicks: Schema.Number,
  observed_conversions: Schema.Number,
  earnings_per_click: Schema.Number,
  partner_share: Schema.Number,
  partner_earnings_per_click: Schema.Number,
  currency: Schema.String
})

const ranked = <R extends Schema.Top>(ranking: R) => Schema.Struct({ ...Deal.fields, ranking })

export const AiDealsResponse = Schema.Struct({
  trending: Schema.Array(ranked(TrendingRanking)),
  price_drops: Schema.Array(ranked(PriceDropRanking)),
  high_commission: Schema.Array(ranked(CommissionRanking)),
  generated_at: Schema.String.annotate({
    description:
      "When the lists were computed: they are shared by all partners and recomputed in the background every 30 s."
  }),
  filters: Schema.Struct({ category: Schema.NullOr(Schema.String), min_discount: Schema.Number, limit: Schema.Number }),
  market: MarketNote,
  disclosure: Schema.String,
  method: Schema.Struct({ trending: Schema.String, price_drops: Schema.String, high_commission: Schema.String })
})

export class AiDealsApi extends HttpApiGroup.make("aiDeals")
  .add(
    HttpApiEndpoint.get("deals", "/deals", {
      query: AiDealsQuery,
      success: AiDealsResponse,
      error: [BadRequest, ServiceUnavailable]
    }).annotate(
      OpenApi.Description,
      "Trending deals (gaining visitors: unique human clicks, time-decayed score), price drops (against our 30-day low and 90-day " +
        "median) and high-commission deals (expected earnings per click), each with the numbers behind its ranking. " +
        "Out-of-stock products are left out of every list. Tracked links carry the calling partner's tag. 400 names the " +
        "offending parameter; 503 when storage is unavailable."
    )
  )
  .middleware(PartnerAuth)
  .prefix("/api/v1/ai")
  .annotateMerge(OpenApi.annotations({ title: "AI tools" })) {}
