import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "../../infra/Database.ts"
import { getJson, postJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"

const register = (service: RunningService, body: unknown, headers: Record<string, string> = {}) =>
  postJson(`${service.url}/api/v1/partners/register`, body, headers)

describe("partners: registration, keys, authentication", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
  })
  afterAll(() => service.close())

  it("registers a partner and returns the key once, with a tag derived from the name", async () => {
    const res = await register(service, {
      name: "Ça Va Deals!",
      email: "team@cava.example",
      app_url: "https://cava.example/app",
      description: "price comparison"
    })
    expect(res.status).toBe(200)
    expect(res.body.partner).toMatchObject({ name: "Ça Va Deals!", tag: "ca-va-deals" })
    expect(Number.isInteger(res.body.partner.id)).toBe(true)
    expect(res.body.api_key).toMatch(/^ak_[A-Za-z0-9_-]{43}$/)
    expect(res.body.message).toMatch(/not be shown again/)
  })

  it("deduplicates tags and keeps them URL-safe", async () => {
    const a = await register(service, { name: "Shop Bot", email: "a@x.example" })
    const b = await register(service, { name: "shop bot", email: "b@x.example" })
    const c = await register(service, { name: "ШОП", email: "c@x.example" })
    expect(a.body.partner.tag).toBe("shop-bot")
    expect(b.body.partner.tag).toBe("shop-bot-2")
    expect(c.body.partner.tag).toMatch(/^[a-z0-9][a-z0-9_-]{0,63}$/)
  })

  it("gives concurrent registrations of one name distinct tags (the unique tag decides, not a read)", async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => register(service, { name: "Race Team", email: `r${i}@x.example` }))
    )
    expect(results.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200])
    const tags = results.map((res) => res.body.partner.tag).sort()
    expect(tags).toEqual(["race-team", "race-team-2", "race-team-3", "race-team-4", "race-team-5", "race-team-6"])
  })

  it("stores only a hash of the key: the key appears nowhere in the partners table", async () => {
    const res = await register(service, { name: "Secret Keeper", email: "s@x.example" })
    const key: string = res.body.api_key
    const dump = await service.run(
      Effect.gen(function* () {
        const db = yield* Database
        return JSON.stringify(yield* db.query("SELECT * FROM partners"))
      })
    )
    expect(dump).not.toContain(key)
    expect(dump).not.toContain(key.slice(3))
    expect(dump).toContain(createHashHex(key))
  })

  it.each([
    [{ email: "x@y.example" }, "name"],
    [{ name: "", email: "x@y.example" }, "name"],
    [{ name: "   ", email: "x@y.example" }, "name"],
    [{ name: "n".repeat(101), email: "x@y.example" }, "name"],
    [{ name: "Ok" }, "email"],
    [{ name: "Ok", email: "not-an-email" }, "email"],
    [{ name: "Ok", email: "a@b" }, "email"],
    [{ name: "Ok", email: `${"a".repeat(250)}@x.example` }, "email"],
    [{ name: "Ok", email: "x@y.example", app_url: "ftp://x.example" }, "app_url"],
    [{ name: "Ok", email: "x@y.example", app_url: "javascript:alert(1)" }, "app_url"],
    [{ name: "Ok", email: "x@y.example", app_url: `https://x.example/${"a".repeat(2100)}` }, "app_url"],
    [{ name: "Ok", email: "x@y.example", description: "d".repeat(1001) }, "description"],
    [{ name: 42, email: "x@y.example" }, "name"]
  ])("rejects %j with a 400 naming %s", async (body, field) => {
    const res = await register(service, body)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe("invalid_body")
    expect(res.body.error.message).toContain(field)
  })

  it("rejects a body that is not JSON with a 400", async () => {
    const res = await register(service, "{not json")
    expect(res.status).toBe(400)
    expect(res.body.error).toBeDefined()
  })

  it("GET /partners/me: 401 on a missing, malformed or unknown key; 200 with a valid one", async () => {
    const url = `${service.url}/api/v1/partners/me`
    const variants: Array<Record<string, string>> = [
      {},
      { authorization: "Bearer" },
      { authorization: "Basic abc" },
      { authorization: "Bearer nope" },
      {
        authorization: `Bearer ak_${"A".repeat(43)}`
      }
    ]
    for (const headers of variants) {
      const res = await getJson(url, headers)
      expect(res.status, JSON.stringify(headers)).toBe(401)
      expect(res.body.error.code).toBe("unauthorized")
    }
    const reg = await register(service, { name: "Stats Person", email: "st@x.example" })
    const me = await getJson(url, { authorization: `Bearer ${reg.body.api_key}` })
    expect(me.status).toBe(200)
    expect(me.body.partner).toMatchObject({ id: reg.body.partner.id, tag: "stats-person", revenue_share: 0.7 })
    expect(me.body.totals).toEqual({
      clicks: 0,
      unique_clicks: 0,
      bot_clicks: 0,
      conversions: { total: 0, pending: 0, approved: 0, declined: 0, reversed: 0 },
      revenue: { pending: "0.0000", approved: "0.0000", total: "0.0000" },
      epc: "0.0000",
      conversion_rate: 0
    })
    expect(me.body.links).toEqual([])
    expect(me.body.days).toHaveLength(30)
  })
})

describe("partners: rate limits", () => {
  let service: RunningService
  beforeAll(async () => {
    // Buckets refill slower than any test machine is slow (one token a minute): a token back
    // between two requests (at 60 a minute, one a second of a loaded machine's lag) would let
    // a request through that these tests expect refused. The stores refill on their own clocks
    // (PostgreSQL's now() for the shared buckets), so the refill rate is what keeps this exact.
    service = await startService({
      rateLimitRegister: { perMinute: 1, burst: 2 },
      rateLimitPerKey: { perMinute: 1, burst: 3 },
      rateLimitPerIp: { perMinute: 1, burst: 3 }
    })
  })
  afterAll(() => service.close())

  it("limits registration per IP with 429 and Retry-After", async () => {
    expect((await register(service, { name: "R1", email: "r1@x.example" })).status).toBe(200)
    expect((await register(service, { name: "R2", email: "r2@x.example" })).status).toBe(200)
    const limited = await register(service, { name: "R3", email: "r3@x.example" })
    expect(limited.status).toBe(429)
    expect(limited.body.error.code).toBe("rate_limited")
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
  })

  it("limits per key, independently of other keys and of anonymous callers", async () => {
    // Registration budget is spent above; create partners directly through the service.
    const keys = await service.run(
      Effect.gen(function* () {
        const { Partners } = yield* Effect.promise(() => import("../../partners/Partners.ts"))
        const partners = yield* Partners
        const a = yield* partners.register({ name: "Key A", email: "a@k.example", appUrl: null, description: null })
        const b = yield* partners.register({ name: "Key B", email: "b@k.example", appUrl: null, description: null })
        return [a.apiKey, b.apiKey]
      })
    )
    const me = (key: string) => getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${key}` })
    for (let i = 0; i < 3; i++) expect((await me(keys[0])).status).toBe(200)
    const limited = await me(keys[0])
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    expect((await me(keys[1])).status).toBe(200)
  })

  it("limits anonymous callers per IP on the catalog", async () => {
    const statuses: Array<number> = []
    for (let i = 0; i < 5; i++) statuses.push((await getJson(`${service.url}/api/v1/networks`)).status)
    expect(statuses).toEqual([200, 200, 200, 429, 429])
  })
})

import { createHash } from "node:crypto"
const createHashHex = (key: string) => createHash("sha256").update(key).digest("hex")
