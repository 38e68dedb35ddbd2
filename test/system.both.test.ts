import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MAX_BODY_BYTES } from "../api/ErrorResponses.ts"
import { getJson, postJson } from "./support/http.ts"
import { testStore } from "./support/postgres.ts"
import { startService, type RunningService } from "./support/TestService.ts"

describe("system endpoints over real HTTP", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
  })
  afterAll(() => service.close())

  it("answers /health and /ready with the store (DuckDB or PostgreSQL) and Meilisearch reachable", async () => {
    expect((await getJson(`${service.url}/health`)).body).toEqual({ status: "ok" })
    const ready = await fetch(`${service.url}/ready`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({
      status: "ready",
      store: testStore(),
      checks: { database: true, meilisearch: true, catalog: true, vocabulary: true }
    })
  })

  it("serves the OpenAPI document and the docs page", async () => {
    const spec = (await getJson(`${service.url}/openapi.json`)).body
    expect(spec.openapi).toMatch(/^3\./)
    expect(Object.keys(spec.paths)).toContain("/health")
    const docs = await fetch(`${service.url}/docs`)
    expect(docs.headers.get("content-type")).toContain("text/html")
  })

  it("documents the redirect /t/{trackingId} (a raw route) in /openapi.json: GET and HEAD, 302 + Location, 404 HTML/JSON, 503 + Retry-After", async () => {
    const spec = (await getJson(`${service.url}/openapi.json`)).body
    const path = spec.paths["/t/{trackingId}"]
    expect(Object.keys(path).sort()).toEqual(["get", "head"])
    for (const operation of [path.get, path.head]) {
      expect(operation.parameters[0]).toMatchObject({ name: "trackingId", in: "path", required: true })
      expect(operation.responses[302].headers.Location).toMatchObject({ required: true })
      expect(Object.keys(operation.responses[404].content).sort()).toEqual(["application/json", "text/html"])
      expect(operation.responses[503].headers["Retry-After"]).toBeDefined()
    }
    // the hand-written operations are added together: the postback is still there
    expect(spec.paths["/api/v1/conversions/postback"]?.post).toBeDefined()
  })

  it("answers unknown routes with a JSON 404, or an HTML page for browsers", async () => {
    const api = await fetch(`${service.url}/no/such/route`)
    expect(api.status).toBe(404)
    expect(await api.json()).toMatchObject({ error: { code: "not_found" } })
    const page = await fetch(`${service.url}/no/such/route`, { headers: { accept: "text/html" } })
    expect(page.status).toBe(404)
    expect(await page.text()).toContain("Page not found")
  })

  it("answers a non-JSON body with a JSON 415 and an oversized body with a JSON 413", async () => {
    const wrongType = await fetch(`${service.url}/api/v1/links/match`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "https://example.com"
    })
    expect(wrongType.status).toBe(415)
    expect(await wrongType.json()).toMatchObject({ error: { code: "unsupported_media_type" } })
    const huge = await postJson(
      `${service.url}/api/v1/links/match`,
      JSON.stringify({ url: "x".repeat(MAX_BODY_BYTES) })
    )
    expect(huge.status).toBe(413)
    expect(huge.body).toMatchObject({ error: { code: "payload_too_large" } })
  })

  it("answers unknown routes for every method with a JSON 404 and a bodiless HEAD 404", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const response = await fetch(`${service.url}/nowhere`, { method })
      expect(response.status).toBe(404)
      expect(await response.json()).toMatchObject({ error: { code: "not_found" } })
    }
    expect((await fetch(`${service.url}/nowhere`, { method: "HEAD" })).status).toBe(404)
  })
})
