import { parseDecimal, formatDecimal } from "../money/Decimal.ts"
import { parseShare, splitCommission } from "../money/RevenueSplit.ts"
import { CONVERSION_RATE, LEAD_RATE } from "../matching/selectProgram.ts"

// Expected earnings per click of sending a shopper to one product:
//
//   CPS  price × commission rate (percent) × conversion estimate
//   CPA  fixed commission × conversion estimate      (the price does not matter)
//   CPL  fixed commission × LEAD_RATE                (a lead is not a sale)
//   CPC  the fixed amount per click
//
// Conversion estimate: the programme's own observed rate (sales reported for
// its tracking links ÷ human clicks on them, over CONVERSION_WINDOW_DAYS)
// once it has MIN_CLICKS_FOR_OBSERVED human clicks; below that the rate is
// noise (3 clicks and 1 sale is not 33%), so we use the same assumptions as
// the programme matcher (domain/matching/selectProgram.ts): 2% of clicks
// buy, 5% of clicks leave a lead.
//
// Amounts are in the programme's commission currency for fixed commissions
// and in the product's currency for CPS; they are not converted, so ranking
// across currencies is approximate (the response names the currency).

export const DEFAULT_CONVERSION_RATE = CONVERSION_RATE
export { LEAD_RATE }
export const MIN_CLICKS_FOR_OBSERVED = 100
export const CONVERSION_WINDOW_DAYS = 90

export interface ConversionEstimate {
  readonly rate: number
  readonly source: "observed" | "default"
  readonly clicks: number
  readonly conversions: number
}

export const conversionEstimate = (clicks: number, conversions: number): ConversionEstimate =>
  clicks >= MIN_CLICKS_FOR_OBSERVED
    ? { rate: Math.min(1, conversions / clicks), source: "observed", clicks, conversions }
    : { rate: DEFAULT_CONVERSION_RATE, source: "default", clicks, conversions }

/**
 * Earnings per click as `price × perPriceUnit + fixed`, so a database can rank
 * a million products by it with two numbers per programme.
 */
export interface EarningsFormula {
  readonly perPriceUnit: number
  readonly fixed: number
}

export const earningsFormula = (
  commissionType: string,
  commissionRate: number,
  conversionRate: number
): EarningsFormula => {
  switch (commissionType.toUpperCase()) {
    case "CPS":
      return { perPriceUnit: (commissionRate / 100) * conversionRate, fixed: 0 }
    case "CPA":
      return { perPriceUnit: 0, fixed: commissionRate * conversionRate }
    case "CPL":
      return { perPriceUnit: 0, fixed: commissionRate * LEAD_RATE }
    case "CPC":
      return { perPriceUnit: 0, fixed: commissionRate }
    default:
      return { perPriceUnit: 0, fixed: 0 }
  }
}

export const earningsPerClick = (formula: EarningsFormula, price: number): number =>
  price * formula.perPriceUnit + formula.fixed

/** Rounds to 4 decimals (the precision of our money type). */
export const round4 = (value: number): number => Math.round(value * 10_000) / 10_000

/**
 * The partner's share of an expected earning, split exactly like a real
 * commission (RevenueSplit: half-even on the partner's side, platform keeps
 * the remainder), at 4 decimals because per-click figures are fractions of a cent.
 */
export const partnerShareOf = (earnings: number, revenueShare: number): number => {
  const units = parseDecimal(round4(Math.max(0, earnings)).toFixed(4))
  const share = parseShare(revenueShare.toFixed(4))
  if (units === undefined || share === undefined) return 0
  return Number(formatDecimal(splitCommission(units, share, 4).partner))
}
