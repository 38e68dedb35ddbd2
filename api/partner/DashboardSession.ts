import { Duration, Effect } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { randomBytes } from "node:crypto"
import { htmlResponse } from "../../discovery/pageShell.ts"
import { SESSION_HOURS } from "../../partners/PartnerSessions.ts"
import { OUTAGE_RETRY_AFTER_SECONDS } from "../ErrorResponses.ts"
import { DASHBOARD_PATH, SESSION_COOKIE, SIGN_IN_COOKIE } from "./formRequest.ts"
import { DASHBOARD_HEADERS } from "./pages/dashboardShell.ts"
import { refusedPage, signInPage } from "./pages/signInPage.ts"

// The dashboard's answers that are about the session rather than a page:
// cookies (HttpOnly, SameSite=Strict, scoped to /partner, Secure over
// https), the sign-in form with a fresh CSRF cookie, redirects after a post
// (303, so a reload does not post again), and refusals.

export const cookieOptions = (secure: boolean, maxAge: Duration.Input) => ({
  httpOnly: true,
  sameSite: "strict" as const,
  path: DASHBOARD_PATH,
  secure,
  maxAge
})

export const page = (html: string, status: number, headers: Record<string, string> = {}) =>
  htmlResponse(html, status, { ...DASHBOARD_HEADERS, ...headers })

/** The sign-in form, with a new CSRF token in its cookie (a forged sign-in cannot know it). */
export const signInAnswer = (secure: boolean, status: number, problem?: string) => {
  const token = randomBytes(24).toString("base64url")
  return HttpServerResponse.setCookieUnsafe(
    page(signInPage(token, problem), status),
    SIGN_IN_COOKIE,
    token,
    cookieOptions(secure, Duration.hours(1))
  )
}

export const signedIn = (token: string, secure: boolean) =>
  HttpServerResponse.redirect(`${DASHBOARD_PATH}?done=signed-in`, {
    status: 303,
    headers: { "cache-control": "no-store" }
  }).pipe(
    HttpServerResponse.setCookieUnsafe(SESSION_COOKIE, token, cookieOptions(secure, Duration.hours(SESSION_HOURS))),
    HttpServerResponse.expireCookieUnsafe(SIGN_IN_COOKIE, {
      path: DASHBOARD_PATH,
      secure,
      httpOnly: true,
      sameSite: "strict"
    })
  )

export const signedOut = (secure: boolean) =>
  HttpServerResponse.redirect(`${DASHBOARD_PATH}?done=signed-out`, {
    status: 303,
    headers: { "cache-control": "no-store" }
  }).pipe(
    HttpServerResponse.expireCookieUnsafe(SESSION_COOKIE, {
      path: DASHBOARD_PATH,
      secure,
      httpOnly: true,
      sameSite: "strict"
    })
  )

export const backToDashboard = (done: string) =>
  HttpServerResponse.redirect(`${DASHBOARD_PATH}?done=${done}#links`, {
    status: 303,
    headers: { "cache-control": "no-store" }
  })

/** A refused request: a page for a browser, the API's JSON error for anything else. */
export const refuse = (
  request: HttpServerRequest.HttpServerRequest,
  status: number,
  code: string,
  message: string,
  details?: unknown
) =>
  (request.headers["accept"] ?? "").includes("text/html")
    ? page(
        refusedPage(status, message),
        status,
        status === 503 ? { "retry-after": String(OUTAGE_RETRY_AFTER_SECONDS) } : {}
      )
    : HttpServerResponse.jsonUnsafe(
        { error: details === undefined ? { code, message } : { code, message, details } },
        { status, headers: status === 503 ? { "retry-after": String(OUTAGE_RETRY_AFTER_SECONDS) } : {} }
      )

/** A post whose browser says it comes from another site (formRequest.ts crossSite). */
export const refuseCrossSite = (request: HttpServerRequest.HttpServerRequest) =>
  refuse(request, 403, "cross_site_form", "forms of the dashboard are only accepted from its own pages")

/** A post whose body is not a dashboard form (formRequest.ts readForm). */
export const refuseInvalidForm = (request: HttpServerRequest.HttpServerRequest) =>
  refuse(request, 400, "invalid_form", "expected a form (application/x-www-form-urlencoded) of at most 8 KB")

export const storeUnavailable =
  (request: HttpServerRequest.HttpServerRequest) => (error: { readonly message: string }) =>
    Effect.logWarning("partner dashboard: store unavailable").pipe(
      Effect.annotateLogs({ reason: error.message }),
      Effect.as(refuse(request, 503, "store_unavailable", "the partner store is not reachable; retry shortly"))
    )
