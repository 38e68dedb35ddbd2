import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "../../infra/Database.ts"
import { getJson, postJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// A store that fails under a request is a real outage: 503 with Retry-After
// (so a client knows when to come back), in our error body; never the 500 of
// a defect. The store is made to fail for real: its tables are dropped under
// the running service.
describe("a failing store answers 503 with Retry-After", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
    const before = await postJson(`${service.url}/api/v1/partners/register`, { name: "Early", email: "e@x.example" })
    expect(before.status).toBe(200)
    await service.run(
      Effect.gen(function* () {
        const db = yield* Database
        yield* db.run("DROP TABLE partners")
        yield* db.run("DROP TABLE programs")
      })
    )
  })
  afterAll(() => service.close())

  it("registration: 503 storage_unavailable with Retry-After, not a 500", async () => {
    const res = await postJson(`${service.url}/api/v1/partners/register`, { name: "Late", email: "l@x.example" })
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe("storage_unavailable")
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0)
  })

  it("the programme list: 503 storage_unavailable with Retry-After", async () => {
    const res = await getJson(`${service.url}/api/v1/programs`)
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe("storage_unavailable")
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0)
  })

  it("the document lists 503 for registration", async () => {
    const spec = await getJson(`${service.url}/openapi.json`)
    expect(Object.keys(spec.body.paths["/api/v1/partners/register"].post.responses)).toContain("503")
  })
})
