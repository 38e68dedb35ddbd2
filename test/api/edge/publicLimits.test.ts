import { randomBytes } from "node:crypto"
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { DiscoverySearch } from "../../../discovery/DiscoverySearch.ts"
import { SearchSync } from "../../../pipelines/search/SearchSync.ts"
import { insertProducts } from "../../support/catalogFixtures.ts"
import { discoveryCatalog } from "../../support/discoveryCatalog.ts"
import { edgeConfig } from "../../support/edgeConfig.ts"
import { getJson, type JsonResponse } from "../../support/http.ts"
import { rawRequest } from "../../support/rawHttp.ts"
import { slowLink } from "../../support/slowLink.ts"
import { type RunningService, startService } from "../../support/TestService.ts"

// Every public read has per-client limits answered 429 (Retry-After, our JSON
// error body) before Meilisearch or the store is overwhelmed: requests in
// flight per client, and the per-IP allowance (shared by the replicas on
// PostgreSQL, where this file runs too). Unknown API keys spend that
// allowance, and once it is spent they are refused without a key lookup.

const PUBLIC_READS = [
  "/api/search?q=headphones",
  "/search?q=headphones",
  "/api/deals?limit=100",
  "/api/v1/products/search?q=tv"
]

const seeded = async (overrides: Parameters<typeof startService>[0]) => {
  const service = await startService(overrides)
  await service.run(insertProducts(discoveryCatalog))
  await service.run(SearchSync.use((sync) => sync.syncProducts()))
  await service.run(DiscoverySearch.use((search) => search.refreshVocabulary))
  return service
}

const expectRateLimited = (response: JsonResponse, scope: string) => {
  expect(response.status).toBe(429)
  expect(response.headers.get("content-type")).toContain("application/json")
  expect(response.body.error).toMatchObject({ code: "rate_limited", details: { scope } })
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
}

describe("requests in flight per client on public reads", () => {
  let service: RunningService
  let link: Awaited<ReturnType<typeof slowLink>>
  beforeAll(async () => {
    // Meilisearch behind a link that holds each request 150 ms: the 100 requests are surely in flight together,
    // however fast the machine answers a search
    link = await slowLink(inject("meiliUrl"))
    service = await seeded({
      httpEdge: edgeConfig({ concurrentRequestsPerIp: 8 }),
      meiliUrl: Option.some(link.url)
    })
    link.delayMs = 150
  })
  afterAll(async () => {
    await service?.close()
    await link?.close()
  })

  it.each(PUBLIC_READS)("100 concurrent %s from one client: 429 beyond 8 in flight, never a 503", async (path) => {
    const answers = await Promise.all(Array.from({ length: 100 }, () => getJson(`${service.url}${path}`)))
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status >= 500)).toEqual([])
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(8)
    const refused = answers.filter((answer) => answer.status === 429)
    expect(refused.length).toBeGreaterThan(0)
    for (const answer of refused) expectRateLimited(answer, "concurrency")
    // the slots are given back: the next request is answered
    expect((await getJson(`${service.url}${path}`)).status).toBe(200)
  })
})

describe("the per-IP allowance on public reads and unknown API keys", () => {
  const limit = { perMinute: 1, burst: 6 } // one token back a minute: none during a test
  let reads: RunningService
  let keys: RunningService
  beforeAll(async () => {
    reads = await seeded({ rateLimitPerIp: limit })
    keys = await startService({ rateLimitPerIp: limit })
  })
  afterAll(async () => {
    await reads?.close()
    await keys?.close()
  })

  it("/api/search, /search, /api/deals and /api/v1/products/search spend one allowance, then answer 429", async () => {
    for (const path of [...PUBLIC_READS, PUBLIC_READS[0]!, PUBLIC_READS[1]!]) {
      expect((await getJson(`${reads.url}${path}`)).status).toBe(200)
    }
    for (const path of [...PUBLIC_READS, "/deals/anything", "/openapi.json", "/no-such-page"]) {
      expectRateLimited(await getJson(`${reads.url}${path}`), "ip")
    }
    // an Upgrade header (h2c) is served by the router like any request: it spends the same allowance
    const upgrade = await rawRequest(
      reads.url,
      "GET /api/deals HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n\r\n"
    )
    expect(upgrade.status).toBe(429)
    expect(upgrade.headers).toContain("retry-after: ")
    expect(JSON.parse(upgrade.body).error).toMatchObject({ code: "rate_limited", details: { scope: "ip" } })
    // liveness is never refused: a load balancer's probe must not be
    expect((await getJson(`${reads.url}/health`)).status).toBe(200)
  })

  it("/t/ ids the redirect must look up in the store spend a per-client bucket: 404 each, then 429 without a lookup", async () => {
    const answers = []
    for (let i = 0; i < limit.burst + 4; i++) {
      answers.push(await getJson(`${reads.url}/t/unknown-${randomBytes(6).toString("hex")}`))
    }
    expect(answers.slice(0, limit.burst).map((answer) => answer.status)).toEqual(Array(limit.burst).fill(404))
    for (const answer of answers.slice(limit.burst)) expectRateLimited(answer, "redirect_lookup")
  })

  it("300 random API keys: a 401 each until the IP allowance is spent, then 429 without a key lookup", async () => {
    const statuses: Array<number> = []
    for (let batch = 0; batch < 15; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          getJson(`${keys.url}/api/v1/partners/me`, {
            authorization: `Bearer ak_${randomBytes(32).toString("base64url")}`
          })
        )
      )
      for (const answer of answers) {
        statuses.push(answer.status)
        if (answer.status === 429) expectRateLimited(answer, "ip")
        else expect(answer.body.error.code).toBe("unauthorized")
      }
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(limit.burst)
    expect(statuses.filter((status) => status === 429)).toHaveLength(300 - limit.burst)
  })
})
