import type { Scaled } from "../money/Decimal.ts"
import { type ConversionRecord, conversionId, EARNING_STATUSES } from "./ConversionRecord.ts"

// Corrections a network reports as records of their own (CJ: a record with
// original false, the originalActionId of the sale it corrects and the change
// as negative amounts). A corrected conversion's amounts are its own as
// reported plus the sum of its corrections, each correction counted once
// (by its id) however often it is reported, so correcting is a function of
// the original and the set of its corrections: a later report of the original
// (its status locking, say) never undoes a refund, and a correction sent
// again never refunds twice. A conversion corrected to no commission is
// reversed. A correction in another currency than the conversion's cannot be
// added to it: it stays recorded, unapplied.

/** One correction as recorded (conversion_corrections). */
export interface Correction {
  /** The correction's own id ('{network}:{its network_tx_id}'). */
  readonly id: string
  /** The id of the conversion it corrects. */
  readonly conversionId: string
  readonly currency: string
  /** The change, usually negative. */
  readonly orderAmount: Scaled
  readonly commission: Scaled
}

export interface CorrectionTotal {
  readonly order: Scaled
  readonly commission: Scaled
}

/** The record with its amounts moved by `total`; reversed when nothing is left to earn. */
export const moveBy = (record: ConversionRecord, total: CorrectionTotal): ConversionRecord => {
  const commission = record.commission + total.commission
  const earning = EARNING_STATUSES.includes(record.status)
  return {
    ...record,
    orderAmount: record.orderAmount + total.order,
    commission,
    status: earning && commission <= 0n ? "reversed" : record.status
  }
}

/** The sum of the corrections of conversion `id` in `currency`, each id counted once; undefined when none applies. */
export const correctionTotal = (
  id: string,
  currency: string,
  corrections: ReadonlyArray<Correction>
): CorrectionTotal | undefined => {
  // Of two reports of one correction the first is the one recorded, whatever it applies to.
  const recorded = new Map<string, Correction>()
  for (const correction of corrections) if (!recorded.has(correction.id)) recorded.set(correction.id, correction)
  const applying = [...recorded.values()].filter(
    (correction) => correction.conversionId === id && correction.currency === currency
  )
  if (applying.length === 0) return undefined
  let order = 0n
  let commission = 0n
  for (const correction of applying) {
    order += correction.orderAmount
    commission += correction.commission
  }
  return { order, commission }
}

/** `record` (as the network reports it) with its corrections among `corrections` applied; undefined when none applies. */
export const corrected = (
  record: ConversionRecord,
  corrections: ReadonlyArray<Correction>
): ConversionRecord | undefined => {
  const total = correctionTotal(conversionId(record.network, record.networkTxId), record.currency, corrections)
  return total === undefined ? undefined : moveBy(record, total)
}

/**
 * `corrections` grouped by the conversion each applies to, each correction id
 * once (its first report, as correctionTotal counts them): a batch's records
 * then read only their own (corrected over the whole list, a batch of n
 * conversions and m corrections cost n * m).
 */
export const correctionsByConversion = <C extends Correction>(
  corrections: ReadonlyArray<C>
): ReadonlyMap<string, ReadonlyArray<C>> => {
  const seen = new Set<string>()
  const byConversion = new Map<string, Array<C>>()
  for (const correction of corrections) {
    if (seen.has(correction.id)) continue
    seen.add(correction.id)
    const own = byConversion.get(correction.conversionId)
    if (own === undefined) byConversion.set(correction.conversionId, [correction])
    else own.push(correction)
  }
  return byConversion
}
