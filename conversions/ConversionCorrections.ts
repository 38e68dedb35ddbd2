import { Clock, Effect, Schema } from "effect"
import { formatDecimal, parseDecimal } from "../domain/money/Decimal.ts"
import { NullableTimestamp, Text, Timestamp } from "../infra/columns.ts"
import type { DatabaseError, JsonColumnType, Tx } from "../infra/Database.ts"
import { upsertConversions, type UpsertResult } from "./ConversionLedger.ts"
import {
  type ConversionRecord,
  type ConversionStatus,
  conversionId,
  EARNING_STATUSES,
  STATUSES
} from "./ConversionRecord.ts"
import type { ReportingRatesShape } from "./ReportingRates.ts"

// Corrections a network reports as records of their own (CJ: a record with
// original false, the originalActionId of the sale it corrects and the change
// as negative amounts). Each is kept once in conversion_corrections, and the
// corrected conversion's amounts are its own as reported plus the sum of its
// corrections: applied when the correction arrives (the stored conversion is
// rewritten through the ledger, which appends the conversion_events row and
// recomputes the revenue split) and again whenever the original is read anew,
// so a later report of the original (its status locking, say) never undoes a
// refund. A conversion corrected to no commission is reversed. A correction
// whose original is not known yet waits in the table for it.

export interface CorrectionsResult {
  /** Corrections seen for the first time in this batch. */
  readonly recorded: number
  /** Stored conversions (outside the batch) whose amounts they moved. */
  readonly applied: number
}

const SumRow = Schema.Struct({ conversion_id: Text, currency: Text, order_amount: Text, commission: Text })
const CreatedRow = Schema.Struct({ id: Text })
const StoredRow = Schema.Struct({
  network_id: Text,
  network_tx_id: Text,
  click_ref: Schema.NullOr(Text),
  order_amount: Text,
  commission: Text,
  currency: Text,
  status: Schema.Literals(STATUSES),
  event_at: Timestamp,
  network_updated_at: NullableTimestamp,
  source: Text
})

const COLUMNS = [
  "id",
  "conversion_id",
  "currency",
  "order_amount",
  "commission",
  "status",
  "reason",
  "event_at",
  "network_updated_at",
  "source",
  "seen_at"
] as const
const allText = Object.fromEntries(COLUMNS.map((column) => [column, "VARCHAR"])) as Record<string, JsonColumnType>

const decimal = (text: string) => parseDecimal(text) ?? 0n

/** The record with its amounts moved by `delta`; reversed when nothing is left to earn. */
const corrected = (
  record: ConversionRecord,
  delta: { readonly order: bigint; readonly commission: bigint }
): ConversionRecord => {
  const commission = record.commission + delta.commission
  const earning = (EARNING_STATUSES as ReadonlyArray<ConversionStatus>).includes(record.status)
  return {
    ...record,
    orderAmount: record.orderAmount + delta.order,
    commission,
    status: earning && commission <= 0n ? "reversed" : record.status
  }
}

/** Stores the batch's corrections not seen before; returns them. */
const recordNew = (tx: Tx, corrections: ReadonlyArray<ConversionRecord>, source: string, now: Date) =>
  Effect.gen(function* () {
    if (corrections.length === 0) return []
    const rows = corrections.map((record) => ({
      id: conversionId(record.network, record.networkTxId),
      conversion_id: conversionId(record.network, record.correctionOf!),
      currency: record.currency,
      order_amount: formatDecimal(record.orderAmount),
      commission: formatDecimal(record.commission),
      status: record.status,
      reason: record.correctionReason ?? null,
      event_at: record.eventAt.toISOString(),
      network_updated_at: record.updatedAt?.toISOString() ?? null,
      source,
      seen_at: now.toISOString()
    }))
    const created = yield* tx.queryAs(
      CreatedRow,
      `INSERT INTO conversion_corrections (${COLUMNS.join(", ")})
       SELECT id, conversion_id, currency, order_amount::DECIMAL(18,4), commission::DECIMAL(18,4), status, reason,
              event_at::TIMESTAMPTZ, network_updated_at::TIMESTAMPTZ, source, seen_at::TIMESTAMPTZ
       FROM ${tx.jsonRows("$1", allText)}
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [JSON.stringify(rows)]
    )
    const ids = new Set(created.map(({ id }) => id))
    return rows.filter((row) => ids.has(row.id))
  })

/** Sum of the stored corrections per conversion id and currency. */
const sums = (tx: Tx, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const out = new Map<string, { currency: string; order: bigint; commission: bigint }>()
    if (ids.length === 0) return out
    const rows = yield* tx.queryAs(
      SumRow,
      `SELECT conversion_id, currency, sum(order_amount)::VARCHAR AS order_amount, sum(commission)::VARCHAR AS commission
       FROM conversion_corrections WHERE conversion_id IN ${tx.jsonList("$1")} GROUP BY conversion_id, currency`,
      [JSON.stringify(ids)]
    )
    for (const row of rows)
      out.set(`${row.conversion_id}|${row.currency}`, {
        currency: row.currency,
        order: decimal(row.order_amount),
        commission: decimal(row.commission)
      })
    return out
  })

/** Moves stored conversions (not in the batch) by the corrections just recorded, through the ledger. */
const correctStored = (
  tx: Tx,
  rates: ReportingRatesShape,
  fresh: ReadonlyArray<{
    conversion_id: string
    currency: string
    order_amount: string
    commission: string
    reason: string | null
  }>,
  source: string
) =>
  Effect.gen(function* () {
    if (fresh.length === 0) return 0
    const rows = yield* tx.queryAs(
      StoredRow,
      `SELECT network_id, network_tx_id, click_ref, order_amount::VARCHAR AS order_amount, commission::VARCHAR AS commission,
              currency, status, event_at, network_updated_at, source
       FROM conversions WHERE id IN ${tx.jsonList("$1")}`,
      [JSON.stringify([...new Set(fresh.map((row) => row.conversion_id))])]
    )
    const records = rows.flatMap((row) => {
      const id = conversionId(row.network_id, row.network_tx_id)
      // A correction in another currency than the conversion's cannot be added to it: it stays recorded, unapplied.
      const mine = fresh.filter((c) => c.conversion_id === id && c.currency === row.currency)
      if (mine.length === 0) return []
      const delta = mine.reduce(
        (sum, c) => ({
          order: sum.order + decimal(c.order_amount),
          commission: sum.commission + decimal(c.commission)
        }),
        { order: 0n, commission: 0n }
      )
      const stored: ConversionRecord = {
        network: row.network_id,
        networkTxId: row.network_tx_id,
        clickRef: row.click_ref,
        orderAmount: decimal(row.order_amount),
        commission: decimal(row.commission),
        currency: row.currency,
        status: row.status,
        eventAt: row.event_at,
        // Unchanged: the original's own later reports must not look stale next to a correction's date.
        updatedAt: row.network_updated_at
      }
      // The reasons travel with the write, so the ledger files its adjustment as a correction.
      const reasons = [...new Set(mine.flatMap((c) => (c.reason === null ? [] : [c.reason])))]
      return [{ ...corrected(stored, delta), correctionReason: reasons.join("; ") }]
    })
    if (records.length === 0) return 0
    return (yield* upsertConversions(tx, rates, records, source)).updated
  })

/**
 * Upserts a batch that may hold corrections: the corrections are recorded,
 * the batch's conversions are written with every stored correction of theirs
 * applied, and stored conversions outside the batch are moved by the new ones.
 */
export const upsertWithCorrections = (
  tx: Tx,
  rates: ReportingRatesShape,
  records: ReadonlyArray<ConversionRecord>,
  source: string
): Effect.Effect<UpsertResult & { readonly corrections: CorrectionsResult }, DatabaseError> =>
  Effect.gen(function* () {
    const corrections = records.filter((record) => record.correctionOf !== undefined)
    const conversions = records.filter((record) => record.correctionOf === undefined)
    const now = new Date(yield* Clock.currentTimeMillis)
    const fresh = yield* recordNew(tx, corrections, source, now)
    const ids = [...new Set(conversions.map((record) => conversionId(record.network, record.networkTxId)))]
    const totals = yield* sums(tx, ids)
    const adjusted = conversions.map((record) => {
      const id = conversionId(record.network, record.networkTxId)
      const total = totals.get(`${id}|${record.currency}`)
      if (total === undefined) return record
      // Corrections new in this batch move a stored conversion: the ledger files that as a correction.
      const reasons = fresh.flatMap((c) => (c.conversion_id === id && c.currency === record.currency ? [c.reason] : []))
      const reason =
        reasons.length === 0 ? {} : { correctionReason: [...new Set(reasons.filter((r) => r !== null))].join("; ") }
      return { ...corrected(record, total), ...reason }
    })
    const loaded = yield* upsertConversions(tx, rates, adjusted, source)
    const inBatch = new Set(ids)
    const applied = yield* correctStored(
      tx,
      rates,
      fresh.filter((row) => !inBatch.has(row.conversion_id)),
      source
    )
    return { ...loaded, corrections: { recorded: fresh.length, applied } }
  })
