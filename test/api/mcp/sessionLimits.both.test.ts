import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getJson, postJson } from "../../support/http.ts"
import { type RunningService, startService } from "../../support/TestService.ts"
import { httpClient } from "./mcpClient.ts"
import { openSession, postChunked, postMcp } from "./rawMcp.ts"

// What /mcp bounds that the MCP server does not: messages per batch against
// the rate limit, sessions per caller and their idle time, the initialize
// payload a session keeps, and a chunked body's size. Sessions through the
// official SDK client; a batch, a chosen protocol revision and a chunked body
// over raw HTTP (the SDK client sends none of them).

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
    const { sessionId, headers } = await openSession(service.url, "2025-03-26") // 2 tokens: 28 left
    expect(sessionId).toBeDefined()
    const five = await postMcp(service.url, tools(5), headers) // 23 left
    expect(five.status).toBe(200)
    expect(five.messages.map((message) => message.id).sort()).toEqual([1, 2, 3, 4, 5])
    expect(five.messages.every((message) => message.result !== undefined)).toBe(true)

    const hundred = await postMcp(service.url, tools(100, 10), headers)
    expect(hundred.status).toBe(429)
    expect(JSON.parse(hundred.text).error).toMatchObject({ code: "rate_limited", details: { scope: "ip" } })
    expect((await getJson(`${service.url}/api/v1/networks?limit=1`)).status).toBe(429)
  })

  it("a batch in a 2025-11-25 session is refused (that revision has no batches), with our error body", async () => {
    const other = await startService({ rateLimitPerIp: { perMinute: 1, burst: 10 } })
    try {
      const { headers } = await openSession(other.url, "2025-11-25")
      const batch = await postMcp(other.url, tools(2), headers)
      expect(batch.status).toBe(400)
      expect(JSON.parse(batch.text).error).toMatchObject({ code: "bad_request" })
      expect(JSON.parse(batch.text).error.message).toContain("2025-03-26")
    } finally {
      await other.close()
    }
  })
})

describe("MCP sessions", () => {
  let service: RunningService
  let apiKey: string
  const clients: Array<Client> = []
  const connect = async (key?: string) => {
    const client = await httpClient(service.url, key)
    clients.push(client)
    return client
  }
  beforeAll(async () => {
    service = await startService({ mcpSessions: { idleSeconds: 1, perKey: 3, perIp: 2 } })
    const registered = await postJson(`${service.url}/api/v1/partners/register`, {
      name: "MCP Sessions",
      email: "mcp-sessions@x.example"
    })
    expect(registered.status).toBe(200)
    apiKey = registered.body.api_key
  }, 120_000)
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined)
    await service?.close()
  })

  it("initialize params over 8 KiB (clientInfo, _meta) are refused with a JSON-RPC error, no session opened", async () => {
    const big = new Client({ name: "mcp-test", version: "1.0.0", title: "t".repeat(240_000) })
    await expect(big.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)))).rejects.toThrow(
      /initialize params are \d+ bytes: clientInfo, capabilities and _meta together may take at most 8192/
    )
    const meta = await openSession(service.url, "2025-11-25", {}, { _meta: { pad: "m".repeat(20_000) } })
    expect(meta.sessionId).toBeUndefined()
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

  it("an anonymous client IP holds at most perIp sessions, a partner key perKey; ending one frees its place", async () => {
    const first = await connect()
    await connect()
    await expect(connect()).rejects.toThrow(/too many open MCP sessions for this client address \(at most 2\)/)
    // a partner's sessions count against the key, not the address
    for (let i = 0; i < 3; i++) await connect(apiKey)
    await expect(connect(apiKey)).rejects.toThrow(/too many open MCP sessions for this API key \(at most 3\)/)
    await (first.transport as StreamableHTTPClientTransport).terminateSession()
    const again = await connect()
    expect((await again.listTools()).tools.length).toBeGreaterThan(0)
    for (const client of clients.splice(0)) {
      await (client.transport as StreamableHTTPClientTransport).terminateSession()
      await client.close()
    }
  })

  it("a session idle longer than the idle time is ended: its id answers 404 and its place is free", async () => {
    const { sessionId, headers } = await openSession(service.url, "2025-11-25")
    const second = await openSession(service.url, "2025-11-25")
    expect(second.sessionId).toBeDefined()
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" }
    expect((await postMcp(service.url, ping, headers)).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 2_500)) // idleSeconds: 1
    const late = await postMcp(service.url, ping, headers)
    expect(late.status).toBe(404)
    expect(JSON.parse(late.text).error.code).toBe("session_not_found")
    expect((await postMcp(service.url, ping, second.headers!)).status).toBe(404)
    // both places are free again (perIp: 2)
    const reopened = [await openSession(service.url, "2025-11-25"), await openSession(service.url, "2025-11-25")]
    expect(reopened.every((session) => session.sessionId !== undefined && session.sessionId !== sessionId)).toBe(true)
  })

  it("a chunked body over the bound (no Content-Length) is the API's 413, like a declared one", async () => {
    const answer = await postChunked(service.url, 300_000)
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body).error.code).toBe("payload_too_large")
    // and the service goes on answering
    expect((await postMcp(service.url, { jsonrpc: "2.0", id: 1, method: "ping" })).status).not.toBe(413)
  })
})
