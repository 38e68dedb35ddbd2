import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Metrics } from "../../infra/Metrics.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { insertCatalog } from "../support/catalogFixture.ts"
import { getJson, postJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// Link names, disable/enable and delete over /api/v1/links/{tracking_id}, and
// what /t/ answers for such a link: 410 Gone naming the merchant's page, no
// click counted; its earlier clicks stay in partners/me.
describe("PATCH and DELETE /api/v1/links/{tracking_id}, and /t/ of a disabled or deleted link", () => {
  let service: RunningService
  let key: string
  let otherKey: string
  const auth = (k: string) => ({ authorization: `Bearer ${k}` })
  const send = async (method: string, path: string, k: string, body?: unknown) => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: { ...auth(k), "content-type": "application/json" },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body)
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  }
  const matchLink = async (url: string, k = key) => {
    const res = await postJson(`${service.url}/api/v1/links/match`, { url }, auth(k))
    expect(res.status).toBe(200)
    return res.body.link as { tracking_id: string; tracking_url: string; destination_url: string }
  }
  const click = (trackingUrl: string, accept = "text/html") =>
    fetch(trackingUrl, {
      redirect: "manual",
      headers: { accept, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0" }
    })
  const me = async () => (await getJson(`${service.url}/api/v1/partners/me`, auth(key))).body
  const linkOf = async (id: string) => {
    const list = await getJson(`${service.url}/api/v1/links?limit=100`, auth(key))
    return (list.body.data as Array<{ tracking_id: string }>).find((link) => link.tracking_id === id)
  }

  beforeAll(async () => {
    service = await startService()
    await service.run(
      Effect.gen(function* () {
        yield* insertCatalog()
        yield* (yield* ProgramMatcher).reload
      })
    )
    key = (await postJson(`${service.url}/api/v1/partners/register`, { name: "Namer Co", email: "n@x.example" })).body
      .api_key
    otherKey = (await postJson(`${service.url}/api/v1/partners/register`, { name: "Nosy Co", email: "o@x.example" }))
      .body.api_key
  })
  afterAll(() => service.close())

  it("names a link, lists it with its name and state, and removes a blank name", async () => {
    const link = await matchLink("https://www.example-store.com/p/named")
    const named = await send("PATCH", `/api/v1/links/${link.tracking_id}`, key, { name: "  Winter boots post " })
    expect(named.status).toBe(200)
    expect(named.body).toMatchObject({ tracking_id: link.tracking_id, name: "Winter boots post", state: "active" })
    expect(await linkOf(link.tracking_id)).toMatchObject({ name: "Winter boots post", state: "active" })
    const cleared = await send("PATCH", `/api/v1/links/${link.tracking_id}`, key, { name: "   " })
    expect(cleared.body.name).toBeNull()
  })

  it.each([
    [{ name: "x".repeat(101) }, "name"],
    [{ name: 42 }, "name"],
    [{ disabled: "yes" }, "disabled"]
  ])("refuses %j with a 400 naming %s", async (body, field) => {
    const link = await matchLink("https://www.example-store.com/p/invalid-edits")
    const res = await send("PATCH", `/api/v1/links/${link.tracking_id}`, key, body)
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body.error)).toContain(field)
  })

  it("answers 404 for another partner's link, an unknown id, and 400 for a malformed id", async () => {
    const link = await matchLink("https://www.example-store.com/p/mine")
    expect((await send("PATCH", `/api/v1/links/${link.tracking_id}`, otherKey, { name: "stolen" })).status).toBe(404)
    expect((await send("DELETE", `/api/v1/links/${link.tracking_id}`, otherKey)).status).toBe(404)
    const unknown = await send("PATCH", "/api/v1/links/NoSuchLink123", key, { disabled: true })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe("link_not_found")
    expect((await send("PATCH", "/api/v1/links/bad%20id!", key, { disabled: true })).status).toBe(400)
    expect((await send("PATCH", `/api/v1/links/${link.tracking_id}`, "ak_" + "x".repeat(43), {})).status).toBe(401)
  })

  it("a disabled link answers 410 with a page naming the merchant's page and counts no click; enabled, it redirects again", async () => {
    const link = await matchLink("https://www.example-store.com/p/switch-me")
    expect((await click(link.tracking_url)).status).toBe(302) // loads the link into the redirect's cache
    const disabled = await send("PATCH", `/api/v1/links/${link.tracking_id}`, key, { disabled: true })
    expect(disabled.body.state).toBe("disabled")

    const page = await click(link.tracking_url)
    expect(page.status).toBe(410)
    expect(page.headers.get("location")).toBeNull()
    const html = await page.text()
    expect(html).toContain("switched it off")
    expect(html).toContain(`href="${link.destination_url}"`)
    const api = await click(link.tracking_url, "application/json")
    expect(api.status).toBe(410)
    expect(((await api.json()) as any).error).toMatchObject({
      code: "link_disabled",
      details: { destination_url: link.destination_url }
    })

    await send("PATCH", `/api/v1/links/${link.tracking_id}`, key, { disabled: false })
    expect((await click(link.tracking_url)).status).toBe(302)
    // one click before, one after: the two 410s counted nothing
    await expect
      .poll(async () => (await me()).links.find((l: any) => l.tracking_id === link.tracking_id)?.clicks, {
        timeout: 10_000
      })
      .toBe(2)
  })

  it("a deleted link is no longer listed, answers 410, keeps its clicks in the stats, and comes back when matched again", async () => {
    const url = "https://www.example-store.com/p/delete-me"
    const link = await matchLink(url)
    expect((await click(link.tracking_url)).status).toBe(302)
    await expect
      .poll(async () => (await me()).links.find((l: any) => l.tracking_id === link.tracking_id)?.clicks, {
        timeout: 10_000
      })
      .toBe(1)
    const clicksBefore = (await me()).totals.clicks

    const deleted = await send("DELETE", `/api/v1/links/${link.tracking_id}`, key)
    expect(deleted).toEqual({ status: 200, body: { tracking_id: link.tracking_id, deleted: true } })
    expect(await linkOf(link.tracking_id)).toBeUndefined()
    const gone = await click(link.tracking_url, "application/json")
    expect(gone.status).toBe(410)
    expect(((await gone.json()) as any).error.code).toBe("link_deleted")
    expect((await send("DELETE", `/api/v1/links/${link.tracking_id}`, key)).status).toBe(404)
    expect((await send("PATCH", `/api/v1/links/${link.tracking_id}`, key, { disabled: false })).status).toBe(404)

    const stats = await me()
    expect(stats.totals.clicks).toBe(clicksBefore)
    expect(stats.links.find((l: any) => l.tracking_id === link.tracking_id)).toMatchObject({ clicks: 1 })

    const again = await matchLink(url)
    expect(again.tracking_id).toBe(link.tracking_id)
    expect(await linkOf(link.tracking_id)).toMatchObject({ state: "active" })
    expect((await click(link.tracking_url)).status).toBe(302)
  })

  it("a repeat match reads no link settings while the link is known not deleted; a deletion makes the next one read and restore", async () => {
    const restoreReads = () => service.run(Effect.map(Metrics, (metrics) => metrics.value("link_restore_reads_total")))
    const url = "https://www.example-store.com/p/repeat-from-memory"
    const link = await matchLink(url)
    await matchLink(url) // the first repeat reads the settings once
    const before = await restoreReads()
    for (let i = 0; i < 5; i++) expect((await matchLink(url)).tracking_id).toBe(link.tracking_id)
    expect(await restoreReads()).toBe(before)

    expect((await send("DELETE", `/api/v1/links/${link.tracking_id}`, key)).status).toBe(200)
    expect((await matchLink(url)).tracking_id).toBe(link.tracking_id)
    expect(await linkOf(link.tracking_id)).toMatchObject({ state: "active" })
    expect(await restoreReads()).toBe(before + 1)
  })

  it("documents the endpoints in the OpenAPI", async () => {
    const spec = (await getJson(`${service.url}/openapi.json`)).body
    const path = spec.paths["/api/v1/links/{tracking_id}"]
    expect(Object.keys(path).sort()).toEqual(["delete", "patch"])
  })
})
