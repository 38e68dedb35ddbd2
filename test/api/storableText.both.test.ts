import { Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getJson, postJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// A NUL character or a lone surrogate is no text anyone means and no store
// can hold (PostgreSQL refuses NUL, both stores a lone surrogate): every
// HttpApi input refuses it with a 400 naming the field, rather than a 503
// "storage unavailable" a client would retry forever.
const ADMIN = "storable-text-admin-token-0123456789"

describe("NUL and lone surrogates are refused with a 400 naming the field", () => {
  let service: RunningService
  let partner: Record<string, string>
  beforeAll(async () => {
    service = await startService({ adminToken: Redacted.make(ADMIN) })
    const registered = await postJson(`${service.url}/api/v1/partners/register`, { name: "Text", email: "t@x.example" })
    partner = { authorization: `Bearer ${registered.body.api_key}` }
  })
  afterAll(() => service.close())

  const expectRefused = (res: { status: number; body: any }, where: string, field: string) => {
    expect(res.status).toBe(400)
    expect(res.body.error.message).toContain(`'${field}'`)
    expect(res.body.error.details).toEqual([expect.objectContaining({ field, in: where })])
  }

  it("in a path parameter", async () => {
    const res = await getJson(`${service.url}/admin/runs/run-1%00x`, { authorization: `Bearer ${ADMIN}` })
    expectRefused(res, "path", "id")
  })

  it("in a query parameter", async () => {
    expectRefused(await getJson(`${service.url}/api/v1/programs?network=awin%00x`), "query", "network")
  })

  it("in body fields: a name, a URL, an id", async () => {
    const url = service.url
    expectRefused(
      await postJson(`${url}/api/v1/partners/register`, { name: "a\u0000b", email: "n@x.example" }),
      "body",
      "name"
    )
    expectRefused(
      await postJson(`${url}/api/v1/links/match`, { url: "https://example-store.com/p/1\udc00" }),
      "body",
      "url"
    )
    expectRefused(
      await postJson(
        `${url}/api/v1/ai/generate-content`,
        { program_id: "\ud800awin:1", type: "social", tone: "casual" },
        partner
      ),
      "body",
      "program_id"
    )
  })

  it("leaves search phrases to the search (it takes any text)", async () => {
    expect((await getJson(`${service.url}/api/deals?q=a%00b`)).status).toBe(200)
  })

  it("lets a surrogate pair (an emoji) through", async () => {
    const res = await postJson(`${service.url}/api/v1/partners/register`, { name: "Deals 👍🏽", email: "e@x.example" })
    expect(res.status).toBe(200)
  })
})
