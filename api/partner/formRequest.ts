import { ByteSize, Effect } from "effect"
import { HttpIncomingMessage, type HttpServerRequest } from "effect/http"
import { timingSafeEqual } from "node:crypto"

// What every dashboard form post must pass before it does anything: it comes
// from our own pages (not another site's form), and it carries the token of
// the session (or, for signing in, of the sign-in cookie). Either alone
// refuses a forged post; both guard against a browser that omits the headers.

/** Dashboard forms are a few fields: anything larger is not one of ours. */
export const MAX_FORM_BYTES = 8 * 1024

/** The cookie of a signed-in session, and the one of the sign-in form (its CSRF token). */
export const SESSION_COOKIE = "aff_session"
export const SIGN_IN_COOKIE = "aff_sign_in"
export const DASHBOARD_PATH = "/partner"

/** The form's fields, or undefined when the body is too large or not a form. */
export const readForm = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const type = request.headers["content-type"] ?? ""
    if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) return undefined
    const text = yield* request.text.pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(MAX_FORM_BYTES)),
      Effect.option
    )
    return text._tag === "Some" ? new URLSearchParams(text.value) : undefined
  })

/**
 * True when the browser says the post comes from another site: Sec-Fetch-Site
 * cross-site/same-site, or an Origin whose host is not the one asked for.
 * A request without either header (an old browser, curl) is judged by its token alone.
 */
export const crossSite = (request: HttpServerRequest.HttpServerRequest): boolean => {
  const fetchSite = request.headers["sec-fetch-site"]
  if (fetchSite !== undefined && fetchSite !== "same-origin" && fetchSite !== "none") return true
  const origin = request.headers["origin"]
  if (origin === undefined) return false
  if (origin === "null") return true
  try {
    return new URL(origin).host !== (request.headers["host"] ?? "")
  } catch {
    return true
  }
}

/** Constant-time comparison of the posted token with the expected one. */
export const sameToken = (posted: string | null, expected: string | undefined): boolean => {
  if (posted === null || expected === undefined || expected === "") return false
  const a = Buffer.from(posted)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * Whether the cookies may carry Secure: the public URL is https, or a proxy
 * we trust (TRUST_PROXY > 0, as for client addresses) says the client came
 * over https. A client's own X-Forwarded-Proto is not believed without one.
 */
export const servedOverHttps = (
  request: HttpServerRequest.HttpServerRequest,
  publicBase: string,
  trustProxy: number
): boolean => {
  if (publicBase.startsWith("https://")) return true
  if (!(trustProxy > 0)) return false
  const forwarded = request.headers["x-forwarded-proto"]
  // the entry our outermost proxy wrote is the last one
  return forwarded?.split(",").pop()?.trim().toLowerCase() === "https"
}
