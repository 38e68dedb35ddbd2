import { minorUnits } from "../domain/money/Currency.ts"
import { formatDecimal, SCALE, type Scaled } from "../domain/money/Decimal.ts"
import type { ConversionStatus } from "./ConversionRecord.ts"

// What the reconciliation (Reconciliation.ts) calls timing and what it flags.
//
// Timing explains a month that is not over yet, and pending conversions: the
// network has not validated them; they are credited as pending and become
// payable (or are declined) when it does. A pending conversion of a month
// that ended more than VALIDATION_DAYS ago is no longer timing: the networks
// validate well within that (CJ locks on the 11th of the next month, Awin and
// Impact within 30 to 90 days), so the feed is likely missing status changes.
//
// Flagged, with a reason: a correction the network reported that moved no
// conversion (its original is not in the ledger, or is in another currency);
// partners credited more or less than their share of the commission beyond
// the rounding of each conversion to the reporting currency's minor unit;
// partner and platform shares that do not add up to an earning conversion's
// commission; shares credited on a declined or reversed conversion.

export const VALIDATION_DAYS = 90
const DAY = 86_400_000

export interface StatusFigures {
  readonly conversions: number
  readonly commission: Scaled
  readonly partner: Scaled
  readonly platform: Scaled
}

export interface UnappliedCorrections {
  readonly problem: "without_original" | "other_currency"
  readonly currency: string
  readonly corrections: number
  readonly commission: Scaled
  readonly example: string | null
}

/** One network's month, accumulated from the grouped rows (Reconciliation.ts). */
export interface MonthFigures {
  readonly network: string
  readonly month: string
  readonly byStatus: Map<ConversionStatus, StatusFigures>
  /** Each earning attributed conversion's commission times its partner share, summed (not yet rounded per conversion). */
  expectedPartner: Scaled
  attributedEarning: number
  unattributed: { conversions: number; commission: Scaled }
  splitMismatch: number
  creditedNotEarning: number
  readonly corrections: Array<UnappliedCorrections>
}

export type FlagReason =
  | "correction_without_original"
  | "correction_in_other_currency"
  | "partner_share_mismatch"
  | "split_mismatch"
  | "credited_not_earning"
  | "pending_past_validation"

export interface Flag {
  readonly reason: FlagReason
  readonly message: string
  /** Conversions or corrections concerned. */
  readonly count: number
  readonly amount: string
  readonly currency: string
}

export interface Timing {
  readonly reason: "month_open" | "pending"
  readonly message: string
  readonly conversions: number
  readonly commission: string
}

type Money = string
export interface ReconciliationRow {
  readonly network: string
  readonly month: string
  readonly reporting_currency: string
  readonly network_reports: {
    readonly by_status: ReadonlyArray<{
      readonly status: ConversionStatus
      readonly conversions: number
      readonly commission: Money
    }>
    readonly earning_commission: Money
    readonly unattributed: { readonly conversions: number; readonly commission: Money }
  }
  readonly credited: {
    readonly partner: { readonly pending: Money; readonly approved: Money; readonly total: Money }
    readonly platform: { readonly pending: Money; readonly approved: Money; readonly total: Money }
  }
  readonly expected: { readonly partner: Money; readonly platform: Money }
  readonly difference: { readonly commission: Money; readonly partner: Money; readonly platform: Money }
  readonly state: "settled" | "open" | "awaiting_network" | "flagged"
  readonly month_closed: boolean
  readonly timing: ReadonlyArray<Timing>
  readonly flags: ReadonlyArray<Flag>
}

/** The first instant of `month` ("YYYY-MM", already validated) and of the month after, UTC. */
export const monthBounds = (month: string) => {
  const [year, number] = month.split("-").map(Number) as [number, number]
  return { start: new Date(Date.UTC(year, number - 1, 1)), end: new Date(Date.UTC(year, number, 1)) }
}

const abs = (value: Scaled) => (value < 0n ? -value : value)
const money = (value: Scaled) => formatDecimal(value)

export const flagsOf = (
  figures: MonthFigures,
  now: Date,
  difference: { readonly partner: Scaled; readonly platform: Scaled; readonly commission: Scaled },
  reportingCurrency: string
): ReadonlyArray<Flag> => {
  const flags: Array<Flag> = []
  for (const c of figures.corrections) {
    flags.push(
      c.problem === "without_original"
        ? {
            reason: "correction_without_original",
            message: `${c.corrections} correction(s) the network reported for a sale not in the ledger (e.g. ${c.example}): the sale was never loaded, so nothing was moved`,
            count: c.corrections,
            amount: money(c.commission),
            currency: c.currency
          }
        : {
            reason: "correction_in_other_currency",
            message: `${c.corrections} correction(s) in ${c.currency}, another currency than their sale's (e.g. ${c.example}): recorded, not applied`,
            count: c.corrections,
            amount: money(c.commission),
            currency: c.currency
          }
    )
  }
  // Each conversion's partner share is rounded once to the minor unit: up to half of one per conversion.
  const tolerance =
    (BigInt(figures.attributedEarning) * 10n ** BigInt(SCALE)) / (2n * 10n ** BigInt(minorUnits(reportingCurrency)))
  if (abs(difference.partner) > tolerance)
    flags.push({
      reason: "partner_share_mismatch",
      message: `partners were credited ${money(difference.partner)} ${reportingCurrency} against their shares of the commission`,
      count: figures.attributedEarning,
      amount: money(difference.partner),
      currency: reportingCurrency
    })
  if (figures.splitMismatch > 0)
    flags.push({
      reason: "split_mismatch",
      message: `${figures.splitMismatch} earning conversion(s) whose partner and platform shares do not add up to the commission`,
      count: figures.splitMismatch,
      amount: money(difference.commission),
      currency: reportingCurrency
    })
  if (figures.creditedNotEarning > 0) {
    const shares = (["declined", "reversed"] as const).reduce((sum, status) => {
      const row = figures.byStatus.get(status)
      return sum + (row === undefined ? 0n : row.partner + row.platform)
    }, 0n)
    flags.push({
      reason: "credited_not_earning",
      message: `${figures.creditedNotEarning} declined or reversed conversion(s) still carry credited shares`,
      count: figures.creditedNotEarning,
      amount: money(shares),
      currency: reportingCurrency
    })
  }
  const pending = figures.byStatus.get("pending")
  const { end } = monthBounds(figures.month)
  if (pending !== undefined && pending.conversions > 0 && now.getTime() > end.getTime() + VALIDATION_DAYS * DAY)
    flags.push({
      reason: "pending_past_validation",
      message: `${pending.conversions} conversion(s) still pending more than ${VALIDATION_DAYS} days after the month ended: the feed may be missing the network's status changes`,
      count: pending.conversions,
      amount: money(pending.commission),
      currency: reportingCurrency
    })
  return flags
}

export const stateOf = (
  figures: MonthFigures,
  now: Date,
  flags: ReadonlyArray<Flag>
): Pick<ReconciliationRow, "state" | "month_closed" | "timing"> => {
  const { end } = monthBounds(figures.month)
  const closed = now.getTime() >= end.getTime()
  const pending = figures.byStatus.get("pending")
  const timing: Array<Timing> = []
  if (!closed)
    timing.push({
      reason: "month_open",
      message: "the month is not over: the network will report more",
      conversions: 0,
      commission: "0.0000"
    })
  if (pending !== undefined && pending.conversions > 0 && !flags.some((f) => f.reason === "pending_past_validation"))
    timing.push({
      reason: "pending",
      message: "pending conversions: credited as pending, payable once the network approves them",
      conversions: pending.conversions,
      commission: money(pending.commission)
    })
  const state = flags.length > 0 ? "flagged" : !closed ? "open" : timing.length > 0 ? "awaiting_network" : "settled"
  return { state, month_closed: closed, timing }
}
