import type { Scaled } from "../money/Decimal.ts"

// One conversion as every report format and the postback normalise it. The
// ledger only ever sees this shape.
export const STATUSES = ["pending", "approved", "declined", "reversed"] as const
export type ConversionStatus = (typeof STATUSES)[number]

/** Statuses that earn revenue and count in statistics; declined/reversed earn nothing. */
export const EARNING_STATUSES: ReadonlyArray<ConversionStatus> = ["pending", "approved"]

export interface ConversionRecord {
  /** Network slug (networks.id), e.g. "awin". */
  readonly network: string
  /** The network's own transaction id; with `network` it identifies the conversion. */
  readonly networkTxId: string
  /** The sub-id value the network reported: our tracking link id, when it came through us. */
  readonly clickRef: string | null
  /** Exact amounts in `currency` (scaled, see domain/money/Decimal.ts). */
  readonly orderAmount: Scaled
  readonly commission: Scaled
  readonly currency: string
  readonly status: ConversionStatus
  readonly eventAt: Date
  /** When the network last changed it; null when the format does not say. */
  readonly updatedAt: Date | null
  /**
   * Set when the record is not a conversion but a correction of one, reported
   * as a record of its own (CJ): the corrected conversion's networkTxId. Its
   * amounts are the change (usually negative) and networkTxId is the
   * correction's own id (applied by domain/conversions/corrections.ts).
   */
  readonly correctionOf?: string | undefined
  /**
   * The network's reason for a correction, when it gives one. On a conversion
   * (no correctionOf) moved by its corrections: their reasons ("" for none),
   * so the ledger files the change as a correction (conversions/ConversionAdjustments.ts).
   */
  readonly correctionReason?: string | undefined
}

/**
 * Why a conversion is credited to no tracking link: the network reported no
 * click reference, one that names no link here, or a link whose programme is
 * on another network than the one reporting it.
 */
export const UNATTRIBUTED_REASONS = ["no_click_ref", "unknown_link", "network_mismatch"] as const
export type UnattributedReason = (typeof UNATTRIBUTED_REASONS)[number]

export const conversionId = (network: string, networkTxId: string) => `${network}:${networkTxId}`
