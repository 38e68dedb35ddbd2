import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect } from "effect"
import { SESSIONS_GAUGE } from "../../../api/mcp/requestSessions.ts"
import { Metrics } from "../../../infra/Metrics.ts"
import { getJson, postJson } from "../../support/http.ts"
import { type RunningService, startService } from "../../support/TestService.ts"
import { call, httpClient } from "./mcpClient.ts"
import { openSession, postChunked, postMcp } from "./rawMcp.ts"

// /mcp keeps no session: initialize answers without Mcp-Session-Id and every
// request stands alone (so any replica answers it: test/cluster). And what it
// bounds that the MCP server does not: messages per batch against the rate
// limit, the initialize params, a chunked body's size. Through the official
// SDK client; a batch, a chosen protocol revision and a chunked body over raw
// HTTP (the SDK client sends none of them).

const tools = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => ({
    jsonrpc: "2.0",
    id: from + i,
    method: "tools/call",
    params: { name: "find_programs", arguments: { limit: 1 } }
  }))

describe("a JSON-RPC batch costs one token per message", () => {
  let service: RunningService
  beforeAll(async () => {
    // one token back a minute: none comes back during the test
    service = await startService({ rateLimitPerIp: { perMinute: 1, burst: 30 } })
  }, 120_000)
  afterAll(() => service?.close())

  it("a 2025-03-26 batch of 5 costs 5; one of 100 is refused with 429, and /api/v1 finds the bucket empty", async () => {
    await openSession(service.url, "2025-03-26") // initialize and notifications/initialized, 2 tokens: 28 left
    const five = await postMcp(service.url, tools(5)) // 23 left
    expect(five.status).toBe(200)
    expect(five.messages.map((message) => message.id).sort()).toEqual([1, 2, 3, 4, 5])
    expect(five.messages.every((message) => message.result !== undefined)).toBe(true)

    const hundred = await postMcp(service.url, tools(100, 10))
    expect(hundred.status).toBe(429)
    expect(JSON.parse(hundred.text).error).toMatchObject({ code: "rate_limited", details: { scope: "ip" } })
    expect((await getJson(`${service.url}/api/v1/networks?limit=1`)).status).toBe(429)
  })

  it("a batch at 2025-11-25 is refused (that revision has no batches), with our error body", async () => {
    const other = await startService({ rateLimitPerIp: { perMinute: 1, burst: 10 } })
    try {
      await openSession(other.url, "2025-11-25")
      const batch = await postMcp(other.url, tools(2), { "mcp-protocol-version": "2025-11-25" })
      expect(batch.status).toBe(400)
      expect(JSON.parse(batch.text).error).toMatchObject({ code: "bad_request" })
      expect(JSON.parse(batch.text).error.message).toContain("2025-03-26")
    } finally {
      await other.close()
    }
  })
})

describe("no MCP session outlives its request", () => {
  let service: RunningService
  let apiKey: string
  beforeAll(async () => {
    service = await startService()
    const registered = await postJson(`${service.url}/api/v1/partners/register`, {
      name: "MCP Stateless",
      email: "mcp-stateless@x.example"
    })
    expect(registered.status).toBe(200)
    apiKey = registered.body.api_key
  }, 120_000)
  afterAll(() => service?.close())

  it("initialize answers without Mcp-Session-Id, at each revision we speak, and requests need none", async () => {
    for (const version of ["2025-11-25", "2025-06-18", "2025-03-26"]) {
      const { init, sessionId } = await openSession(service.url, version)
      expect(init.status, version).toBe(200)
      expect(init.messages[0].result.protocolVersion).toBe(version)
      expect(sessionId, version).toBeUndefined()
      const headers: Record<string, string> = version === "2025-03-26" ? {} : { "mcp-protocol-version": version }
      const listed = await postMcp(service.url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, headers)
      expect(listed.status, version).toBe(200)
      expect(listed.headers.get("mcp-session-id")).toBeNull()
      expect(listed.messages[0].result.tools.length, version).toBeGreaterThan(0)
    }
  })

  it("the official SDK client works without a session: many clients, a partner key, nothing to end", async () => {
    const clients: Array<Client> = []
    try {
      // 30 clients from one address: a per-address session cap (20) refused the 21st before
      for (let i = 0; i < 30; i++) clients.push(await httpClient(service.url, i % 2 === 0 ? apiKey : undefined))
      for (const client of clients) {
        expect((client.transport as StreamableHTTPClientTransport).sessionId).toBeUndefined()
      }
      const stats = await call(clients[0], "partner_stats")
      expect(stats.isError).toBe(false)
      const anonymous = await call(clients[1], "list_deals", { limit: 1 })
      expect(anonymous.isError).toBe(false)
    } finally {
      for (const client of clients) await client.close()
    }
    // each request's session was ended with it: none is held once the answers are in
    const metrics = await service.run(
      Effect.gen(function* () {
        return yield* Metrics
      })
    )
    expect(metrics.render()).toContain(SESSIONS_GAUGE)
    expect(metrics.value(SESSIONS_GAUGE)).toBe(0)
  })

  it("an Mcp-Session-Id a client still sends (another server's, or a stale one) is ignored, never a 404", async () => {
    const stale = { "mcp-session-id": "00000000-0000-4000-8000-000000000000", "mcp-protocol-version": "2025-11-25" }
    const answer = await postMcp(service.url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, stale)
    expect(answer.status).toBe(200)
    expect(answer.messages[0].result.tools.length).toBeGreaterThan(0)
  })

  it("DELETE has no session to end: 405 with Allow: POST and our error body", async () => {
    const response = await fetch(`${service.url}/mcp`, {
      method: "DELETE",
      headers: { "mcp-session-id": "00000000-0000-4000-8000-000000000000" }
    })
    expect(response.status).toBe(405)
    expect(response.headers.get("allow")).toBe("POST")
    expect(((await response.json()) as any).error.code).toBe("method_not_allowed")
  })

  it("initialize params over 8 KiB (clientInfo, _meta) are refused with a JSON-RPC error", async () => {
    const big = new Client({ name: "mcp-test", version: "1.0.0", title: "t".repeat(240_000) })
    await expect(big.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)))).rejects.toThrow(
      /initialize params are \d+ bytes: clientInfo, capabilities and _meta together may take at most 8192/
    )
    const meta = await openSession(service.url, "2025-11-25", {}, { _meta: { pad: "m".repeat(20_000) } })
    expect(meta.init.status).toBe(200)
    expect(meta.init.messages).toEqual([
      {
        jsonrpc: "2.0",
        id: 0,
        error: {
          code: -32602,
          message: expect.stringContaining("at most 8192"),
          data: { max_bytes: 8192, bytes: expect.any(Number) }
        }
      }
    ])
  })

  it("a chunked body over the bound (no Content-Length) is the API's 413, like a declared one", async () => {
    const answer = await postChunked(service.url, 300_000)
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body).error.code).toBe("payload_too_large")
    // and the service goes on answering
    expect((await postMcp(service.url, { jsonrpc: "2.0", id: 1, method: "ping" })).status).not.toBe(413)
  })
})
