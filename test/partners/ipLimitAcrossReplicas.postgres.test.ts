import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpClient } from "../api/mcp/mcpClient.ts"
import { getJson, postJson } from "../support/http.ts"
import { rateLimitsSynced } from "../support/rateLimitSync.ts"
import { type RunningService, startService } from "../support/TestService.ts"

// The anonymous caller's per-IP bucket behind its three entry points (the
// catalog's IpRateLimit, the links' optional auth, /mcp's guard), on two
// replicas of one PostgreSQL database: one bucket for all six, not one per
// replica or per entry point. A replica answers from its own view of the
// bucket and syncs what it granted (partners/SyncedBuckets.ts). (Keys and
// registrations across replicas: test/links/replicas.postgres.test.ts.)
describe("the per-IP rate limit across entry points and replicas on one PostgreSQL", () => {
  const limit = { perMinute: 1, burst: 5 } // one token back a minute: none during the test
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

  const networks = (service: RunningService) => getJson(`${service.url}/api/v1/networks?limit=1`)
  const match = (service: RunningService) =>
    postJson(`${service.url}/api/v1/links/match`, { url: "https://example-store.com/anonymous" })

  it("catalog, links and MCP requests spend one burst; once both replicas synced, each entry point is refused on both", async () => {
    expect([(await networks(a)).status, (await match(a)).status, (await match(a)).status]).toEqual([200, 200, 200])
    // initialize and initialized take the last two tokens; the SSE GET the SDK
    // sends unawaited and listTools both find the bucket empty, in either order
    const client = await httpClient(a.url)
    await expect(client.listTools()).rejects.toThrow(/"code":"rate_limited".*"scope":"ip"/)
    await client.close().catch(() => undefined)
    await rateLimitsSynced(a)
    // B has not served this client: it grants from a full view once, and that grant is owed
    expect((await match(b)).status).toBe(200)
    await rateLimitsSynced(b)
    for (const refused of [await networks(b), await match(a), await networks(a), await match(b)]) {
      expect(refused.status).toBe(429)
      expect(refused.body.error).toMatchObject({ code: "rate_limited", details: { scope: "ip" } })
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    }
    const mcpOnB = await httpClient(b.url).catch((error: unknown) => error)
    expect(String(mcpOnB)).toMatch(/rate_limited/)
  })
})
