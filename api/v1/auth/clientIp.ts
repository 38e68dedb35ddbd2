import { Option } from "effect"
import type { HttpServerRequest } from "effect/http"

/**
 * The client's address: the socket peer, or the first X-Forwarded-For entry
 * when TRUST_PROXY says a proxy we control sets it (otherwise anyone could
 * forge it to dodge rate limits or fake unique visitors).
 */
export const clientIp = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string =>
  (trustProxy ? forwardedClientIp(request.headers["x-forwarded-for"]) : undefined) ??
  Option.getOrElse(request.remoteAddress, () => "unknown")

/** The first X-Forwarded-For address, when it looks like one. */
export const forwardedClientIp = (forwarded: string | undefined): string | undefined => {
  if (forwarded === undefined || forwarded.length === 0) return undefined
  const first = forwarded.split(",")[0].trim()
  return first.length > 0 && first.length <= 64 ? first : undefined
}
