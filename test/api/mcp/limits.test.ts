import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getJson, postJson } from "../../support/http.ts"
import { type RunningService, startService } from "../../support/TestService.ts"
import { httpClient } from "./mcpClient.ts"

// /mcp shares the JSON API's guards: the per-IP (and per-key) rate-limit
// buckets of /api/v1 and the request body bound.
//
// The SDK client sends initialize and notifications/initialized, then opens
// its SSE stream (GET /mcp) WITHOUT awaiting it, so that GET and the next
// request race for the bucket: which of the two arrives at the bucket first
// is up to the network and, on PostgreSQL, the pool. The tests therefore
// leave exactly two tokens for the client's two awaited messages: both racers
// find the bucket empty, whatever their order.
const BURST = 4
const limit = { perMinute: 1, burst: BURST } // one token back a minute: none during the test

describe("MCP endpoint guards", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService({ rateLimitPerIp: limit, rateLimitPerKey: limit })
  }, 120_000)
  afterAll(() => service?.close())

  it("an oversized body is the API's 413 (refused before the rate limit: it takes no token)", async () => {
    const response = await postJson(
      `${service.url}/mcp`,
      { jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(300_000) } },
      {
        accept: "application/json, text/event-stream"
      }
    )
    expect(response.status).toBe(413)
    expect(response.body.error.code).toBe("payload_too_large")
  })

  it("MCP requests and /api/v1 requests draw on one per-IP bucket", async () => {
    const networks = () => getJson(`${service.url}/api/v1/networks?limit=1`)
    for (let i = 0; i < BURST - 2; i++) expect((await networks()).status).toBe(200)
    const client = await httpClient(service.url) // initialize and initialized take the last two tokens
    await expect(client.listTools()).rejects.toThrow(/"code":"rate_limited".*"scope":"ip"/)
    const api = await networks()
    expect(api.status).toBe(429)
    expect(api.body.error).toMatchObject({ code: "rate_limited", details: { scope: "ip" } })
    await client.close().catch(() => undefined)
  })

  it("with a partner's key, MCP requests and /api/v1 requests draw on the key's bucket", async () => {
    const registered = await postJson(`${service.url}/api/v1/partners/register`, {
      name: "MCP Limits",
      email: "mcp-limits@x.example"
    })
    expect(registered.status).toBe(200)
    const authorization = `Bearer ${registered.body.api_key}`
    const me = () => getJson(`${service.url}/api/v1/partners/me`, { authorization })
    for (let i = 0; i < BURST - 2; i++) expect((await me()).status).toBe(200)
    const client = await httpClient(service.url, registered.body.api_key)
    await expect(client.listTools()).rejects.toThrow(/"code":"rate_limited".*"scope":"key"/)
    const api = await me()
    expect(api.status).toBe(429)
    expect(api.body.error).toMatchObject({ code: "rate_limited", details: { scope: "key" } })
    await client.close().catch(() => undefined)
  })
})
