import { type ConversionRecord, conversionId } from "./ConversionRecord.ts"

// Which report of a conversion wins. Networks re-send old reports, reports
// arrive out of order and postbacks are replayed, so a record only changes the
// stored conversion when it is not older news than what the ledger holds.

/** The stored conversion, as far as the status rules need it. */
export interface StoredStatus {
  readonly status: string
  /** When the network last changed it; null when no report said. */
  readonly updatedAt: Date | null
}

/** Statuses that earn nothing: leaving one restores revenue. */
const UNEARNING = new Set<string>(["declined", "reversed"])

export const earnsNothing = (status: string) => UNEARNING.has(status)

/**
 * A record older than what we stored. With both update times known, the
 * older loses. A record without one (a pending Awin transaction has no
 * validationDate) may not move a settled conversion back to pending. Revenue
 * declined or reversed comes back only with a newer update time than the
 * stored one: without that, an approval sent again is old news.
 */
export const isStale = (stored: StoredStatus, record: Pick<ConversionRecord, "status" | "updatedAt">) => {
  const storedAt = stored.updatedAt
  if (UNEARNING.has(stored.status) && !UNEARNING.has(record.status)) {
    return storedAt === null || record.updatedAt === null || record.updatedAt <= storedAt
  }
  if (storedAt === null) return false
  if (record.updatedAt !== null) return record.updatedAt < storedAt
  return record.status === "pending" && stored.status !== "pending"
}

/** The record kept per conversion id, with its position in its batch. */
export type LatestById<R> = Map<string, { readonly record: R; readonly index: number }>

/**
 * Keeps `record` (at `index` in its batch) in `byId` unless the record kept
 * for its conversion id was updated later: the most recently updated one
 * stays, the later one in the input on a tie or when either has no time.
 */
export const keepLatest = <R extends Pick<ConversionRecord, "network" | "networkTxId" | "updatedAt">>(
  byId: LatestById<R>,
  record: R,
  index: number
): void => {
  const id = conversionId(record.network, record.networkTxId)
  const previous = byId.get(id)
  const older =
    previous !== undefined &&
    previous.record.updatedAt !== null &&
    record.updatedAt !== null &&
    record.updatedAt < previous.record.updatedAt
  if (!older) byId.set(id, { record, index })
}

/** What a conversion's history (conversion_events) records: its status and its amounts as reported. */
export interface Movable {
  readonly status: string
  readonly orderAmount: string
  readonly commission: string
  readonly currency: string
}

/** A first sighting, or a change of status or of the reported amounts: worth a line in the history. */
export const isMove = (previous: Movable | undefined, next: Movable) =>
  previous === undefined ||
  previous.status !== next.status ||
  previous.commission !== next.commission ||
  previous.orderAmount !== next.orderAmount ||
  previous.currency !== next.currency
