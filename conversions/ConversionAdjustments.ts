import { Effect } from "effect"
import { formatDecimal, parseDecimal } from "../domain/money/Decimal.ts"
import type { JsonColumnType, Tx } from "../infra/Database.ts"
import { EARNING_STATUSES } from "./ConversionRecord.ts"

// Adjustments: what a change reported for a conversion already in the ledger
// moved in money: a correction (CJ's record of its own, applied through
// ConversionCorrections), an amended amount (Awin, Impact), a reversal
// (declined or reversed after it earned) or a reinstatement. The ledger
// writes one row per such change, in the transaction that changes the
// conversion, with the exact differences of its stored shares, so the
// partner sees on the day a change arrived what it did to their revenue
// (GET /api/v1/partners/me) while totals per sale day stay net.
//
// Not an adjustment: a status change that moves no money (pending ->
// approved), a first sighting (a sale read together with its correction is
// credited net from the start), or a change of who is credited
// (re-attribution: reported as late revenue instead).

export type AdjustmentKind = "correction" | "amendment" | "reversal" | "reinstatement"

type Value = string | number | null | undefined

/** The columns of a conversions row an adjustment reads (the stored row before a write, the row written). */
export interface SharesRow {
  readonly partner_id: Value
  readonly status: Value
  readonly commission_reporting: Value
  readonly partner_share: Value
  readonly platform_share: Value
}
export interface WrittenRow extends SharesRow {
  readonly id: Value
  readonly network_id: Value
  readonly tracking_id: Value
  readonly reporting_currency: Value
  readonly event_at: Value
}

export interface Adjustment {
  readonly conversion_id: string
  readonly network_id: string
  readonly partner_id: string | null
  readonly tracking_id: string | null
  readonly kind: AdjustmentKind
  readonly reason: string | null
  readonly previous_status: string
  readonly status: string
  readonly reporting_currency: string
  readonly commission_change: string
  readonly partner_share_change: string
  readonly platform_share_change: string
  readonly event_at: string
  readonly arrived_at: string
  readonly source: string
}

const scaled = (value: Value) => parseDecimal(String(value ?? "0")) ?? 0n
const earns = (status: unknown) => (EARNING_STATUSES as ReadonlyArray<unknown>).includes(status)
const text = (value: Value) => (value === null || value === undefined ? null : String(value))

/**
 * The adjustment a write makes, or undefined. `correctionReason` is set when
 * the change comes from correction records (ConversionCorrections).
 */
export const adjustmentOf = (
  previous: SharesRow,
  row: WrittenRow,
  correctionReason: string | undefined,
  arrivedAt: Date,
  source: string
): Adjustment | undefined => {
  // Another partner (or none) now credited: re-attribution, not an adjustment.
  if (text(previous.partner_id) !== text(row.partner_id)) return undefined
  const commission = scaled(row.commission_reporting) - scaled(previous.commission_reporting)
  const partner = scaled(row.partner_share) - scaled(previous.partner_share)
  const platform = scaled(row.platform_share) - scaled(previous.platform_share)
  // A declined conversion's amended amount, or pending -> approved, moves nothing credited.
  if (partner === 0n && platform === 0n) return undefined
  const wasEarning = earns(previous.status)
  const isEarning = earns(row.status)
  const kind: AdjustmentKind =
    wasEarning && !isEarning
      ? "reversal"
      : !wasEarning && isEarning
        ? "reinstatement"
        : correctionReason !== undefined
          ? "correction"
          : "amendment"
  return {
    conversion_id: String(row.id),
    network_id: String(row.network_id),
    partner_id: text(row.partner_id),
    tracking_id: text(row.tracking_id),
    kind,
    reason: kind === "correction" && correctionReason !== "" ? (correctionReason ?? null) : null,
    previous_status: String(previous.status),
    status: String(row.status),
    reporting_currency: String(row.reporting_currency),
    commission_change: formatDecimal(commission),
    partner_share_change: formatDecimal(partner),
    platform_share_change: formatDecimal(platform),
    event_at: String(row.event_at),
    arrived_at: arrivedAt.toISOString(),
    source
  }
}

const COLUMNS = [
  "conversion_id",
  "network_id",
  "partner_id",
  "tracking_id",
  "kind",
  "reason",
  "previous_status",
  "status",
  "reporting_currency",
  "commission_change",
  "partner_share_change",
  "platform_share_change",
  "event_at",
  "arrived_at",
  "source"
] as const
const allText = Object.fromEntries(COLUMNS.map((column) => [column, "VARCHAR"])) as Record<string, JsonColumnType>

/** Appends the adjustments, in the ledger's transaction (one JSON parameter: decimals stay exact). */
export const writeAdjustments = (tx: Tx, adjustments: ReadonlyArray<Adjustment>) =>
  adjustments.length === 0
    ? Effect.void
    : tx.run(
        `INSERT INTO conversion_adjustments (${COLUMNS.join(", ")})
         SELECT conversion_id, network_id, partner_id::INTEGER, tracking_id, kind, reason, previous_status, status,
                reporting_currency, commission_change::DECIMAL(18,4), partner_share_change::DECIMAL(18,4),
                platform_share_change::DECIMAL(18,4), event_at::TIMESTAMPTZ, arrived_at::TIMESTAMPTZ, source
         FROM ${tx.jsonRows("$1", allText)}`,
        [JSON.stringify(adjustments)]
      )
