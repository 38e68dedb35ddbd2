import { Context, Effect, Layer, Schema } from "effect"
import { readFileSync } from "node:fs"
import { divideHalfEven, type Ratio, type Scaled } from "../domain/money/Decimal.ts"
import { convert, crossRate, minorUnits, parseRateTable, type RateTable } from "../domain/money/Currency.ts"
import { AppConfig } from "../infra/AppConfig.ts"

export class RatesConfigError extends Schema.TaggedError<RatesConfigError>()("RatesConfigError", {
  message: Schema.String
}) {}

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

const rateText = (rate: Ratio) => {
  // fx_rate is DECIMAL(18,8): the exact rate rounded half-even to 8 digits, for display only.
  const scaled = divideHalfEven(rate.numerator * 10n ** 8n, rate.denominator)
  const whole = scaled / 10n ** 8n
  return `${whole}.${(scaled % 10n ** 8n).toString().padStart(8, "0")}`
}

export const makeReportingRates = (table: RateTable, reportingCurrency: string): ReportingRatesShape => {
  if (!table.rates.has(reportingCurrency)) {
    throw new RatesConfigError({ message: `REPORTING_CURRENCY ${reportingCurrency} has no rate in the rate table` })
  }
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

/** The reporting currency and its rate table (config/rates.json, RATES_CONFIG), read and validated at start-up. */
export class ReportingRates extends Context.Service<ReportingRates, ReportingRatesShape>()(
  "app/conversions/ReportingRates"
) {
  static readonly load = (path: string, reportingCurrency: string) =>
    Effect.try({
      try: () => makeReportingRates(parseRateTable(JSON.parse(readFileSync(path, "utf8"))), reportingCurrency),
      catch: (cause) =>
        cause instanceof RatesConfigError
          ? cause
          : new RatesConfigError({ message: `${path}: ${(cause as Error).message}` })
    })

  static readonly layer = Layer.effect(
    ReportingRates,
    Effect.gen(function* () {
      const config = yield* AppConfig
      return yield* ReportingRates.load(config.ratesConfigPath, config.reportingCurrency)
    })
  )
}
