import { type Ratio, type Scaled, multiply, parseRatio } from "./Decimal.ts"

export const CURRENCY_PATTERN = /^[A-Z]{3}$/

// ISO 4217 minor units for the currencies whose minor unit is not the usual
// two digits; amounts in the reporting currency are rounded to these.
const MINOR_UNITS: Record<string, number> = {
  JPY: 0,
  KRW: 0,
  VND: 0,
  CLP: 0,
  ISK: 0,
  HUF: 2,
  BHD: 3,
  KWD: 3,
  OMR: 3,
  JOD: 3,
  TND: 3
}

export const minorUnits = (currency: string): number => MINOR_UNITS[currency] ?? 2

/**
 * A reporting-currency rate table: `rates[C]` is the value of one unit of C
 * in `base` (config/rates.json). Conversion between two non-base currencies
 * goes through the base as one exact fraction, rounded once.
 */
export interface RateTable {
  readonly base: string
  readonly asOf: string
  readonly rates: ReadonlyMap<string, Ratio>
}

export class RateTableError extends Error {}

/** Validates the JSON shape `{ base, as_of, rates: { "EUR": "1.0842", ... } }` (rates as decimal strings). */
export const parseRateTable = (json: unknown): RateTable => {
  if (typeof json !== "object" || json === null) throw new RateTableError("rate table: expected an object")
  const { base, as_of, rates } = json as Record<string, unknown>
  if (typeof base !== "string" || !CURRENCY_PATTERN.test(base))
    throw new RateTableError("rate table: base must be an ISO 4217 code")
  if (typeof rates !== "object" || rates === null) throw new RateTableError("rate table: rates must be an object")
  const table = new Map<string, Ratio>([[base, { numerator: 1n, denominator: 1n }]])
  for (const [currency, value] of Object.entries(rates)) {
    if (!CURRENCY_PATTERN.test(currency)) throw new RateTableError(`rate table: ${currency} is not an ISO 4217 code`)
    // Strings only: a JSON number has already been through binary floating point.
    const ratio = typeof value === "string" ? parseRatio(value) : undefined
    if (ratio === undefined || ratio.numerator === 0n) {
      throw new RateTableError(`rate table: rates.${currency} must be a positive decimal string`)
    }
    table.set(currency, ratio)
  }
  return { base, asOf: typeof as_of === "string" ? as_of : "", rates: table }
}

/** The exact rate from `from` to `to`, or undefined when either is missing from the table. */
export const crossRate = (table: RateTable, from: string, to: string): Ratio | undefined => {
  const source = table.rates.get(from)
  const target = table.rates.get(to)
  if (source === undefined || target === undefined) return undefined
  return { numerator: source.numerator * target.denominator, denominator: source.denominator * target.numerator }
}

/** `amount` in `from` converted to `to`, rounded half to even to `to`'s minor unit. */
export const convert = (table: RateTable, amount: Scaled, from: string, to: string): Scaled | undefined => {
  const rate = crossRate(table, from, to)
  return rate === undefined ? undefined : multiply(amount, rate, minorUnits(to))
}
