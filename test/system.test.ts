import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getJson } from "./support/http.ts"
import { startService, type RunningService } from "./support/TestService.ts"

describe("system endpoints over real HTTP", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
  })
  afterAll(() => service.close())

  it("answers /health and /ready with DuckDB and Meilisearch reachable", async () => {
    expect((await getJson(`${service.url}/health`)).body).toEqual({ status: "ok" })
    const ready = await fetch(`${service.url}/ready`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: "ready", checks: { duckdb: true, meilisearch: true } })
  })

  it("serves the OpenAPI document and the docs page", async () => {
    const spec = (await getJson(`${service.url}/openapi.json`)).body
    expect(spec.openapi).toMatch(/^3\./)
    expect(Object.keys(spec.paths)).toContain("/health")
    const docs = await fetch(`${service.url}/docs`)
    expect(docs.headers.get("content-type")).toContain("text/html")
  })

  it("answers unknown routes with a JSON 404, or an HTML page for browsers", async () => {
    const api = await fetch(`${service.url}/no/such/route`)
    expect(api.status).toBe(404)
    expect(await api.json()).toMatchObject({ error: { code: "not_found" } })
    const page = await fetch(`${service.url}/no/such/route`, { headers: { accept: "text/html" } })
    expect(page.status).toBe(404)
    expect(await page.text()).toContain("Page not found")
  })
})
