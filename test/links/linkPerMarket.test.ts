import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { insertCatalog, NETWORKS, nikeProgrammes } from "../support/catalogFixture.ts"
import { getJson, postJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// One partner, one URL, shoppers of several markets. Nike US (CJ, 5%) and
// Nike UK (Awin, 7%) both list nike.com; with no market Nike UK wins. A US
// shopper's match must get a link that goes through Nike US even after the
// partner holds a Nike UK link to the same URL, and the other way round; a
// market that does not change the programme shares the link of no market.
// Every answer names the programme its link really goes through.

/** The network a link's affiliate URL really goes through (the fixture's templates). */
const networkOf = (affiliateUrl: string) =>
  affiliateUrl.startsWith("https://www.anrdoezrs.net/")
    ? "cj"
    : affiliateUrl.startsWith("https://www.awin1.com/")
      ? "awin"
      : "?"

describe("a partner's links to one URL, per market", () => {
  let service: RunningService
  let auth: Record<string, string>
  const match = (body: object) => postJson(`${service.url}/api/v1/links/match`, body, auth)
  const setCatalog = (usRate: number) =>
    service.run(
      Effect.gen(function* () {
        yield* insertCatalog(NETWORKS, nikeProgrammes(usRate))
        yield* (yield* ProgramMatcher).reload
      })
    )

  beforeAll(async () => {
    service = await startService()
    await setCatalog(5)
    const registration = await postJson(`${service.url}/api/v1/partners/register`, { name: "M", email: "m@x.example" })
    auth = { authorization: `Bearer ${registration.body.api_key}` }
  })
  afterAll(() => service.close())

  it("a US shopper's link after a GB one goes through Nike US; each answer names its link's programme", async () => {
    const url = "https://www.nike.com/t/pegasus-41"
    const gb = await match({ url, country: "GB" })
    const us = await match({ url, country: "US" })
    const none = await match({ url })
    const usAgain = await match({ url, country: "US" })

    expect(gb.body).toMatchObject({ matched: true, created: true, program: { name: "Nike UK", network: "awin" } })
    expect(networkOf(gb.body.link.affiliate_url)).toBe("awin")
    // before links per market this was GB's link (Awin) under an answer naming Nike US
    expect(us.body).toMatchObject({ created: true, program: { name: "Nike US", network: "cj" } })
    expect(networkOf(us.body.link.affiliate_url)).toBe("cj")
    expect(us.body.link.tracking_id).not.toBe(gb.body.link.tracking_id)
    // GB's market chose what no market chooses: one shared link
    expect(none.body).toMatchObject({ created: false, program: { name: "Nike UK" } })
    expect(none.body.link.tracking_id).toBe(gb.body.link.tracking_id)
    expect(usAgain.body).toMatchObject({ created: false, program: { name: "Nike US" } })
    expect(usAgain.body.link.tracking_id).toBe(us.body.link.tracking_id)

    const listed = await getJson(`${service.url}/api/v1/links`, auth)
    const byId = new Map<string, { market: string | null }>(
      listed.body.data.map((link: { tracking_id: string; market: string | null }) => [link.tracking_id, link])
    )
    expect(byId.get(us.body.link.tracking_id)?.market).toBe("US")
    expect(byId.get(gb.body.link.tracking_id)?.market).toBeNull()
  })

  it("a link asked for again keeps its programme, and the answer names that one, not the catalog's new best", async () => {
    const url = "https://www.nike.com/t/vomero-18"
    const first = await match({ url })
    expect(first.body.program.name).toBe("Nike UK")
    await setCatalog(12) // Nike US now pays more: the best programme with no market
    try {
      const again = await match({ url })
      expect(again.body.created).toBe(false)
      expect(again.body.link.tracking_id).toBe(first.body.link.tracking_id)
      expect(networkOf(again.body.link.affiliate_url)).toBe("awin")
      expect(again.body.program).toMatchObject({ name: "Nike UK", network: "awin", country: "GB" })
      // a new URL gets the new best
      const fresh = await match({ url: "https://www.nike.com/t/invincible-3" })
      expect(fresh.body.program.name).toBe("Nike US")
    } finally {
      await setCatalog(5)
    }
  })
})
