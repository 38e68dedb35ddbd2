import { Option } from "effect"
import type { HttpServerRequest } from "effect/http"

// Who the client is, for rate limits and unique visitors. Without a proxy of
// ours in front (TRUST_PROXY=0) it is the socket peer: X-Forwarded-For is
// whatever the client chose to send. Behind N proxies of ours, each appends
// the address it saw to X-Forwarded-For, so the client is the N-th entry from
// the RIGHT: the address our outermost proxy saw. Everything left of it was
// written by the client itself (a spoofed first hop would otherwise dodge
// rate limits and fake unique visitors).

/** The longest entry taken as an address (an IPv6 address with a zone fits). */
const MAX_ADDRESS_LENGTH = 64

/**
 * The client's address from the X-Forwarded-For value (every header line of
 * it, joined with commas) and the socket peer, trusting `hops` proxies.
 * With fewer entries than trusted hops, the leftmost one (the furthest our
 * proxies recorded). An empty or over-long entry falls back to the peer.
 */
export const clientAddress = (forwarded: string | undefined, peer: string | undefined, hops: number): string => {
  const fallback = peer ?? "unknown"
  if (!(hops > 0) || forwarded === undefined || forwarded.length === 0) return fallback
  // Walk left over `hops` entries from the end: no array of entries is built.
  let end = forwarded.length
  let start = forwarded.lastIndexOf(",", end - 1) + 1
  for (let hop = 1; hop < hops && start > 0; hop++) {
    end = start - 1
    start = forwarded.lastIndexOf(",", end - 1) + 1
  }
  const entry = forwarded.slice(start, end).trim()
  return entry.length > 0 && entry.length <= MAX_ADDRESS_LENGTH ? entry : fallback
}

/** The client's address of an Effect request (TRUST_PROXY hops; `true` reads as one). */
export const clientIp = (request: HttpServerRequest.HttpServerRequest, trustProxy: number | boolean): string =>
  clientAddress(request.headers["x-forwarded-for"], Option.getOrUndefined(request.remoteAddress), Number(trustProxy))
