import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startService, type RunningService } from "../support/TestService.ts"

// /mcp and /partner load their code on their first request (api/LazyRoutes.ts).
// Requests that arrive together before it is loaded all get their answer (it
// loads once), and the loaded routes answer as if registered at start-up: a
// path parameter the service's router accepts (longer than the router's
// default bound) reaches its handler, HEAD is answered as GET.

const initialize = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "first-use", version: "1" } }
})

describe("routes loaded on first use", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
  })
  afterAll(() => service.close())

  it("answers MCP requests that arrive together before the MCP server is loaded", async () => {
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((id) =>
        fetch(`${service.url}/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify(initialize(id))
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }))
      )
    )
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200])
    expect(answers.map((answer) => answer.body.id)).toEqual([1, 2, 3, 4, 5])
    expect(new Set(answers.map((answer) => answer.body.result.serverInfo.name)).size).toBe(1)
  })

  it("hands the dashboard a long link id its handler refuses, not the router's 404; HEAD is answered as GET", async () => {
    const longId = "a".repeat(300)
    const post = await fetch(`${service.url}/partner/links/${longId}`, { method: "POST", redirect: "manual" })
    expect(post.status).not.toBe(404)
    expect(((await post.json()) as any).error.code).toBe("signed_out")
    const head = await fetch(`${service.url}/partner`, { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(head.headers.get("content-type")).toContain("text/html")
  })
})
