import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { postJson } from "../../support/http.ts"
import { testStore } from "../../support/postgres.ts"
import { startService, type RunningService } from "../../support/TestService.ts"

// The dashboard's sessions over plain HTTP, on both stores: sign-in through
// the form, cookie flags (Secure only over https as the public URL or a
// trusted proxy says), sessions in the shared store (on PostgreSQL: signed in
// on one replica, served and signed out on another), and a rotated API key
// ending the session.

interface Jar {
  signIn: string
  session?: string
}

const cookieValue = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .find((line) => line.startsWith(`${name}=`))
    ?.split(";")[0]
    .slice(name.length + 1)

const setCookieLine = (response: Response, name: string) =>
  response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`)) ?? ""

const openSignIn = async (service: RunningService, headers: Record<string, string> = {}) => {
  const response = await fetch(`${service.url}/partner`, { headers })
  const html = await response.text()
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? ""
  return { response, jar: { signIn: cookieValue(response, "aff_sign_in") ?? "" } as Jar, csrf }
}

const signIn = async (service: RunningService, key: string, headers: Record<string, string> = {}) => {
  const { jar, csrf } = await openSignIn(service, headers)
  const response = await fetch(`${service.url}/partner/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: `aff_sign_in=${jar.signIn}`,
      ...headers
    },
    body: new URLSearchParams({ csrf, api_key: key }).toString()
  })
  return { response, session: cookieValue(response, "aff_session") }
}

const dashboardHtml = async (service: RunningService, session: string) =>
  (await fetch(`${service.url}/partner`, { headers: { cookie: `aff_session=${session}` } })).text()

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? ""

describe("dashboard sessions", () => {
  let a: RunningService
  let b: RunningService
  let key: string

  beforeAll(async () => {
    a = await startService()
    // a second replica on the same PostgreSQL; on DuckDB, the same service again (one process owns the file)
    b = testStore() === "postgres" ? await startService({ databaseUrl: a.config.databaseUrl }) : a
    key = (await postJson(`${a.url}/api/v1/partners/register`, { name: "Session Partner", email: "s@x.example" })).body
      .api_key
  })
  afterAll(async () => {
    if (b !== a) await b?.close()
    await a?.close()
  })

  it("exchanges the key for an HttpOnly, SameSite=Strict session cookie (not Secure over plain http), answered 303", async () => {
    const { response, session } = await signIn(a, key)
    expect(response.status).toBe(303)
    expect(response.headers.get("location")).toBe("/partner?done=signed-in")
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const line = setCookieLine(response, "aff_session")
    expect(line).toMatch(/HttpOnly/)
    expect(line).toMatch(/SameSite=Strict/)
    expect(line).toMatch(/Path=\/partner/)
    expect(line).not.toMatch(/Secure/)
  })

  it("marks the cookie Secure behind a trusted proxy that says https, and not when the client says so itself", async () => {
    const forwarded = { "x-forwarded-proto": "https" }
    const untrusted = await signIn(a, key, forwarded)
    expect(setCookieLine(untrusted.response, "aff_session")).not.toMatch(/Secure/)
    const proxied = await startService({
      trustProxy: 1,
      ...(testStore() === "postgres" ? { databaseUrl: a.config.databaseUrl } : {})
    })
    try {
      const partnerKey = (
        await postJson(`${proxied.url}/api/v1/partners/register`, { name: "Proxied Partner", email: "p@x.example" })
      ).body.api_key
      const trusted = await signIn(proxied, partnerKey, forwarded)
      expect(setCookieLine(trusted.response, "aff_session")).toMatch(/Secure/)
      expect(setCookieLine(await (await openSignIn(proxied, forwarded)).response, "aff_sign_in")).toMatch(/Secure/)
    } finally {
      await proxied.close()
    }
  })

  it("a session opened on one replica is served and signed out on another", async () => {
    const { session } = await signIn(a, key)
    const onB = await dashboardHtml(b, session!)
    expect(onB).toContain("Your business")
    const signOut = await fetch(`${b.url}/partner/sign-out`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `aff_session=${session}` },
      body: `csrf=${encodeURIComponent(csrfOf(onB))}`
    })
    expect(signOut.status).toBe(303)
    expect(setCookieLine(signOut, "aff_session")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/)
    expect(await dashboardHtml(a, session!)).toContain('name="api_key"')
  })

  it("refuses a sign-in post without the sign-in cookie's token (403) and a malformed key (400 naming api_key)", async () => {
    const { csrf } = await openSignIn(a)
    const forged = await fetch(`${a.url}/partner/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf, api_key: key }).toString()
    })
    expect(forged.status).toBe(403)
    expect(cookieValue(forged, "aff_session")).toBeUndefined()
    const malformed = await signIn(a, "not-a-key")
    expect(malformed.response.status).toBe(400)
    expect(await malformed.response.text()).toContain("api_key")
  })

  it("ends the session when its API key is rotated", async () => {
    const { session } = await signIn(a, key)
    expect(await dashboardHtml(a, session!)).toContain("Your business")
    const rotated = await postJson(`${a.url}/api/v1/partners/me/keys/rotate`, {}, { authorization: `Bearer ${key}` })
    expect(rotated.status).toBe(200)
    key = rotated.body.api_key
    expect(await dashboardHtml(b, session!)).toContain('name="api_key"')
  })

  it("answers a post to a link that is not the partner's 404, and an unknown action 400 naming action", async () => {
    const { session } = await signIn(a, key)
    const csrf = csrfOf(await dashboardHtml(a, session!))
    const post = (body: string) =>
      fetch(`${a.url}/partner/links/NoSuchLink1`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: `aff_session=${session}` },
        body
      })
    expect((await post(`csrf=${encodeURIComponent(csrf)}&action=disable`)).status).toBe(404)
    const unknown = await post(`csrf=${encodeURIComponent(csrf)}&action=explode`)
    expect(unknown.status).toBe(400)
    expect(((await unknown.json()) as any).error.details).toEqual({ field: "action" })
  })

  it("refuses a cross-site post (403 cross_site_form) and a body that is not a form (400 invalid_form), signed in or not", async () => {
    const { session } = await signIn(a, key)
    const post = async (path: string, headers: Record<string, string>) => {
      const response = await fetch(`${a.url}${path}`, { method: "POST", redirect: "manual", headers, body: "{}" })
      return { status: response.status, code: ((await response.json()) as any).error.code }
    }
    const crossSite = { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" }
    const notAForm = { "content-type": "application/json" }
    for (const path of ["/partner/sign-in", "/partner/sign-out"]) {
      const cookie = { cookie: `aff_session=${session}` }
      expect(await post(path, { ...crossSite, ...cookie })).toEqual({ status: 403, code: "cross_site_form" })
      expect(await post(path, { ...notAForm, ...cookie })).toEqual({ status: 400, code: "invalid_form" })
    }
  })

  it("downloads the export as a CSV attachment with a session, and answers 401 without one", async () => {
    const signedOut = await fetch(`${a.url}/partner/export.csv`, { headers: { accept: "application/json" } })
    expect(signedOut.status).toBe(401)
    expect(((await signedOut.json()) as any).error.code).toBe("signed_out")
    const { session } = await signIn(a, key)
    const csv = await fetch(`${b.url}/partner/export.csv`, { headers: { cookie: `aff_session=${session}` } })
    expect(csv.status).toBe(200)
    expect(csv.headers.get("content-type")).toContain("text/csv")
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="session-partner-export.csv"')
    expect(csv.headers.get("cache-control")).toBe("private, no-store")
    expect((await csv.text()).length).toBeGreaterThan(0)
  })
})
