import { Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { postJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// Every JSON body the HttpApi contract declares is strict, as /openapi.json
// says (additionalProperties: false): an unknown property or a wrong type is a
// 400 naming it, never silently ignored.
const ADMIN_TOKEN = "strict-bodies-admin-token-0123456789"

describe("JSON request bodies refuse unknown properties and wrong types", () => {
  let service: RunningService
  let partnerKey: string
  beforeAll(async () => {
    service = await startService({ adminToken: Redacted.make(ADMIN_TOKEN) })
    const registered = await postJson(`${service.url}/api/v1/partners/register`, {
      name: "Strict Bodies",
      email: "strict@x.example"
    })
    expect(registered.status).toBe(200)
    partnerKey = registered.body.api_key
  })
  afterAll(() => service.close())

  interface Endpoint {
    readonly path: string
    readonly valid: Record<string, unknown>
    readonly headers: Record<string, string>
  }
  const endpoints = (): ReadonlyArray<Endpoint> => [
    {
      path: "/api/v1/partners/register",
      valid: { name: "Typo Partner", email: "typo@x.example" },
      headers: {}
    },
    { path: "/api/v1/links/match", valid: { url: "https://www.example-store.com/p/1" }, headers: {} },
    {
      path: "/api/v1/ai/match-link",
      valid: { url: "https://www.example-store.com/p/1" },
      headers: { authorization: `Bearer ${partnerKey}` }
    },
    {
      path: "/api/v1/ai/generate-content",
      // `type` first: the wrong-type check sends 42 for the first field, and an integer is a valid program_id (its number)
      valid: { type: "social", program_id: "cj:2002", tone: "friendly" },
      headers: { authorization: `Bearer ${partnerKey}` }
    },
    { path: "/admin/ingest", valid: { feed: "none", wait: false }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }
  ]

  it("answers 400 naming an unknown property on every JSON body endpoint", async () => {
    for (const endpoint of endpoints()) {
      const res = await postJson(
        `${service.url}${endpoint.path}`,
        { ...endpoint.valid, destination_url: "https://typo.example" },
        endpoint.headers
      )
      expect({ path: endpoint.path, status: res.status }).toEqual({ path: endpoint.path, status: 400 })
      expect(res.body.error.code).toBe("invalid_body")
      expect(res.body.error.message).toContain("destination_url")
      expect(res.body.error.details).toContainEqual(expect.objectContaining({ field: "destination_url", in: "body" }))
    }
  })

  it("answers 400 naming a field of the wrong type on every JSON body endpoint", async () => {
    for (const endpoint of endpoints()) {
      const [field] = Object.keys(endpoint.valid)
      const res = await postJson(
        `${service.url}${endpoint.path}`,
        { ...endpoint.valid, [field!]: 42 },
        endpoint.headers
      )
      expect({ path: endpoint.path, status: res.status }).toEqual({ path: endpoint.path, status: 400 })
      expect(res.body.error.code).toBe("invalid_body")
      expect(res.body.error.details).toContainEqual(expect.objectContaining({ field, in: "body" }))
    }
  })

  it("still accepts the same bodies without the unknown property", async () => {
    for (const endpoint of endpoints()) {
      const res = await postJson(`${service.url}${endpoint.path}`, endpoint.valid, endpoint.headers)
      expect({ path: endpoint.path, invalidBody: res.body?.error?.code === "invalid_body" }).toEqual({
        path: endpoint.path,
        invalidBody: false
      })
    }
  })
})
