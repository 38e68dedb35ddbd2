import { Clock, Effect, Schema } from "effect"
import { type ConversionRecord, conversionId } from "../domain/conversions/ConversionRecord.ts"
import { type Correction, corrected, correctionsByConversion } from "../domain/conversions/corrections.ts"
import { formatDecimal, parseDecimal } from "../domain/money/Decimal.ts"
import { Text } from "../infra/columns.ts"
import type { DatabaseError, JsonColumnType, Tx } from "../infra/Database.ts"
import { forEachInSlices, forEachSlice } from "../infra/yieldToEventLoop.ts"
import { IDS_PER_LOOKUP, upsertConversions, type UpsertResult } from "./ConversionLedger.ts"
import { RECORD_COLUMNS, recordOf, RecordRow } from "./ledgerRows.ts"
import type { ReportingRatesShape } from "./ReportingRates.ts"

// Corrections a network reports as records of their own (CJ). Each is kept
// once in conversion_corrections (its id is the key), and the corrected
// conversion is rewritten through the ledger, which appends the
// conversion_events row and recomputes the revenue split: when the correction
// arrives, and again whenever the original is read anew. How a correction
// moves a conversion is a domain rule (domain/conversions/corrections.ts). A
// correction whose original is not known yet waits in the table for it.

export interface CorrectionsResult {
  /** Corrections seen for the first time in this batch. */
  readonly recorded: number
  /** Stored conversions (outside the batch) whose amounts they moved. */
  readonly applied: number
}

const CorrectionRow = Schema.Struct({
  id: Text,
  conversion_id: Text,
  currency: Text,
  order_amount: Text,
  commission: Text
})
const CreatedRow = Schema.Struct({ id: Text })

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

const asCorrection = (row: {
  readonly id: string
  readonly conversion_id: string
  readonly currency: string
  readonly order_amount: string
  readonly commission: string
}): Correction => ({
  id: row.id,
  conversionId: row.conversion_id,
  currency: row.currency,
  orderAmount: decimal(row.order_amount),
  commission: decimal(row.commission)
})

/** A correction just recorded, with its reason (the adjustment's, ConversionAdjustments.ts). */
type FreshCorrection = Correction & { readonly reason: string | null }

const asFresh = (row: Parameters<typeof asCorrection>[0] & { readonly reason: string | null }): FreshCorrection => ({
  ...asCorrection(row),
  reason: row.reason
})

/**
 * The reasons of the corrections just recorded for one conversion (`own`, in
 * `currency`): they travel with its write, so the ledger files the adjustment
 * as a correction (ConversionAdjustments.ts).
 */
const reasonsFor = (
  own: ReadonlyArray<FreshCorrection> | undefined,
  currency: string
): { readonly correctionReason?: string } => {
  const mine = (own ?? []).filter((c) => c.currency === currency)
  if (mine.length === 0) return {}
  return { correctionReason: [...new Set(mine.flatMap((c) => (c.reason === null ? [] : [c.reason])))].join("; ") }
}

const NONE: ReadonlyArray<Correction> = []

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

/** The stored corrections of conversions `ids`, a chunk of ids per query (a report's batch may hold 200,000). */
const storedCorrections = (tx: Tx, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const found: Array<Correction> = []
    yield* forEachSlice(ids, IDS_PER_LOOKUP, (slice) =>
      tx
        .queryAs(
          CorrectionRow,
          `SELECT id, conversion_id, currency, order_amount::VARCHAR AS order_amount, commission::VARCHAR AS commission
           FROM conversion_corrections WHERE conversion_id IN ${tx.jsonList("$1")}`,
          [JSON.stringify(slice)]
        )
        .pipe(Effect.map((rows) => void found.push(...rows.map(asCorrection))))
    )
    return found
  })

/**
 * Moves stored conversions `ids` (not in the batch) by the corrections just
 * recorded (`freshOf`, by conversion), through the ledger.
 */
const correctStored = (
  tx: Tx,
  rates: ReportingRatesShape,
  ids: ReadonlyArray<string>,
  freshOf: ReadonlyMap<string, ReadonlyArray<FreshCorrection>>,
  source: string
) =>
  Effect.gen(function* () {
    if (ids.length === 0) return 0
    const rows = yield* tx.queryAs(
      RecordRow,
      `SELECT ${RECORD_COLUMNS} FROM conversions WHERE id IN ${tx.jsonList("$1")}`,
      [JSON.stringify(ids)]
    )
    const records = rows.flatMap((row) => {
      // updatedAt unchanged: the original's own later reports must not look stale next to a correction's date.
      const stored = recordOf(row)
      const own = freshOf.get(conversionId(row.network_id, row.network_tx_id))
      // Stored amounts already hold the earlier corrections: only the ones just recorded move them.
      const moved = corrected(stored, own ?? NONE)
      return moved === undefined ? [] : [{ ...moved, ...reasonsFor(own, row.currency) }]
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
    const fresh = (yield* recordNew(tx, corrections, source, now)).map(asFresh)
    // A slice of the batch at a time, as the ledger does: a report may hold 200,000 of them.
    const unique = new Set<string>()
    yield* forEachInSlices(conversions, (record) => unique.add(conversionId(record.network, record.networkTxId)))
    const ids = [...unique]
    // The batch's conversions as reported, with every stored correction of theirs applied.
    const stored = correctionsByConversion(yield* storedCorrections(tx, ids))
    const freshOf = correctionsByConversion(fresh)
    const adjusted: Array<ConversionRecord> = []
    yield* forEachInSlices(conversions, (record) => {
      const id = conversionId(record.network, record.networkTxId)
      const moved = corrected(record, stored.get(id) ?? NONE)
      // Corrections new in this batch move a stored conversion: the ledger files that as a correction.
      adjusted.push(moved === undefined ? record : { ...moved, ...reasonsFor(freshOf.get(id), record.currency) })
    })
    const loaded = yield* upsertConversions(tx, rates, adjusted, source)
    const outside = [...freshOf.keys()].filter((id) => !unique.has(id))
    const applied = yield* correctStored(tx, rates, outside, freshOf, source)
    return { ...loaded, corrections: { recorded: fresh.length, applied } }
  })
