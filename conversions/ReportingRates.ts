import { Context, Effect, Layer, Schema } from "effect"
import { readFileSync } from "node:fs"
import { type Converted, type ReportingRatesShape, reportingRatesFrom } from "../domain/conversions/reportingRates.ts"
import { parseRateTable, type RateTable } from "../domain/money/Currency.ts"
import { AppConfig } from "../infra/AppConfig.ts"

export class RatesConfigError extends Schema.TaggedError<RatesConfigError>()("RatesConfigError", {
  message: Schema.String
}) {}

export type { Converted, ReportingRatesShape }

export const makeReportingRates = (table: RateTable, reportingCurrency: string): ReportingRatesShape => {
  const rates = reportingRatesFrom(table, reportingCurrency)
  if (rates === undefined) {
    throw new RatesConfigError({ message: `REPORTING_CURRENCY ${reportingCurrency} has no rate in the rate table` })
  }
  return rates
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
