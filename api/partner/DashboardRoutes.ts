import { Effect, Layer } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { AppConfig } from "../../infra/AppConfig.ts"
import { PublicUrl } from "../../infra/PublicUrl.ts"
import { LinkSettings, MAX_LINK_NAME_LENGTH } from "../../links/LinkSettings.ts"
import { TrackingLinks } from "../../links/TrackingLinks.ts"
import { PartnerExport } from "../../partners/PartnerExport.ts"
import { PartnerSessions, type PartnerSession } from "../../partners/PartnerSessions.ts"
import { API_KEY_PATTERN, Partners } from "../../partners/Partners.ts"
import { PartnerStatsQuery } from "../../partners/PartnerStatsQuery.ts"
import { ProgrammeFiguresQuery } from "../../partners/ProgrammeFigures.ts"
import { RateLimits } from "../../partners/RateLimits.ts"
import { linkName } from "../v1/links/Http.ts"
import { clientIp } from "../v1/auth/clientIp.ts"
import {
  backToDashboard,
  page,
  refuse,
  refuseCrossSite,
  refuseInvalidForm,
  signedIn,
  signedOut,
  signInAnswer,
  storeUnavailable
} from "./DashboardSession.ts"
import {
  crossSite,
  DASHBOARD_PATH,
  readForm,
  sameToken,
  servedOverHttps,
  SESSION_COOKIE,
  SIGN_IN_COOKIE
} from "./formRequest.ts"
import { dashboardPage } from "./pages/dashboardPage.ts"
import { qrPng, qrSvg } from "./qrCodes.ts"

// /partner: the partner dashboard, server-rendered, working without
// JavaScript. GET /partner shows the sign-in form or, with a session, the
// dashboard; every change is a form post answered 303 back to it. Sessions
// live in the shared store (partners/PartnerSessions.ts), so any replica
// serves them. Every post is refused (403) when it comes from another site
// or lacks the session's token.

const NOTICES: Record<string, string> = {
  "signed-in": "Signed in.",
  rename: "Name saved.",
  disable: "Link disabled: it answers 410 Gone and counts no clicks until you enable it.",
  enable: "Link enabled: it redirects again.",
  delete: "Link deleted. Its clicks and earnings stay in your figures."
}
const ACTIONS = ["rename", "disable", "enable", "delete"] as const
type Action = (typeof ACTIONS)[number]
const TRACKING_ID = /^[A-Za-z0-9_-]{1,64}$/

export const DashboardRoutes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const publicUrl = yield* PublicUrl
    const partners = yield* Partners
    const sessions = yield* PartnerSessions
    const stats = yield* PartnerStatsQuery
    const programmes = yield* ProgrammeFiguresQuery
    const exports = yield* PartnerExport
    const settings = yield* LinkSettings
    const links = yield* TrackingLinks
    const limits = yield* RateLimits

    const secure = (request: HttpServerRequest.HttpServerRequest) =>
      servedOverHttps(request, publicUrl.base, config.trustProxy)
    const sessionOf = (request: HttpServerRequest.HttpServerRequest) =>
      sessions.find(request.cookies[SESSION_COOKIE] ?? "")

    /** A post that may change something: same site, the session's token. */
    const guardedPost = <E, R>(
      request: HttpServerRequest.HttpServerRequest,
      then: (
        session: PartnerSession,
        form: URLSearchParams
      ) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
    ) =>
      Effect.gen(function* () {
        if (crossSite(request)) return refuseCrossSite(request)
        const session = yield* sessionOf(request)
        if (session === undefined) return refuse(request, 401, "signed_out", "your session ended: sign in again")
        const form = yield* readForm(request)
        if (form === undefined) return refuseInvalidForm(request)
        if (!sameToken(form.get("csrf"), session.csrfToken))
          return refuse(
            request,
            403,
            "csrf_token_mismatch",
            "csrf: this form is not one of your current session's; reload the dashboard",
            { field: "csrf" }
          )
        return yield* then(session, form)
      })

    const dashboard = (request: HttpServerRequest.HttpServerRequest, session: PartnerSession) =>
      Effect.gen(function* () {
        const [figures, byProgramme] = yield* Effect.all(
          [stats.forPartner(session.partner), programmes.forPartner(session.partner.id)],
          {
            concurrency: 2
          }
        )
        const ids = figures.links.flatMap((link) => (link.program_id === null ? [] : [link.program_id]))
        const names = yield* programmes.names(ids)
        const shown = figures.links.filter((link) => link.state !== "deleted")
        const qrCodes = new Map<string, string>()
        for (const link of shown)
          qrCodes.set(link.tracking_id, yield* qrSvg(link.tracking_url, link.name ?? link.tracking_url))
        const done = new URL(request.url, "http://x").searchParams.get("done") ?? ""
        return page(
          dashboardPage({
            stats: figures,
            currency: figures.reporting_currency ?? config.reportingCurrency,
            csrfToken: session.csrfToken,
            programmes: byProgramme,
            programmeNames: names,
            qrCodes,
            notice: NOTICES[done]
          }),
          200
        )
      })

    yield* router.add("GET", DASHBOARD_PATH, (request) =>
      Effect.gen(function* () {
        const session = yield* sessionOf(request)
        if (session === undefined) {
          const done = new URL(request.url, "http://x").searchParams.get("done")
          return signInAnswer(secure(request), 200, done === "signed-out" ? "You are signed out." : undefined)
        }
        return yield* dashboard(request, session)
      }).pipe(Effect.catchTag("DatabaseError", storeUnavailable(request)))
    )

    yield* router.add("POST", `${DASHBOARD_PATH}/sign-in`, (request) =>
      Effect.gen(function* () {
        if (crossSite(request)) return refuseCrossSite(request)
        const form = yield* readForm(request)
        if (form === undefined) return refuseInvalidForm(request)
        if (!sameToken(form.get("csrf"), request.cookies[SIGN_IN_COOKIE]))
          return refuse(
            request,
            403,
            "csrf_token_mismatch",
            "csrf: this sign-in form is not the one we gave your browser; open the dashboard again",
            { field: "csrf" }
          )
        const key = (form.get("api_key") ?? "").trim()
        if (!API_KEY_PATTERN.test(key))
          return signInAnswer(
            secure(request),
            400,
            "api_key: paste the whole API key from your registration; it starts with ak_ and has 46 characters."
          )
        const partner = yield* partners.authenticate(key)
        if (partner === undefined) {
          // a wrong key spends the address's allowance, as on the API: no guessing keys here either
          const verdict = yield* limits.take("ip", `ip:${clientIp(request, config.trustProxy)}`)
          if (!verdict.allowed)
            return HttpServerResponse.setHeader(
              refuse(request, 429, "rate_limited", "too many wrong keys from your address; try again later"),
              "retry-after",
              String(verdict.retryAfterSeconds)
            )
          return signInAnswer(secure(request), 401, "api_key: this API key is unknown, rotated or revoked.")
        }
        const { token } = yield* sessions.open(partner, key)
        return signedIn(token, secure(request))
      }).pipe(Effect.catchTag("DatabaseError", storeUnavailable(request)))
    )

    yield* router.add("POST", `${DASHBOARD_PATH}/sign-out`, (request) =>
      guardedPost(request, () =>
        Effect.gen(function* () {
          yield* sessions.close(request.cookies[SESSION_COOKIE] ?? "")
          return signedOut(secure(request))
        })
      ).pipe(Effect.catchTag("DatabaseError", storeUnavailable(request)))
    )

    yield* router.add("POST", `${DASHBOARD_PATH}/links/:id`, (request) =>
      guardedPost(request, (session, form) =>
        Effect.gen(function* () {
          const id = (yield* HttpRouter.params).id ?? ""
          if (!TRACKING_ID.test(id))
            return refuse(request, 400, "invalid_parameter", "id: not a tracking id", { field: "id" })
          const action = form.get("action") as Action | null
          if (action === null || !ACTIONS.includes(action))
            return refuse(request, 400, "invalid_parameter", `action: one of ${ACTIONS.join(", ")}`, {
              field: "action"
            })
          const name = form.get("name")
          if (action === "rename" && (name ?? "").length > MAX_LINK_NAME_LENGTH)
            return refuse(request, 400, "invalid_parameter", `name: at most ${MAX_LINK_NAME_LENGTH} characters`, {
              field: "name"
            })
          const done =
            action === "delete"
              ? yield* settings.remove(session.partner.id, id)
              : (yield* settings.edit(
                  session.partner.id,
                  id,
                  action === "rename" ? { name: linkName(name ?? "") } : { disabled: action === "disable" }
                )) !== undefined
          if (!done) return refuse(request, 404, "link_not_found", "you have no link with this tracking id")
          return backToDashboard(action)
        })
      ).pipe(Effect.catchTag("DatabaseError", storeUnavailable(request)))
    )

    // GET downloads: the session cookie alone (SameSite=Strict keeps other sites' requests without it).
    const download = <E, R>(
      request: HttpServerRequest.HttpServerRequest,
      then: (session: PartnerSession) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
    ) =>
      Effect.gen(function* () {
        const session = yield* sessionOf(request)
        if (session === undefined) return refuse(request, 401, "signed_out", "sign in to the dashboard first")
        return yield* then(session)
      })
    const attachment = (filename: string) => ({
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "private, no-store"
    })

    yield* router.add("GET", `${DASHBOARD_PATH}/links/:id/qr.png`, (request) =>
      download(request, (session) =>
        Effect.gen(function* () {
          const id = (yield* HttpRouter.params).id ?? ""
          const link = TRACKING_ID.test(id) ? yield* links.findById(id) : undefined
          if (link === undefined || link.partnerId !== session.partner.id)
            return refuse(request, 404, "link_not_found", "you have no link with this tracking id")
          const png = yield* qrPng(publicUrl.to(`/t/${link.id}`))
          return HttpServerResponse.uint8Array(png, {
            contentType: "image/png",
            headers: attachment(`qr-${link.id}.png`)
          })
        })
      ).pipe(Effect.catchTag("DatabaseError", storeUnavailable(request)))
    )

    yield* router.add("GET", `${DASHBOARD_PATH}/export.csv`, (request) =>
      download(request, (session) =>
        Effect.map(exports.csv(session.partner.id), (csv) =>
          HttpServerResponse.text(csv, {
            contentType: "text/csv; charset=utf-8",
            headers: attachment(`${session.partner.tag}-export.csv`)
          })
        )
      ).pipe(Effect.catchTag("DatabaseError", storeUnavailable(request)))
    )
  })
).pipe(
  Layer.provide(
    Layer.mergeAll(PartnerSessions.layer, PartnerStatsQuery.layer, ProgrammeFiguresQuery.layer, PartnerExport.layer)
  )
)
