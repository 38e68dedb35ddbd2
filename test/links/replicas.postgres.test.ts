import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "../../infra/Database.ts"
import { MISSING_TTL_MS } from "../../links/LinkCache.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { TrackingLinks } from "../../links/TrackingLinks.ts"
import { insertCatalog } from "../support/catalogFixture.ts"
import { getJson, postJson } from "../support/http.ts"
import { rateLimitsSynced } from "../support/rateLimitSync.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// Two replicas (two whole services) on ONE PostgreSQL database: what the
// link service promises across them is decided in the database.
// The catalog follower's poll (CATALOG_POLL_MS): catalog and link changes made on another replica.
const POLL_MS = 1_000

describe("partners and links across two replicas on one PostgreSQL", () => {
  let a: RunningService
  let b: RunningService
  let key: string

  const match = (service: RunningService, url: string, apiKey = key) =>
    postJson(`${service.url}/api/v1/links/match`, { url }, { authorization: `Bearer ${apiKey}` })
  const follow = (service: RunningService, id: string) =>
    fetch(`${service.url}/t/${id}`, { method: "HEAD", redirect: "manual" })
  const reloadCatalog = (service: RunningService) => service.run(Effect.flatMap(ProgramMatcher, (m) => m.reload))

  /** Polls until `check` holds; returns the milliseconds it took. */
  const within = async (ms: number, check: () => Promise<boolean>) => {
    const started = performance.now()
    while (!(await check())) {
      if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    return performance.now() - started
  }

  beforeAll(async () => {
    a = await startService()
    b = await startService({ databaseUrl: a.config.databaseUrl, catalogPollMs: POLL_MS })
    await a.run(insertCatalog())
    await reloadCatalog(a)
    await reloadCatalog(b)
    key = (await postJson(`${a.url}/api/v1/partners/register`, { name: "Two Sites", email: "two@x.example" })).body
      .api_key
  })
  afterAll(async () => {
    await b?.close()
    await a?.close()
  })

  it("a key registered on A authenticates on B (checked against the stored hash)", async () => {
    const res = await match(b, "https://example-store.com/key-check")
    expect(res.status).toBe(200)
    expect(res.body.matched).toBe(true)
  })

  it("a link created on A redirects on B at once", async () => {
    const made = (await match(a, "https://example-store.com/made-on-a")).body.link
    const res = await follow(b, made.tracking_id)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(made.affiliate_url)
  })

  it("the same link asked of A and B at once gets one tracking id and one row", async () => {
    const urls = Array.from({ length: 10 }, (_, i) => `https://example-store.com/both/${i}`)
    const answers = await Promise.all(urls.flatMap((url) => [match(a, url), match(b, url)]))
    for (let i = 0; i < urls.length; i++) {
      const [fromA, fromB] = [answers[2 * i], answers[2 * i + 1]]
      expect(fromA.status).toBe(200)
      expect(fromB.status).toBe(200)
      expect(fromB.body.link.tracking_id).toBe(fromA.body.link.tracking_id)
      expect([fromA.body.created, fromB.body.created].filter(Boolean)).toHaveLength(1)
    }
    const rows = await a.run(
      Effect.flatMap(Database, (db) =>
        db.query<{ n: number }>(
          "SELECT count(*)::INTEGER AS n FROM tracking_links WHERE normalized_url LIKE 'https://example-store.com/both/%'"
        )
      )
    )
    expect(rows[0].n).toBe(urls.length)
  })

  it("concurrent registrations of one name on A and B get distinct tags", async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        postJson(`${(i % 2 === 0 ? a : b).url}/api/v1/partners/register`, { name: "Twin", email: `t${i}@x.example` })
      )
    )
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200])
    expect(new Set(answers.map((res) => res.body.partner.tag)).size).toBe(6)
  })

  it(`an id B answered 404 for redirects once A stores a link under it, within MISSING_TTL_MS (${MISSING_TTL_MS} ms)`, async () => {
    const id = "RestoredLink42"
    expect((await follow(b, id)).status).toBe(404) // B now remembers the id as unknown
    await a.run(
      Effect.flatMap(TrackingLinks, (links) =>
        links.getOrCreate({
          id,
          partnerId: null,
          tag: "anon",
          originalUrl: "https://lamp-shop.com/restored",
          normalizedUrl: "https://lamp-shop.com/restored",
          destinationUrl: "https://lamp-shop.com/restored",
          programId: null,
          networkId: null,
          productId: null,
          source: "match",
          affiliateUrlFor: () => "https://lamp-shop.com/restored"
        })
      )
    )
    const took = await within(MISSING_TTL_MS + 2_000, async () => (await follow(b, id)).status === 302)
    expect(took).toBeLessThanOrEqual(MISSING_TTL_MS + 2_000)
  })

  it(`a link re-resolved on A redirects to its new destination on B within the poll interval (${POLL_MS} ms)`, async () => {
    const made = (await match(a, "https://lamp-shop.com/moving")).body.link
    expect((await follow(b, made.tracking_id)).headers.get("location")).toBe(made.affiliate_url) // cached on B
    await a.run(
      Effect.flatMap(TrackingLinks, (links) =>
        links.reassign(
          [
            {
              trackingId: made.tracking_id,
              oldProgramId: "awin:4101",
              oldNetworkId: "awin",
              oldAffiliateUrl: made.affiliate_url,
              newProgramId: null,
              newNetworkId: null,
              newAffiliateUrl: made.destination_url,
              reason: "program_closed"
            }
          ],
          new Date()
        )
      )
    )
    await within(POLL_MS + 2_000, async () => {
      const location = (await follow(b, made.tracking_id)).headers.get("location")
      return location === made.destination_url
    })
    const changes = await b.run(
      Effect.flatMap(Database, (db) =>
        db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM link_program_changes WHERE tracking_id = $1", [
          made.tracking_id
        ])
      )
    )
    expect(changes[0].n).toBe(1)
  })
})

describe("rate limits across two replicas on one PostgreSQL", () => {
  let a: RunningService
  let b: RunningService
  const limit = { perMinute: 6, burst: 4 } // one token back every 10 s: none during the test

  beforeAll(async () => {
    a = await startService({ rateLimitPerKey: limit, rateLimitRegister: limit })
    b = await startService({ databaseUrl: a.config.databaseUrl, rateLimitPerKey: limit, rateLimitRegister: limit })
  })
  afterAll(async () => {
    await b?.close()
    await a?.close()
  })

  it("a key's burst is spent across both replicas together, not once per replica", async () => {
    const key = (await postJson(`${a.url}/api/v1/partners/register`, { name: "Limited", email: "l@x.example" })).body
      .api_key
    const list = (service: RunningService) => getJson(`${service.url}/api/v1/links`, { authorization: `Bearer ${key}` })
    const statuses: Array<number> = []
    for (const service of [a, a, a, a, a]) statuses.push((await list(service)).status)
    expect(statuses).toEqual([200, 200, 200, 200, 429])
    await rateLimitsSynced(a)
    // B answers from its own view, full for a key it has not served: one grant, owed (partners/SyncedBuckets.ts)
    expect((await list(b)).status).toBe(200)
    await rateLimitsSynced(b)
    expect((await list(a)).status).toBe(429)
    const limited = await list(b)
    expect(limited.status).toBe(429)
    // the debt read back: two tokens to refill at one every 10 s (an empty bucket without it: 10 s)
    expect(limited.headers.get("retry-after")).toMatch(/^(1[1-9]|20)$/)
    expect(limited.body.error).toMatchObject({ code: "rate_limited", details: { scope: "key" } })
  })

  it("registrations per IP are counted across replicas (one burst of 4, then 429 on both)", async () => {
    const register = (service: RunningService, i: number) =>
      postJson(`${service.url}/api/v1/partners/register`, { name: `Reg ${i}`, email: `reg${i}@x.example` })
    // the previous test registered once from this IP: 3 tokens left
    const statuses = [(await register(a, 1)).status, (await register(b, 2)).status, (await register(a, 3)).status]
    expect(statuses).toEqual([200, 200, 200])
    expect((await register(b, 4)).status).toBe(429)
    expect((await register(a, 5)).status).toBe(429)
  })
})
