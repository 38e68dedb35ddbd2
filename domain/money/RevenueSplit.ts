import { type Ratio, type Scaled, multiply, parseRatio } from "./Decimal.ts"

// The revenue split between a partner and the platform.
//
// Rule (no cent is ever created or lost):
//   partner  = commission × share, rounded half to even to the currency's minor unit
//   platform = commission − partner            (the exact remainder)
// so partner + platform == commission for every conversion, exactly, and any
// sum over a set of conversions is exact too (integer arithmetic throughout).
// Rounding happens once per conversion; half-even keeps the rounding unbiased
// across many conversions, so neither side systematically gains the half cents.

export const DEFAULT_PARTNER_SHARE = "0.7000"

export interface Split {
  readonly partner: Scaled
  readonly platform: Scaled
}

/** Parses a partner share in [0, 1] ("0.7", "0.7000"). */
export const parseShare = (text: string): Ratio | undefined => {
  const ratio = parseRatio(text)
  return ratio !== undefined && ratio.numerator <= ratio.denominator ? ratio : undefined
}

export const splitCommission = (commission: Scaled, partnerShare: Ratio, minorUnits: number): Split => {
  const partner = multiply(commission, partnerShare, minorUnits)
  return { partner, platform: commission - partner }
}

/** Declined and reversed conversions earn nobody anything; no partner means the platform keeps it all. */
export const revenueFor = (
  status: string,
  commission: Scaled,
  partnerShare: Ratio | undefined,
  minorUnits: number
): Split => {
  if (status === "declined" || status === "reversed") return { partner: 0n, platform: 0n }
  if (partnerShare === undefined) return { partner: 0n, platform: commission }
  return splitCommission(commission, partnerShare, minorUnits)
}
