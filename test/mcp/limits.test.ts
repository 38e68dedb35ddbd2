import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getJson, postJson } from "../support/http.ts"
import { type RunningService, startService } from "../support/TestService.ts"
import { httpClient } from "./mcpClient.ts"

// /mcp shares the JSON API's guards: the per-IP (and per-key) rate-limit
// buckets of /api/v1 and the request body bound.
describe("MCP endpoint guards", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService({ rateLimitPerIp: { perMinute: 1, burst: 4 } })
  }, 120_000)
  afterAll(() => service?.close())

  it("an oversized body is the API's 413", async () => {
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
    // four tokens: the oversized POST above took one, this request one, initialize and initialized the last two
    expect((await getJson(`${service.url}/api/v1/networks?limit=1`)).status).toBe(200)
    const client = await httpClient(service.url)
    await expect(client.listTools()).rejects.toThrow(/"code":"rate_limited"/)
    const api = await getJson(`${service.url}/api/v1/networks?limit=1`)
    expect(api.status).toBe(429)
    expect(api.body.error.code).toBe("rate_limited")
    await client.close().catch(() => undefined)
  })
})
