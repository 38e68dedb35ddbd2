import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getJson } from "../../support/http.ts"
import { rawRequest } from "../../support/rawHttp.ts"
import { type RunningService, startService } from "../../support/TestService.ts"

// What node's HTTP parser refuses (a request it cannot read, headers over
// 16 KB, an Expect it does not know) answers with our JSON error body like
// every other error; over-long path parameters are a 400 naming the
// parameter; /openapi.json documents the answers the edge gives.

const ADMIN = { authorization: "Bearer test-admin-token" }

describe("answers of the HTTP parser and path parameters", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
  })
  afterAll(() => service?.close())

  const expectJsonError = (answer: { headers: string; body: string }, code: string) => {
    expect(answer.headers).toContain("content-type: application/json")
    expect(JSON.parse(answer.body).error).toMatchObject({ code, message: expect.any(String) })
  }

  it("headers over 16 KB: 431 with the JSON error body", async () => {
    const answer = await rawRequest(
      service.url,
      `GET /api/deals HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`
    )
    expect(answer.status).toBe(431)
    expectJsonError(answer, "headers_too_large")
  })

  it.each([
    ["a request line that is not HTTP", "NOT HTTP AT ALL\r\n\r\n"],
    ["a header without a colon", "GET /health HTTP/1.1\r\nHost: localhost\r\nbroken header\r\n\r\n"],
    [
      "a bad chunk size",
      "POST /api/v1/links/match HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"
    ]
  ])("%s: 400 with the JSON error body", async (_, request) => {
    const answer = await rawRequest(service.url, request)
    expect(answer.status).toBe(400)
    expectJsonError(answer, "bad_request")
  })

  it("an Expect other than 100-continue: 417 with the JSON error body", async () => {
    const answer = await rawRequest(service.url, "GET /health HTTP/1.1\r\nHost: localhost\r\nExpect: teapot\r\n\r\n")
    expect(answer.status).toBe(417)
    expectJsonError(answer, "expectation_failed")
  })

  it("an over-long /deals/{id}: 400 naming id (JSON, or a page for browsers), not 'no route'", async () => {
    const long = "x".repeat(600)
    const json = await getJson(`${service.url}/deals/${long}`)
    expect(json.status).toBe(400)
    expect(json.body.error).toMatchObject({ code: "invalid_parameter", details: { field: "id" } })
    const page = await fetch(`${service.url}/deals/${long}`, { headers: { accept: "text/html" } })
    expect(page.status).toBe(400)
    expect(await page.text()).toContain("<code>id</code>")
  })

  it.each([150, 2_000])("a /admin/runs/{id} of %i characters: 400 naming id, not 'no route'", async (length) => {
    const answer = await getJson(`${service.url}/admin/runs/${"r".repeat(length)}`, ADMIN)
    expect(answer.status).toBe(400)
    expect(JSON.stringify(answer.body.error)).toContain("id")
    expect(answer.body.error.message).not.toContain("no route")
  })

  it("/openapi.json documents 431 on every operation, 413 and 415 where a body is read, 429 on public reads", async () => {
    const { body: spec } = await getJson(`${service.url}/openapi.json`)
    const operations = Object.entries(spec.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method, operation }))
    )
    expect(operations.length).toBeGreaterThan(10)
    for (const { path, method, operation } of operations) {
      const statuses = Object.keys(operation.responses)
      expect(statuses, `${method} ${path}`).toContain("431")
      if (operation.requestBody !== undefined) expect(statuses, `${method} ${path}`).toContain("413")
    }
    const responsesOf = (path: string, method: string) => Object.keys(spec.paths[path][method].responses)
    expect(responsesOf("/api/v1/links/match", "post")).toEqual(expect.arrayContaining(["413", "415"]))
    for (const path of ["/api/search", "/api/deals", "/api/v1/products/search", "/t/{trackingId}"]) {
      expect(responsesOf(path, "get")).toContain("429")
    }
    expect(spec.paths["/api/search"].get.responses["429"].headers["Retry-After"]).toBeDefined()
  })
})
