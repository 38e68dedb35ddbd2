// Exact decimal amounts as scaled bigints: no binary floating point anywhere
// money is computed. An amount is an integer count of 10^-SCALE units, which
// is exactly what a DuckDB DECIMAL(18,4) column holds, so values round-trip
// through the database as strings without loss.
export const SCALE = 4
const ONE = 10n ** BigInt(SCALE)

/** An exact amount: `units` ten-thousandths (SCALE = 4). */
export type Scaled = bigint

const DECIMAL_TEXT = /^([+-])?(\d{1,18})?(?:\.(\d+))?$/

/**
 * Parses a decimal string ("12.5", "-0.0100", "1e3" is refused) exactly.
 * Digits beyond SCALE are accepted only when they are zeros: silently
 * rounding a reported amount would create or lose money.
 */
export const parseDecimal = (text: string): Scaled | undefined => {
  const trimmed = text.trim()
  const match = DECIMAL_TEXT.exec(trimmed)
  if (match === null) return undefined
  const [, sign, whole = "", fraction = ""] = match
  if (whole === "" && fraction === "") return undefined
  if (fraction.length > SCALE && !/^0*$/.test(fraction.slice(SCALE))) return undefined
  const units = BigInt(whole || "0") * ONE + BigInt((fraction.slice(0, SCALE) || "0").padEnd(SCALE, "0"))
  return sign === "-" ? -units : units
}

/** The canonical text, always with SCALE fraction digits ("12.5000", "-0.0100"). */
export const formatDecimal = (units: Scaled, fractionDigits = SCALE): string => {
  const negative = units < 0n
  const abs = negative ? -units : units
  const whole = abs / ONE
  const fraction = (abs % ONE).toString().padStart(SCALE, "0").slice(0, fractionDigits)
  return `${negative ? "-" : ""}${whole}${fractionDigits > 0 ? `.${fraction}` : ""}`
}

/**
 * `numerator / denominator` rounded half to even (banker's rounding), the
 * rounding with no systematic bias over many values. Exact integer arithmetic.
 */
export const divideHalfEven = (numerator: bigint, denominator: bigint): bigint => {
  if (denominator === 0n) throw new RangeError("division by zero")
  if (denominator < 0n) return divideHalfEven(-numerator, -denominator)
  const quotient = numerator / denominator // truncates toward zero
  const remainder = numerator % denominator
  if (remainder === 0n) return quotient
  const twice = (remainder < 0n ? -remainder : remainder) * 2n
  const away = numerator < 0n ? quotient - 1n : quotient + 1n
  if (twice > denominator) return away
  if (twice < denominator) return quotient
  return quotient % 2n === 0n ? quotient : away
}

/** Rounds an amount to `digits` fraction digits (<= SCALE), half to even; the result keeps SCALE. */
export const roundTo = (units: Scaled, digits: number): Scaled => {
  const step = 10n ** BigInt(SCALE - digits)
  return divideHalfEven(units, step) * step
}

/** A rate or ratio as an exact fraction: "1.0842" -> 10842 / 10000. */
export interface Ratio {
  readonly numerator: bigint
  readonly denominator: bigint
}

const RATIO_TEXT = /^(\d{1,12})(?:\.(\d{1,12}))?$/

/** Parses a non-negative decimal ratio ("0.7", "1.08425") exactly. */
export const parseRatio = (text: string): Ratio | undefined => {
  const match = RATIO_TEXT.exec(text.trim())
  if (match === null) return undefined
  const [, whole, fraction = ""] = match
  return { numerator: BigInt(whole + fraction), denominator: 10n ** BigInt(fraction.length) }
}

/** `units × ratio`, rounded half to even to `digits` fraction digits. */
export const multiply = (units: Scaled, ratio: Ratio, digits: number = SCALE): Scaled => {
  const step = 10n ** BigInt(SCALE - digits)
  return divideHalfEven(units * ratio.numerator, ratio.denominator * step) * step
}
