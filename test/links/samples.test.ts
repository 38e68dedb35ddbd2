import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { postJson } from "../support/http.ts"
import { startSampleService } from "../support/sampleService.ts"
import type { RunningService } from "../support/TestService.ts"

// Matching against the shipped sample catalog (data/samples), loaded through
// the real pipelines (this run's snapshot of them) rather than the test fixture.
describe("matching against the sample catalog", () => {
  let service: RunningService
  const match = (url: string) => postJson(`${service.url}/api/v1/links/match`, { url })

  beforeAll(async () => {
    service = await startSampleService()
  })
  afterAll(() => service.close())

  it.each([
    ["https://www.amazon.co.uk/dp/B0TEST?tag=someoneelse-21&linkCode=ll1", "amazon-associates:A1F83G8C2ARO7P"],
    ["https://www.amazon.de/dp/B0TEST", "amazon-associates:A1PA6795UKMFR9"],
    ["https://oldnavy.gap.com/browse/product.do?pid=1", "rakuten:11914"],
    ["https://www.gap.com/browse/product.do?pid=1", "cj:0358855"],
    ["https://shop.lululemon.com/p/x", "rakuten:69950"],
    ["https://likenew.lululemon.com/p/x", "impact:73034"],
    // Both active; Impact's reported EPC (51.40) beats CJ's (16.21).
    ["https://www.hp.com/us-en/shop/x", "impact:75689"]
  ])("%s -> %s", async (url, programId) => {
    const res = await match(url)
    expect(res.status).toBe(200)
    expect(res.body.matched, JSON.stringify(res.body)).toBe(true)
    expect(res.body.program.id).toBe(programId)
    expect(res.body.link.affiliate_url).toContain(res.body.link.tracking_id)
  })

  // Every no-match reason, produced from the shipped samples. (unwrap_loop has
  // no case here: a wrapped destination is a strict part of its link, so a
  // chain of links cannot come back to one already seen; the check stays as a
  // guard.)
  it.each([
    // expedia.com / oakinteriors.co.uk: the only active programme's network has no link template
    ["https://www.expedia.com/Hotel-Search?destination=Paris", "deep_link_unavailable"],
    ["https://oakinteriors.co.uk/tables/oak-1", "deep_link_unavailable"],
    ["https://www.ikea.com/gb/en/p/x", "no_active_program"],
    ["https://unknown-shop.example/p/1", "no_program"],
    ["https://www.awin1.com/cread.php?awinmid=1&awinaffid=2", "tracking_link_without_destination"],
    [
      Array.from({ length: 9 }).reduce<string>(
        (link) => `https://www.awin1.com/cread.php?ued=${encodeURIComponent(link)}`,
        "https://burpee.com/seeds"
      ),
      "unwrap_too_deep"
    ]
  ])("%s -> matched: false, %s", async (url, reason) => {
    const res = await match(url)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ matched: false, reason, program: null, link: null })
    expect(res.body.message).not.toMatch(/none is active/)
  })

  it("links a programme that forbids deep links to the merchant's home page, flagged", async () => {
    const res = await match("https://www.crutchfield.com/p_123/speaker.html")
    expect(res.body.matched, JSON.stringify(res.body)).toBe(true)
    expect(res.body.link).toMatchObject({ deep_link: false, lands_on: "https://www.crutchfield.com/" })
  })

  it("replaces someone else's Amazon tag with ours", async () => {
    const res = await match("https://www.amazon.co.uk/dp/B0TEST?tag=someoneelse-21&ascsubtag=x")
    expect(res.body.link.affiliate_url).not.toContain("someoneelse")
    expect(res.body.link.affiliate_url).toContain("tag=brightpickuk-21")
  })

  it("skips the closed ShareASale programme for the Awin one", async () => {
    const res = await match("https://burpee.com/seeds")
    expect(res.body.matched).toBe(true)
    expect(res.body.program.network).toBe("awin")
  })

  it("prefers the reported EPC (newegg: Rakuten EPC 17.52 over Impact 2% without EPC)", async () => {
    const res = await match("https://www.newegg.com/p/x")
    expect(res.body.program.network).toBe("rakuten")
  })
})
