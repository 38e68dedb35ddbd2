import { Option } from "effect"
import type { HttpServerRequest } from "effect/http"

/**
 * The client's address: the socket peer, or the first X-Forwarded-For entry
 * when TRUST_PROXY says a proxy we control sets it (otherwise anyone could
 * forge it to dodge rate limits or fake unique visitors).
 */
export const clientIp = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string => {
  if (trustProxy) {
    const forwarded = request.headers["x-forwarded-for"]
    if (typeof forwarded === "string" && forwarded.length > 0) {
      const first = forwarded.split(",")[0].trim()
      if (first.length > 0 && first.length <= 64) return first
    }
  }
  return Option.getOrElse(request.remoteAddress, () => "unknown")
}
