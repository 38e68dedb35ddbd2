import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getJson } from "../../support/http.ts"
import { rateLimitsSynced } from "../../support/rateLimitSync.ts"
import { type RunningService, startService } from "../../support/TestService.ts"

// The per-IP allowance of public reads on two replicas of one PostgreSQL
// database: one shared bucket (partners/SharedBuckets.ts), not one per
// replica. Each replica answers from its own view and syncs what it granted
// (partners/SyncedBuckets.ts): a replica that has not served the client yet
// grants from a full view, and what it granted past the bucket is owed.
describe("public reads spend one per-IP allowance across replicas", () => {
  const limit = { perMinute: 1, burst: 4 } // one token back a minute: none during the test
  let a: RunningService
  let b: RunningService
  beforeAll(async () => {
    a = await startService({ rateLimitPerIp: limit })
    b = await startService({ databaseUrl: a.config.databaseUrl, rateLimitPerIp: limit })
  })
  afterAll(async () => {
    await b?.close()
    await a?.close()
  })

  it("reads on A spend the burst; B's grant before it knew is owed, then both answer 429 with Retry-After", async () => {
    // The product search is asked a range it refuses (400) before it would
    // ask Meilisearch, whose answer on a loaded machine may come after the
    // search deadline (503): the statuses here are the limit's alone.
    const paths = ["/openapi.json", "/api/v1/products/search?min_price=5&max_price=1", "/no-such-page", "/openapi.json"]
    const first = await Promise.all(paths.map((path) => getJson(`${a.url}${path}`)))
    expect(first.map((answer) => answer.status)).toEqual([200, 400, 404, 200])
    expect((await getJson(`${a.url}/openapi.json`)).status).toBe(429)
    await rateLimitsSynced(a)
    expect((await getJson(`${b.url}/openapi.json`)).status).toBe(200)
    await rateLimitsSynced(b)
    for (const service of [a, b, a, b]) {
      const refused = await getJson(`${service.url}/openapi.json`)
      expect(refused.status).toBe(429)
      expect(refused.body.error).toMatchObject({ code: "rate_limited", details: { scope: "ip" } })
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    }
    // B read the debt back: two tokens to refill at one a minute
    expect(Number((await getJson(`${b.url}/openapi.json`)).headers.get("retry-after"))).toBeGreaterThan(115)
  })
})
