import { Schema } from "effect"
import { formatDecimal, parseDecimal, type Ratio, type Scaled } from "../domain/money/Decimal.ts"
import { parseShare, revenueFor } from "../domain/money/RevenueSplit.ts"
import { NullableNumber, NullableText, NullableTimestamp, Text, Timestamp } from "../infra/columns.ts"
import { attributionColumns, moneyColumns } from "./conversionColumns.ts"
import { type ConversionRecord, conversionId, type UnattributedReason } from "./ConversionRecord.ts"
import type { ReportingRatesShape } from "./ReportingRates.ts"

// One conversions row as the ledger (ConversionLedger.ts) builds it from a
// record: the link it is credited to, money in both currencies, the revenue
// split, and the rules deciding whether a record may change a stored row.

export const LinkRow = Schema.Struct({
  tracking_id: Text,
  partner_id: NullableNumber,
  tag: Text,
  share: NullableText,
  network_id: NullableText
})
export type Link = typeof LinkRow.Type

export const StoredRow = Schema.Struct({
  id: Text,
  ...attributionColumns,
  ...moneyColumns,
  status: Text,
  event_at: Timestamp,
  network_updated_at: NullableTimestamp,
  attributed_at: NullableTimestamp,
  unattributed_reason: NullableText
})

export interface Stored {
  readonly id: string
  readonly status: string
  readonly order_amount: string
  readonly commission: string
  readonly currency: string
  readonly tracking_id: string | null
  readonly partner_id: number | null
  readonly revenue_share: string | null
  readonly commission_reporting: string
  readonly partner_share: string
  readonly platform_share: string
  readonly network_updated_at: Date | null
  readonly attributed_at: Date | null
  readonly unattributed_reason: string | null
  readonly signature: string
}

export const COLUMNS = [
  "id",
  "network_id",
  "network_tx_id",
  "click_ref",
  "tracking_id",
  "partner_id",
  "tag",
  "currency",
  "order_amount",
  "commission",
  "reporting_currency",
  "commission_reporting",
  "order_amount_reporting",
  "fx_rate",
  "revenue_share",
  "partner_share",
  "platform_share",
  "status",
  "event_at",
  "network_updated_at",
  "source",
  "created_at",
  "updated_at",
  "attributed_at",
  "unattributed_reason"
] as const
export const CASTS: Partial<Record<(typeof COLUMNS)[number], string>> = {
  partner_id: "INTEGER",
  order_amount: "DECIMAL(18,4)",
  commission: "DECIMAL(18,4)",
  commission_reporting: "DECIMAL(18,4)",
  order_amount_reporting: "DECIMAL(18,4)",
  fx_rate: "DECIMAL(18,8)",
  revenue_share: "DECIMAL(6,4)",
  partner_share: "DECIMAL(18,4)",
  platform_share: "DECIMAL(18,4)",
  event_at: "TIMESTAMPTZ",
  network_updated_at: "TIMESTAMPTZ",
  created_at: "TIMESTAMPTZ",
  updated_at: "TIMESTAMPTZ",
  attributed_at: "TIMESTAMPTZ"
}
/** Columns whose change is a real change (source and times of sighting are not). */
const SIGNATURE = [
  "click_ref",
  "tracking_id",
  "partner_id",
  "tag",
  "currency",
  "order_amount",
  "commission",
  "reporting_currency",
  "commission_reporting",
  "order_amount_reporting",
  "revenue_share",
  "partner_share",
  "platform_share",
  "status",
  "event_at",
  "network_updated_at",
  "unattributed_reason"
] as const
const DECIMAL_LIMIT = 10n ** 18n

export type Row = Record<(typeof COLUMNS)[number], string | number | null>

export const decimalText = (value: string) => formatDecimal(parseDecimal(value) ?? 0n)
export const signatureOf = (row: Record<string, unknown>) =>
  SIGNATURE.map((column) => {
    const value = row[column]
    return value instanceof Date ? value.toISOString() : value === null || value === undefined ? "" : String(value)
  }).join("|")

const UNEARNING = new Set<string>(["declined", "reversed"])

/**
 * A record older than what we stored. With both update times known, the
 * older loses. A record without one (a pending Awin transaction has no
 * validationDate) may not move a settled conversion back to pending. Revenue
 * declined or reversed comes back only with a newer update time than the
 * stored one: without that, an approval sent again is old news.
 */
export const isStale = (stored: Stored, record: ConversionRecord) => {
  const storedAt = stored.network_updated_at
  if (UNEARNING.has(stored.status) && !UNEARNING.has(record.status)) {
    return storedAt === null || record.updatedAt === null || record.updatedAt <= storedAt
  }
  if (storedAt === null) return false
  if (record.updatedAt !== null) return record.updatedAt < storedAt
  return record.status === "pending" && stored.status !== "pending"
}

/** The record's link, only when that link's programme is on the network reporting the conversion. */
export const attribution = (
  record: ConversionRecord,
  links: ReadonlyMap<string, Link>
): { readonly link: Link | undefined; readonly reason: UnattributedReason | null } => {
  if (record.clickRef === null) return { link: undefined, reason: "no_click_ref" }
  const link = links.get(record.clickRef)
  if (link === undefined) return { link: undefined, reason: "unknown_link" }
  if (link.network_id !== record.network) return { link: undefined, reason: "network_mismatch" }
  return { link, reason: null }
}

/**
 * Why a well-formed record still cannot be stored (no rate for its currency,
 * or an amount that overflows DECIMAL(18,4) once converted), or undefined.
 * Sources check this before writing so that a batch is all-or-nothing.
 */
export const unstorable = (rates: ReportingRatesShape, record: ConversionRecord): string | undefined => {
  const commission = rates.toReporting(record.commission, record.currency)
  const order = rates.toReporting(record.orderAmount, record.currency)
  if (commission === undefined || order === undefined) {
    return `currency: no ${rates.reportingCurrency} rate for ${record.currency} in the rate table`
  }
  // DECIMAL(18,4) holds |x| < 10^14; a huge amount converted to a weak currency could overflow it.
  if ([commission.value, order.value].some((value) => value >= DECIMAL_LIMIT || value <= -DECIMAL_LIMIT)) {
    return `order_amount: too large once converted to ${rates.reportingCurrency}`
  }
  return undefined
}

const shareText = (share: string | null) => (share === null ? null : formatDecimal(parseDecimal(share) ?? 0n))

export const buildRow = (
  rates: ReportingRatesShape,
  record: ConversionRecord,
  link: Link | undefined,
  reason: UnattributedReason | null,
  stored: Stored | undefined,
  source: string,
  now: Date
): Row | string => {
  const problem = unstorable(rates, record)
  if (problem !== undefined) return problem
  const commission = rates.toReporting(record.commission, record.currency)!
  const order = rates.toReporting(record.orderAmount, record.currency)!
  const partnerId = link?.partner_id ?? null
  // The share is locked at first attribution to this partner.
  const shareAsText =
    partnerId === null
      ? null
      : stored !== undefined && stored.partner_id === partnerId && stored.revenue_share !== null
        ? stored.revenue_share
        : shareText(link?.share ?? null)
  const share: Ratio | undefined = shareAsText === null ? undefined : parseShare(shareAsText)
  const split = revenueFor(record.status, commission.value, share, rates.minorUnits)
  const money = (value: Scaled) => formatDecimal(value)
  return {
    id: conversionId(record.network, record.networkTxId),
    network_id: record.network,
    network_tx_id: record.networkTxId,
    click_ref: record.clickRef,
    tracking_id: link?.tracking_id ?? null,
    partner_id: partnerId,
    tag: link?.tag ?? null,
    currency: record.currency,
    order_amount: money(record.orderAmount),
    commission: money(record.commission),
    reporting_currency: rates.reportingCurrency,
    commission_reporting: money(commission.value),
    order_amount_reporting: money(order.value),
    fx_rate: commission.rateText,
    revenue_share: share === undefined ? null : shareAsText,
    partner_share: money(split.partner),
    platform_share: money(split.platform),
    status: record.status,
    event_at: record.eventAt.toISOString(),
    network_updated_at: record.updatedAt?.toISOString() ?? null,
    source,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    // Kept while the link stays the same: a later attribution than created_at is what makes revenue "late".
    attributed_at:
      link === undefined
        ? null
        : stored?.tracking_id === link.tracking_id && stored.attributed_at !== null
          ? stored.attributed_at.toISOString()
          : now.toISOString(),
    unattributed_reason: reason
  }
}
