import { createServer, type Server } from "node:http"
import { afterEach, describe, expect, it } from "vitest"
import { makeSearchClient } from "../../scripts/search-eval/searchClient.ts"

// The eval's client of /api/search: one more try after a 503's Retry-After or
// a reset connection, counted; anything else is the answer as it came.
describe("search eval client", () => {
  let server: Server | undefined
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

  const serve = (answers: Array<(res: import("node:http").ServerResponse) => void>) =>
    new Promise<string>((resolve) => {
      let n = 0
      server = createServer((req, res) => (answers[Math.min(n++, answers.length - 1)] ?? (() => {}))(res))
      server.listen(0, "127.0.0.1", () => {
        const address = server!.address()
        resolve(`http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/api/search`)
      })
    })
  const json =
    (status: number, body: unknown, headers: Record<string, string> = {}) =>
    (res: import("node:http").ServerResponse) => {
      res.writeHead(status, { "content-type": "application/json", ...headers })
      res.end(JSON.stringify(body))
    }

  it("tries once more after the wait a 503 asks for, and counts it", async () => {
    const url = await serve([
      json(503, { error: { code: "search_unavailable", message: "busy" } }, { "retry-after": "1" }),
      json(200, { results: [] })
    ])
    const client = makeSearchClient()
    const started = Date.now()
    expect(await client.get(url)).toEqual({ status: 200, body: { results: [] } })
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    expect(client.retries()).toBe(1)
  })

  it("a second 503 is the answer; a 400 is never retried", async () => {
    const unavailable = json(503, { error: { code: "search_unavailable", message: "busy" } }, { "retry-after": "0" })
    const url = await serve([unavailable, unavailable])
    const client = makeSearchClient()
    expect((await client.get(url)).status).toBe(503)
    expect(client.retries()).toBe(1)
    await new Promise<void>((resolve) => server!.close(() => resolve()))
    const bad = await serve([json(400, { error: { code: "invalid_query", message: "q" } })])
    expect((await client.get(bad)).status).toBe(400)
    expect(client.retries()).toBe(1)
  })

  it("a connection reset by the server is tried once more", async () => {
    const url = await serve([(res) => res.socket?.resetAndDestroy(), json(200, { results: [1] })])
    const client = makeSearchClient()
    expect(await client.get(url)).toEqual({ status: 200, body: { results: [1] } })
    expect(client.retries()).toBe(1)
  })
})
