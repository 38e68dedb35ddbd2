import { formatDecimal, parseDecimal, type Ratio, type Scaled } from "../money/Decimal.ts"
import { parseShare, revenueFor } from "../money/RevenueSplit.ts"
import type { CreditableLink } from "./attribution.ts"
import type { ConversionRecord } from "./ConversionRecord.ts"
import type { ReportingRatesShape } from "./reportingRates.ts"

// What the ledger stores for one record beyond the record itself: the link it
// is credited to, its amounts in the reporting currency, and the revenue
// split. Rules:
// - Declined and reversed conversions earn nothing (an approved -> reversed
//   move reverses revenue); without a partner the platform keeps the commission.
// - partner + platform = commission in the reporting currency, exactly
//   (domain/money/RevenueSplit.ts).
// - The partner's share is fixed when the conversion is first attributed to
//   that partner: renegotiating a share later does not rewrite history.
// - attributed_at is kept while the link stays the same: a later attribution
//   than the first sighting is what makes revenue "late".

/** DECIMAL(18,4) holds |x| < 10^14, i.e. 10^18 scaled units. */
const DECIMAL_LIMIT = 10n ** 18n

/** What the entry rules need of the conversion as stored before this record. */
export interface StoredAttribution {
  readonly trackingId: string | null
  readonly partnerId: number | null
  /** The share locked at first attribution ("0.7000"). */
  readonly revenueShare: string | null
  readonly attributedAt: Date | null
}

export interface LedgerEntry {
  readonly trackingId: string | null
  readonly partnerId: number | null
  readonly tag: string | null
  readonly reportingCurrency: string
  readonly commissionReporting: Scaled
  readonly orderAmountReporting: Scaled
  /** The rate used, rounded to 8 digits for display. */
  readonly fxRate: string
  /** The partner's share as stored text, null when no partner is credited. */
  readonly revenueShare: string | null
  readonly partnerShare: Scaled
  readonly platformShare: Scaled
  readonly attributedAt: Date | null
}

/**
 * Why a well-formed record still cannot be stored (no rate for its currency,
 * or an amount that overflows DECIMAL(18,4) once converted), or undefined.
 * Sources check this before writing so that a batch is all-or-nothing.
 */
export const unstorable = (
  rates: ReportingRatesShape,
  record: Pick<ConversionRecord, "commission" | "orderAmount" | "currency">
): string | undefined => {
  const commission = rates.toReporting(record.commission, record.currency)
  const order = rates.toReporting(record.orderAmount, record.currency)
  if (commission === undefined || order === undefined) {
    return `currency: no ${rates.reportingCurrency} rate for ${record.currency} in the rate table`
  }
  // A huge amount converted to a weak currency could overflow the column.
  if ([commission.value, order.value].some((value) => value >= DECIMAL_LIMIT || value <= -DECIMAL_LIMIT)) {
    return `order_amount: too large once converted to ${rates.reportingCurrency}`
  }
  return undefined
}

/** A share as canonical text ("0.7" -> "0.7000"). */
const shareText = (share: string) => formatDecimal(parseDecimal(share) ?? 0n)

/** The share text that applies: the stored one while the partner stays the same, else the link's current one. */
export const lockedShare = (
  partnerId: number | null,
  stored: Pick<StoredAttribution, "partnerId" | "revenueShare"> | undefined,
  linkShare: string | null
): string | null => {
  if (partnerId === null) return null
  if (stored !== undefined && stored.partnerId === partnerId && stored.revenueShare !== null) return stored.revenueShare
  return linkShare === null ? null : shareText(linkShare)
}

/** When the conversion was credited to `link`: kept from the stored row while the link is the same. */
export const attributedAtFor = (
  link: Pick<CreditableLink, "trackingId"> | undefined,
  stored: Pick<StoredAttribution, "trackingId" | "attributedAt"> | undefined,
  now: Date
): Date | null => {
  if (link === undefined) return null
  return stored?.trackingId === link.trackingId && stored.attributedAt !== null ? stored.attributedAt : now
}

/** The entry for `record` credited to `link` (undefined: unattributed), or why it cannot be stored. */
export const ledgerEntry = (
  rates: ReportingRatesShape,
  record: ConversionRecord,
  link: CreditableLink | undefined,
  stored: StoredAttribution | undefined,
  now: Date
): LedgerEntry | string => {
  const problem = unstorable(rates, record)
  if (problem !== undefined) return problem
  const commission = rates.toReporting(record.commission, record.currency)!
  const order = rates.toReporting(record.orderAmount, record.currency)!
  const partnerId = link?.partnerId ?? null
  const shareAsText = lockedShare(partnerId, stored, link?.share ?? null)
  const share: Ratio | undefined = shareAsText === null ? undefined : parseShare(shareAsText)
  const split = revenueFor(record.status, commission.value, share, rates.minorUnits)
  return {
    trackingId: link?.trackingId ?? null,
    partnerId,
    tag: link?.tag ?? null,
    reportingCurrency: rates.reportingCurrency,
    commissionReporting: commission.value,
    orderAmountReporting: order.value,
    fxRate: commission.rateText,
    revenueShare: share === undefined ? null : shareAsText,
    partnerShare: split.partner,
    platformShare: split.platform,
    attributedAt: attributedAtFor(link, stored, now)
  }
}
