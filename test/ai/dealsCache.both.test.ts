import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { Database } from "../../infra/Database.ts"
import { insertCatalog } from "../support/catalogFixture.ts"
import { insertProducts } from "../support/catalogFixtures.ts"
import { getJson, postJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"
import { PRODUCTS, titles } from "./dealsFixture.ts"

// GET /api/v1/ai/deals with the service's default list cache (deals.test.ts
// turns it off), and what a storage failure looks like. Its own file: the
// cache time is read from the environment once per process.

describe("GET /api/v1/ai/deals: cached lists, storage failures", () => {
  let service: RunningService
  let key: string

  beforeAll(async () => {
    service = await startService()
    await service.run(
      Effect.gen(function* () {
        yield* insertCatalog()
        yield* (yield* ProgramMatcher).reload
        yield* insertProducts(PRODUCTS)
      })
    )
    key = (await postJson(`${service.url}/api/v1/partners/register`, { name: "Cache Check", email: "c@x.example" }))
      .body.api_key
  }, 120_000)
  afterAll(() => service.close())

  const get = (query: string) => getJson(`${service.url}/api/v1/ai/deals${query}`, { authorization: `Bearer ${key}` })

  it("serves one computation per filter set for a while, to every caller", async () => {
    const first = await get("?category=sports")
    const second = await get("?category=Sports")
    expect(first.status).toBe(200)
    expect(second.body.generated_at).toBe(first.body.generated_at)
    expect(titles(second.body.price_drops)).toEqual(["Trail Running Shoes", "Yoga Mat"])
  })

  it("a database failure is a 503 (never a 500), and is not cached", async () => {
    const rename = (from: string, to: string) =>
      service.run(Effect.flatMap(Database, (db) => db.run(`ALTER TABLE ${from} RENAME TO ${to}`)))
    await rename("clicks", "clicks_away")
    try {
      const failed = await get("?min_discount=5")
      expect(failed.status).toBe(503)
      expect(failed.body.error.code).toBe("storage_unavailable")
    } finally {
      await rename("clicks_away", "clicks")
    }
    const recovered = await get("?min_discount=5")
    expect(recovered.status).toBe(200)
    expect(titles(recovered.body.price_drops)).toEqual(["Trail Running Shoes", "Yoga Mat", "Brass Desk Lamp"])
  })
})
