import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { insertCatalog } from "../support/catalogFixture.ts"
import { postJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// Two replicas on one PostgreSQL: a link disabled through one stops
// redirecting on the other, which had it in its redirect cache, within the
// catalog poll; enabled again, it redirects there again.
const POLL_MS = 200

describe("a disabled link across replicas", () => {
  let a: RunningService
  let b: RunningService
  let key: string

  beforeAll(async () => {
    a = await startService()
    b = await startService({ databaseUrl: a.config.databaseUrl, catalogPollMs: POLL_MS })
    await a.run(insertCatalog())
    for (const service of [a, b]) await service.run(Effect.flatMap(ProgramMatcher, (matcher) => matcher.reload))
    key = (await postJson(`${a.url}/api/v1/partners/register`, { name: "Replica Switch", email: "r@x.example" })).body
      .api_key
  })
  afterAll(async () => {
    await b?.close()
    await a?.close()
  })

  const statusOn = async (service: RunningService, id: string) =>
    (await fetch(`${service.url}/t/${id}`, { redirect: "manual" })).status
  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 100 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 50))
    return check()
  }
  const patch = (id: string, disabled: boolean) =>
    fetch(`${a.url}/api/v1/links/${id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ disabled })
    })

  it("answers 410 on the other replica within the poll, and redirects again once enabled", async () => {
    const match = await postJson(
      `${a.url}/api/v1/links/match`,
      { url: "https://www.example-store.com/p/replicated" },
      { authorization: `Bearer ${key}` }
    )
    const id: string = match.body.link.tracking_id
    expect(await statusOn(b, id)).toBe(302) // cached on B now
    expect((await patch(id, true)).status).toBe(200)
    expect(await eventually(async () => (await statusOn(b, id)) === 410)).toBe(true)
    expect((await patch(id, false)).status).toBe(200)
    expect(await eventually(async () => (await statusOn(b, id)) === 302)).toBe(true)
  })

  it("a link deleted on one replica comes back when the partner matches it again on the other, whose memory knew it undeleted", async () => {
    const url = "https://www.example-store.com/p/deleted-elsewhere"
    const matchOnB = async () =>
      (await postJson(`${b.url}/api/v1/links/match`, { url }, { authorization: `Bearer ${key}` })).body.link
    const id: string = (await matchOnB()).tracking_id
    expect((await matchOnB()).tracking_id).toBe(id) // B now remembers the link as not deleted
    const removed = await fetch(`${a.url}/api/v1/links/${id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${key}` }
    })
    expect(removed.status).toBe(200)
    const listedOnA = async () => {
      const list = await fetch(`${a.url}/api/v1/links?limit=100`, { headers: { authorization: `Bearer ${key}` } })
      return ((await list.json()) as { data: Array<{ tracking_id: string }> }).data.some((l) => l.tracking_id === id)
    }
    expect(await listedOnA()).toBe(false)
    // B hears of the deletion at its next catalog poll; from then on its repeat match restores the link
    expect(
      await eventually(async () => {
        expect((await matchOnB()).tracking_id).toBe(id)
        return listedOnA()
      })
    ).toBe(true)
  })
})
