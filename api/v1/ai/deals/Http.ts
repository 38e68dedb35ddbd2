import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { HALF_LIFE_HOURS, WINDOW_DAYS } from "../../../../domain/deals/trending.ts"
import { MEDIAN_WINDOW_DAYS, RECENT_DROP_DAYS } from "../../../../domain/deals/priceDrop.ts"
import {
  CONVERSION_WINDOW_DAYS,
  DEFAULT_CONVERSION_RATE,
  MIN_CLICKS_FOR_OBSERVED,
  partnerShareOf,
  round4
} from "../../../../domain/deals/earnings.ts"
import { AppConfig } from "../../../../infra/AppConfig.ts"
import { PublicUrl } from "../../../../infra/PublicUrl.ts"
import { marketNote } from "../../../../domain/markets/markets.ts"
import { requestMarket } from "../../../discovery/marketParams.ts"
import { Api } from "../../../Api.ts"
import { disclosureFor, presentDeal } from "../../../../discovery/present.ts"
import { CurrentPartner } from "../../auth/Api.ts"
import { orUnavailable } from "../../dbUnavailable.ts"
import { DEFAULT_LIMIT } from "./Api.ts"
import {
  type CommissionRanking,
  DealDiscovery,
  type PriceDropRanking,
  type Ranked,
  type TrendingRanking
} from "../../../../ai/deals/DealDiscovery.ts"
import { round2 } from "../../../../domain/money/round2.ts"

const METHOD = {
  trending:
    `Visits to the product in the last ${WINDOW_DAYS} days (unique human clicks, one per visitor, product and hour), each weighted ` +
    `exp(-ln2 · age / ${HALF_LIFE_HOURS} h); only products clicked in the last 24 h at least as often as in the 24 h ` +
    "before (falling interest is excluded). Ordered by score.",
  price_drops:
    `Prices that changed in the last ${RECENT_DROP_DAYS} days and that the discovery feed counts as deals ` +
    "(at least 10% below the lowest price of the previous 30 days, 20% with under 30 days of history; never a " +
    `product without earlier history). Ordered by the drop against the ${MEDIAN_WINDOW_DAYS}-day time-weighted median.`,
  high_commission:
    "Expected earnings per click = price × commission rate × conversion rate (CPS), commission × " +
    "conversion rate (CPA). Conversion rate: the programme's own (counted conversions / unique human clicks over " +
    `${CONVERSION_WINDOW_DAYS} days) from ${MIN_CLICKS_FOR_OBSERVED} clicks, else ${DEFAULT_CONVERSION_RATE * 100}%. ` +
    "partner_earnings_per_click is your share of it. Estimates, not promises; currencies are not converted."
}

const trendingRanking = (ranking: TrendingRanking) => ({
  score: round4(ranking.score),
  half_life_hours: HALF_LIFE_HOURS,
  clicks_24h: ranking.clicks24h,
  clicks_prev_24h: ranking.clicksPrev24h,
  clicks_window: ranking.clicksWindow,
  growth: ranking.growth === null ? null : round4(ranking.growth)
})

const priceDropRanking = (ranking: PriceDropRanking) => ({
  current: round2(ranking.current),
  low_30d: round2(ranking.low30d),
  median_90d: ranking.median90d === null ? null : round2(ranking.median90d),
  drop_vs_median_percent: ranking.dropVsMedianPercent,
  discount_percent: ranking.discountVsLow30dPercent,
  below_30d_low: ranking.below30dLow,
  reference_kind: ranking.referenceKind,
  observations_30d: ranking.observations30d,
  observations_90d: ranking.observations90d,
  history_days: ranking.historyDays,
  price_since: ranking.priceSince.toISOString()
})

const commissionRanking = (ranking: CommissionRanking, revenueShare: number, productCurrency: string) => {
  const program = ranking.selection.program
  const fixed = program.commissionType.toUpperCase() !== "CPS"
  return {
    program: {
      id: program.id,
      number: program.number ?? null,
      name: program.name,
      network_id: ranking.selection.network.id,
      network: ranking.selection.network.name
    },
    commission_type: program.commissionType,
    commission_rate: program.commissionRate,
    price: round2(ranking.price),
    conversion_rate: round4(ranking.conversion.rate),
    conversion_source: ranking.conversion.source,
    observed_clicks: ranking.conversion.clicks,
    observed_conversions: ranking.conversion.conversions,
    earnings_per_click: round4(ranking.earningsPerClick),
    partner_share: revenueShare,
    partner_earnings_per_click: partnerShareOf(ranking.earningsPerClick, revenueShare),
    currency: fixed ? (ranking.commissionCurrency ?? productCurrency) : productCurrency
  }
}

export const AiDealsHandlers = HttpApiBuilder.group(
  Api,
  "aiDeals",
  Effect.fn(function* (handlers) {
    const discovery = yield* DealDiscovery
    const publicUrl = yield* PublicUrl
    const { defaultCountry } = yield* AppConfig
    return handlers.handle("deals", ({ query }) =>
      Effect.gen(function* () {
        const partner = yield* CurrentPartner
        const category =
          query.category === undefined || query.category.trim() === "" ? undefined : query.category.trim()
        const minDiscount = query.min_discount ?? 0
        const limit = query.limit ?? DEFAULT_LIMIT
        // Discounts are whole percents (rounded down), so "at least 24.5" is "at least 25": one computation serves both.
        const { chosen, currency, country } = requestMarket(query, defaultCountry)
        const lists = yield* orUnavailable(
          discovery.lists({ category, minDiscount: Math.ceil(minDiscount), currency, country })
        )
        const present = <R, O>(items: ReadonlyArray<Ranked<R>>, show: (ranking: R, currency: string) => O) =>
          items.slice(0, limit).map(({ document, ranking }) => ({
            ...presentDeal(document, { base: publicUrl.base, tag: partner.tag }),
            ranking: show(ranking, document.currency)
          }))
        const shown = [
          ...lists.trending.slice(0, limit),
          ...lists.priceDrops.slice(0, limit),
          ...lists.highCommission.slice(0, limit)
        ]
        return {
          trending: present(lists.trending, trendingRanking),
          price_drops: present(lists.priceDrops, priceDropRanking),
          high_commission: present(lists.highCommission, (ranking, currency) =>
            commissionRanking(ranking, partner.revenueShare, currency)
          ),
          generated_at: lists.generatedAt.toISOString(),
          filters: { category: category ?? null, min_discount: minDiscount, limit },
          market: marketNote(
            chosen,
            shown.map((item) => item.document.currency)
          ),
          disclosure: disclosureFor(shown.map((item) => item.document)),
          method: METHOD
        }
      })
    )
  })
)
