import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { insertCatalog, NETWORKS, nikeProgrammes } from "../support/catalogFixture.ts"
import { postJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// Link matching by market: a merchant with a programme per country (Nike US
// at 5%, Nike UK at 7%, both listing nike.com) gets the visitor's market's
// programme for a URL that names no country, not the better-paid one; a
// URL that names its country keeps it whoever asks. The answer says which
// market was chosen and why.

const NIKE = nikeProgrammes()

describe("POST /api/v1/links/match prefers the visitor's market", () => {
  let service: RunningService
  const match = (body: object, headers: Record<string, string> = {}) =>
    postJson(`${service.url}/api/v1/links/match`, body, headers)

  beforeAll(async () => {
    service = await startService()
    await service.run(
      Effect.gen(function* () {
        yield* insertCatalog(NETWORKS, NIKE)
        yield* (yield* ProgramMatcher).reload
      })
    )
  })
  afterAll(() => service.close())

  it("without a market: the better-paid programme, and market null", async () => {
    const { status, body } = await match({ url: "https://www.nike.com/t/pegasus-41" })
    expect(status).toBe(200)
    expect(body.program).toMatchObject({ name: "Nike UK", country: "GB" })
    expect(body.market).toBeNull()
  })

  it("a US visitor's nike.com URL gets Nike US (country field, or Accept-Language's region)", async () => {
    const byField = await match({ url: "https://www.nike.com/t/vomero-18", country: "US" })
    expect(byField.body.program).toMatchObject({ name: "Nike US", country: "US" })
    expect(byField.body.market).toEqual({ country: "US", source: "parameter" })
    const byHeader = await match(
      { url: "https://www.nike.com/t/invincible-3" },
      { "accept-language": "en-US,en;q=0.8" }
    )
    expect(byHeader.body.program.name).toBe("Nike US")
    expect(byHeader.body.market).toEqual({ country: "US", source: "accept-language" })
  })

  it("a URL that names its country keeps that market's programme", async () => {
    const { body } = await match({ url: "https://www.nike.com/gb/t/air-max-90", country: "US" })
    expect(body.program.name).toBe("Nike UK")
    expect(body.market).toEqual({ country: "GB", source: "url" })
  })

  it("an unknown country is a 400 naming the field", async () => {
    const { status, body } = await match({ url: "https://www.nike.com/t/x", country: "XX" })
    expect(status).toBe(400)
    expect(JSON.stringify(body.error)).toContain("country")
  })

  it("POST /api/v1/ai/match-link prefers the visitor's market the same way, and says so", async () => {
    const registration = await postJson(`${service.url}/api/v1/partners/register`, { name: "A", email: "a@x.example" })
    const auth = { authorization: `Bearer ${registration.body.api_key}` }
    const us = await postJson(
      `${service.url}/api/v1/ai/match-link`,
      { url: "https://www.nike.com/t/pegasus-41", country: "US" },
      auth
    )
    expect(us.status).toBe(200)
    expect(us.body).toMatchObject({ matched: true, program: "Nike US", market: { country: "US", source: "parameter" } })
    const none = await postJson(
      `${service.url}/api/v1/ai/match-link`,
      { url: "https://www.nike.com/t/vomero-18" },
      auth
    )
    expect(none.body).toMatchObject({ program: "Nike UK", market: null })
    const bad = await postJson(
      `${service.url}/api/v1/ai/match-link`,
      { url: "https://www.nike.com/t/x", country: "XX" },
      auth
    )
    expect(bad.status).toBe(400)
  })
})
