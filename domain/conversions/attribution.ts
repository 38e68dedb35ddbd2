import type { ConversionRecord, UnattributedReason } from "./ConversionRecord.ts"

// Who a conversion is credited to. A network reports the click reference it
// was given (our tracking id); the conversion is credited to that tracking
// link only when the link's programme is on the network reporting it, so a
// network cannot take another network's (or an unaffiliated) link's clicks by
// naming its id. Otherwise the conversion is kept unattributed, with why.

/** A tracking link a conversion may be credited to. */
export interface CreditableLink {
  readonly trackingId: string
  readonly partnerId: number | null
  readonly tag: string
  /** The partner's current revenue share ("0.7000"), null without a partner. */
  readonly share: string | null
  /** The network of the link's programme; null for a link to no affiliate programme. */
  readonly networkId: string | null
}

export type Attribution<L> =
  { readonly link: L; readonly reason: null } | { readonly link: undefined; readonly reason: UnattributedReason }

/** The record's link among `links` (by tracking id), only when that link's programme is on the reporting network. */
export const attribution = <L extends Pick<CreditableLink, "networkId">>(
  record: Pick<ConversionRecord, "network" | "clickRef">,
  links: ReadonlyMap<string, L>
): Attribution<L> => {
  if (record.clickRef === null) return { link: undefined, reason: "no_click_ref" }
  const link = links.get(record.clickRef)
  if (link === undefined) return { link: undefined, reason: "unknown_link" }
  if (link.networkId !== record.network) return { link: undefined, reason: "network_mismatch" }
  return { link, reason: null }
}
