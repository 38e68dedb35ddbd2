import { convert, crossRate, minorUnits, type RateTable } from "../money/Currency.ts"
import { divideHalfEven, type Ratio, type Scaled } from "../money/Decimal.ts"

// Every conversion is also kept in one reporting currency, so revenue of
// different networks and currencies adds up. The rate table is read once at
// start-up (conversions/ReportingRates.ts); these are its rules.

export interface Converted {
  readonly value: Scaled
  /** The exact rate used, shown rounded to 8 digits (fx_rate column). */
  readonly rateText: string
}

export interface ReportingRatesShape {
  readonly reportingCurrency: string
  readonly minorUnits: number
  readonly asOf: string
  /** `amount` of `currency` in the reporting currency, or undefined when the table has no rate for it. */
  toReporting(amount: Scaled, currency: string): Converted | undefined
}

/** The exact rate rounded half-even to 8 digits, for display only (fx_rate is DECIMAL(18,8)). */
export const rateText = (rate: Ratio) => {
  const scaled = divideHalfEven(rate.numerator * 10n ** 8n, rate.denominator)
  const whole = scaled / 10n ** 8n
  return `${whole}.${(scaled % 10n ** 8n).toString().padStart(8, "0")}`
}

/**
 * Conversion into `reportingCurrency` through `table`, rounded once to the
 * reporting currency's minor unit; undefined when the table has no rate for
 * the reporting currency itself.
 */
export const reportingRatesFrom = (table: RateTable, reportingCurrency: string): ReportingRatesShape | undefined => {
  if (!table.rates.has(reportingCurrency)) return undefined
  return {
    reportingCurrency,
    minorUnits: minorUnits(reportingCurrency),
    asOf: table.asOf,
    toReporting: (amount, currency) => {
      const rate = crossRate(table, currency, reportingCurrency)
      const value = convert(table, amount, currency, reportingCurrency)
      return rate === undefined || value === undefined ? undefined : { value, rateText: rateText(rate) }
    }
  }
}
