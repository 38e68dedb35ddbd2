import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningService, startService } from "../../support/TestService.ts"
import { MCP_ACCEPT, openSession, postMcp } from "./rawMcp.ts"

// /mcp answers in the documented shapes: an HTTP-level refusal (405 method,
// 406 Accept) carries our JSON error body
// { error: { code, message } } (they had none), and a JSON-RPC error is a
// plain JSON-RPC error object { code, message, data? } without the internal
// `_tag` member it used to carry.

describe("/mcp error answers", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
  }, 120_000)
  afterAll(() => service?.close())

  const expectErrorBody = (body: any, code: string) => {
    expect(Object.keys(body)).toEqual(["error"])
    expect(body.error.code).toBe(code)
    expect(typeof body.error.message).toBe("string")
    expect(body.error.message.length).toBeGreaterThan(10)
  }

  it("405 for GET, PUT and PATCH, with Allow and the JSON error body", async () => {
    for (const method of ["GET", "PUT", "PATCH"]) {
      const response = await fetch(`${service.url}/mcp`, { method, headers: { accept: MCP_ACCEPT } })
      expect(response.status, method).toBe(405)
      expect(response.headers.get("allow")).toBe("POST")
      expect(response.headers.get("content-type")).toContain("application/json")
      expectErrorBody(await response.json(), "method_not_allowed")
    }
  })

  it("406 when Accept does not name both JSON and SSE", async () => {
    const answer = await postMcp(service.url, { jsonrpc: "2.0", id: 1, method: "ping" }, { accept: "application/json" })
    expect(answer.status).toBe(406)
    expectErrorBody(JSON.parse(answer.text), "not_acceptable")
  })

  it("JSON-RPC errors are plain error objects: parse error, invalid request, unknown method", async () => {
    const parse = await postMcp(service.url, "{not json")
    expect(parse.messages).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }])
    const invalid = await postMcp(service.url, { jsonrpc: "2.0", id: 7 })
    expect(invalid.messages).toEqual([{ jsonrpc: "2.0", id: 7, error: { code: -32600, message: "Invalid Request" } }])
    const { headers } = await openSession(service.url, "2025-11-25")
    const unknown = await postMcp(service.url, { jsonrpc: "2.0", id: 8, method: "no/such-method" }, headers)
    expect(unknown.messages).toHaveLength(1)
    expect(unknown.messages[0].error.code).toBe(-32601)
    expect(Object.keys(unknown.messages[0].error).every((key) => ["code", "message", "data"].includes(key))).toBe(true)
    for (const answer of [parse, invalid, unknown]) expect(answer.text).not.toContain("_tag")
  })
})
