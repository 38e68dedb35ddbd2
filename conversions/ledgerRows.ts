import { Schema } from "effect"
import type { CreditableLink } from "../domain/conversions/attribution.ts"
import {
  type ConversionRecord,
  conversionId,
  STATUSES,
  type UnattributedReason
} from "../domain/conversions/ConversionRecord.ts"
import { ledgerEntry, type StoredAttribution } from "../domain/conversions/ledgerEntry.ts"
import type { ReportingRatesShape } from "../domain/conversions/reportingRates.ts"
import type { StoredStatus } from "../domain/conversions/statusRules.ts"
import { formatDecimal, parseDecimal } from "../domain/money/Decimal.ts"
import { NullableNumber, NullableText, NullableTimestamp, Text, Timestamp } from "../infra/columns.ts"
import { attributionColumns, moneyColumns } from "./conversionColumns.ts"

// One conversions row as the ledger (ConversionLedger.ts) reads and writes
// it: the columns, their casts, and the mapping between the row and the plain
// values the ledger rules (domain/conversions/) decide on.

// Sources check a record with this before writing (a batch is all-or-nothing).
export { unstorable } from "../domain/conversions/ledgerEntry.ts"

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

/**
 * A stored conversion read back as the record its source reported, to be
 * written through the ledger again (a correction moved it, a click reference
 * found its link): select RECORD_COLUMNS into RecordRow, then recordOf.
 */
export const RecordRow = Schema.Struct({
  network_id: Text,
  network_tx_id: Text,
  click_ref: NullableText,
  order_amount: Text,
  commission: Text,
  currency: Text,
  status: Schema.Literals(STATUSES),
  event_at: Timestamp,
  network_updated_at: NullableTimestamp,
  source: Text
})
export const RECORD_COLUMNS = `network_id, network_tx_id, click_ref, order_amount::VARCHAR AS order_amount,
  commission::VARCHAR AS commission, currency, status, event_at, network_updated_at, source`
export const recordOf = (row: typeof RecordRow.Type): ConversionRecord => ({
  network: row.network_id,
  networkTxId: row.network_tx_id,
  clickRef: row.click_ref,
  orderAmount: parseDecimal(row.order_amount) ?? 0n,
  commission: parseDecimal(row.commission) ?? 0n,
  currency: row.currency,
  status: row.status,
  eventAt: row.event_at,
  updatedAt: row.network_updated_at
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
/**
 * Columns whose change is a real change (source and times of sighting are
 * not): every column but these, in COLUMNS order, which stored signatures depend on.
 */
const NOT_SIGNED: ReadonlyArray<(typeof COLUMNS)[number]> = [
  "id",
  "network_id",
  "network_tx_id",
  "fx_rate",
  "source",
  "created_at",
  "updated_at",
  "attributed_at"
]
const SIGNATURE = COLUMNS.filter((column) => !NOT_SIGNED.includes(column))

export type Row = Record<(typeof COLUMNS)[number], string | number | null>

export const decimalText = (value: string) => formatDecimal(parseDecimal(value) ?? 0n)
export const signatureOf = (row: Record<string, unknown>) =>
  SIGNATURE.map((column) => {
    const value = row[column]
    return value instanceof Date ? value.toISOString() : value === null || value === undefined ? "" : String(value)
  }).join("|")

/** The stored row as the status rules see it. */
export const storedStatus = (stored: Stored): StoredStatus => ({
  status: stored.status,
  updatedAt: stored.network_updated_at
})

/** The stored row as the entry rules see it. */
const storedAttribution = (stored: Stored): StoredAttribution => ({
  trackingId: stored.tracking_id,
  partnerId: stored.partner_id,
  revenueShare: stored.revenue_share,
  attributedAt: stored.attributed_at
})

/** The link as the attribution rules see it. */
export const creditableLink = (row: Link): CreditableLink => ({
  trackingId: row.tracking_id,
  partnerId: row.partner_id,
  tag: row.tag,
  share: row.share,
  networkId: row.network_id
})

/** The conversions row for `record`, by the ledger's rules (domain/conversions/), or why it cannot be stored. */
export const buildRow = (
  rates: ReportingRatesShape,
  record: ConversionRecord,
  link: CreditableLink | undefined,
  reason: UnattributedReason | null,
  stored: Stored | undefined,
  source: string,
  now: Date
): Row | string => {
  const entry = ledgerEntry(rates, record, link, stored === undefined ? undefined : storedAttribution(stored), now)
  if (typeof entry === "string") return entry
  return {
    id: conversionId(record.network, record.networkTxId),
    network_id: record.network,
    network_tx_id: record.networkTxId,
    click_ref: record.clickRef,
    tracking_id: entry.trackingId,
    partner_id: entry.partnerId,
    tag: entry.tag,
    currency: record.currency,
    order_amount: formatDecimal(record.orderAmount),
    commission: formatDecimal(record.commission),
    reporting_currency: entry.reportingCurrency,
    commission_reporting: formatDecimal(entry.commissionReporting),
    order_amount_reporting: formatDecimal(entry.orderAmountReporting),
    fx_rate: entry.fxRate,
    revenue_share: entry.revenueShare,
    partner_share: formatDecimal(entry.partnerShare),
    platform_share: formatDecimal(entry.platformShare),
    status: record.status,
    event_at: record.eventAt.toISOString(),
    network_updated_at: record.updatedAt?.toISOString() ?? null,
    source,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    attributed_at: entry.attributedAt?.toISOString() ?? null,
    unattributed_reason: reason
  }
}
