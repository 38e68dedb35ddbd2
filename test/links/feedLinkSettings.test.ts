import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ClickRecorder } from "../../clicks/ClickRecorder.ts"
import { feedTrackingId } from "../../domain/links/feedTrackingId.ts"
import { Database } from "../../infra/Database.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { RedirectLinks } from "../../links/RedirectLinks.ts"
import { insertCatalog } from "../support/catalogFixture.ts"
import { insertProducts } from "../support/catalogFixtures.ts"
import { postJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// A discovery-feed id with a partner's tag (/t/f.…) leads to that partner's
// stored feed link. When the partner disables or deletes that link, the feed
// id must answer what the link's own /t/{id} answers (410 Gone, no click),
// not keep redirecting with the partner's commission.
describe("/t/ of a feed id whose partner link is disabled or deleted", () => {
  let service: RunningService
  let key: string
  const TAG = "alias-partner"
  const click = (path: string, method = "GET", accept = "application/json") =>
    fetch(`${service.url}${path}`, { method, redirect: "manual", headers: { accept, "user-agent": "Mozilla/5.0" } })
  const patch = (trackingId: string, body: unknown) =>
    fetch(`${service.url}/api/v1/links/${trackingId}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body)
    })
  const feedLinkOf = (productId: string) =>
    service.run(
      Effect.gen(function* () {
        const rows = yield* (yield* Database).query<{ id: string }>(
          "SELECT id FROM tracking_links WHERE source = 'feed' AND product_id = $1",
          [productId]
        )
        return rows.map((row) => row.id)
      })
    )
  const clicksOf = (trackingId: string) =>
    service.run(
      Effect.gen(function* () {
        yield* (yield* ClickRecorder).flush
        const rows = yield* (yield* Database).query<{ n: number }>(
          "SELECT count(*)::INTEGER AS n FROM clicks WHERE tracking_id = $1",
          [trackingId]
        )
        return rows[0].n
      })
    )

  beforeAll(async () => {
    service = await startService()
    await service.run(
      Effect.gen(function* () {
        yield* insertCatalog()
        yield* (yield* ProgramMatcher).reload
      })
    )
    await service.run(
      insertProducts([
        {
          feed: "f1",
          itemId: "lamp",
          title: "Lamp",
          price: 10,
          storeDomain: "example-store.com",
          link: "https://example-store.com/lamp"
        },
        {
          feed: "f1",
          itemId: "vase",
          title: "Vase",
          price: 10,
          storeDomain: "example-store.com",
          link: "https://example-store.com/vase"
        }
      ])
    )
    key = (await postJson(`${service.url}/api/v1/partners/register`, { name: "Alias Partner", email: "a@x.example" }))
      .body.api_key
  })
  afterAll(() => service.close())

  it("a disabled link's feed id answers 410 like the link itself, counts no click, and redirects again once enabled", async () => {
    const alias = `/t/${feedTrackingId("f1:lamp", TAG)}`
    expect((await click(alias)).status).toBe(302) // creates the partner's feed link and caches the alias
    const [stored] = await feedLinkOf("f1:lamp")
    expect(stored).toBeDefined()
    expect((await patch(stored, { disabled: true })).status).toBe(200)

    const own = await click(`/t/${stored}`)
    const viaAlias = await click(alias)
    expect(own.status).toBe(410)
    expect(viaAlias.status).toBe(410)
    expect(viaAlias.headers.get("location")).toBeNull()
    expect(await viaAlias.json()).toEqual(await own.json())
    expect((await click(alias, "HEAD")).status).toBe(410)
    const page = await click(alias, "GET", "text/html")
    expect(page.status).toBe(410)
    expect(await page.text()).toContain("switched it off")
    expect(await clicksOf(stored)).toBe(1) // only the click before the switch

    expect((await patch(stored, { disabled: false })).status).toBe(200)
    const again = await click(alias)
    expect(again.status).toBe(302)
    expect(again.headers.get("location")).toContain(`sid=${stored}`)
    expect(await clicksOf(stored)).toBe(2)
  })

  it("a deleted link's feed id answers 410 link_deleted, also when read cold from the store (GET and HEAD)", async () => {
    const alias = `/t/${feedTrackingId("f1:vase", TAG)}`
    expect((await click(alias, "HEAD")).status).toBe(302) // HEAD writes nothing: no stored link yet
    expect(await feedLinkOf("f1:vase")).toEqual([])
    expect((await click(alias)).status).toBe(302)
    const [stored] = await feedLinkOf("f1:vase")
    const removed = await fetch(`${service.url}/api/v1/links/${stored}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${key}` }
    })
    expect(removed.status).toBe(200)
    // forget every cached id (as after a restart): the feed id is resolved from the store again
    await service.run(RedirectLinks.use((redirects) => Effect.sync(() => redirects.invalidateAll())))
    expect((await click(alias, "HEAD")).status).toBe(410)
    const gone = await click(alias)
    expect(gone.status).toBe(410)
    expect(((await gone.json()) as any).error.code).toBe("link_deleted")
    expect(await clicksOf(stored)).toBe(1)
  })
})
