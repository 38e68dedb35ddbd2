import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getJson, postJson } from "../support/http.ts"
import { startMarketsService, XM5 } from "../support/marketsCatalog.ts"
import type { RunningService } from "../support/TestService.ts"

// Markets over real HTTP: a country answers only offers priced in its
// currency (the same headphones sold in the US, the UK and Germany show the
// shopper's own store), price words are read in that currency, and an
// answer without a market says which currencies it spans.

const currencies = (results: ReadonlyArray<{ price: { currency: string } }>) =>
  [...new Set(results.map((result) => result.price.currency))].sort()

describe("markets: /api/search, /api/deals and /search answer for the shopper's country", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startMarketsService()
  })
  afterAll(() => service.close())
  const get = (path: string, headers: Record<string, string> = {}) => getJson(`${service.url}${path}`, headers)

  it("country=GB shows only GBP offers: the UK store's offer of a model sold in three currencies", async () => {
    const { status, body } = await get("/api/search?q=headphones&country=GB")
    expect(status).toBe(200)
    expect(body.count).toBe(3)
    expect(currencies(body.results)).toEqual(["GBP"])
    expect(body.results.find((r: any) => r.title === XM5.title).store).toBe("Currys")
    expect(body.market).toEqual({
      country: "GB",
      currency: "GBP",
      source: "parameter",
      currencies: ["GBP"],
      countries: ["GB"]
    })
    expect(body.guidance).toContain("Market: GB (prices in GBP")
  })

  it("each market gets its own currency (lower-case codes and UK accepted)", async () => {
    for (const [country, currency] of [
      ["us", "USD"],
      ["DE", "EUR"],
      ["UK", "GBP"]
    ]) {
      const { status, body } = await get(`/api/search?q=headphones&country=${country}`)
      expect(status).toBe(200)
      expect(body.count).toBeGreaterThan(0)
      expect(currencies(body.results)).toEqual([currency])
    }
  })

  it('price words are read in the market\'s currency: "under 100" in GB is £100, in the US $100', async () => {
    const gb = await get(`/api/search?q=${encodeURIComponent("headphones under 100")}&country=GB`)
    expect(gb.body.results.map((r: any) => [r.title, r.price.amount, r.price.currency])).toEqual([
      ["Kids Volume Limited Headphones", 19, "GBP"]
    ])
    expect(gb.body.guidance).toContain("price at most 100 GBP")
    const us = await get(`/api/search?q=${encodeURIComponent("headphones under 100")}&country=US`)
    expect(us.body.results.map((r: any) => [r.title, r.price.currency])).toEqual([["Budget Wired Headphones", "USD"]])
  })

  it("a market's answer holds only offers sold in its country: France and Germany share the euro, not their stores", async () => {
    const stores = (results: ReadonlyArray<{ store: string }>) => [...new Set(results.map((r) => r.store))].sort()
    const fr = await get("/api/search?q=headphones&country=FR")
    expect(fr.status).toBe(200)
    expect(fr.body.results.map((r: any) => [r.title, r.store, r.price.currency])).toEqual([[XM5.title, "Fnac", "EUR"]])
    const de = await get("/api/search?q=headphones&country=DE")
    expect(stores(de.body.results)).toEqual(["MediaMarkt"])
    expect(de.body.results.length).toBe(2)
    const frDeals = await get("/api/deals?country=FR")
    expect(stores(frDeals.body.deals)).toEqual(["Fnac"])
    const dePage = await fetch(`${service.url}/search?q=headphones&country=DE`).then((r) => r.text())
    expect(dePage).toContain("MediaMarkt")
    expect(dePage).not.toContain("Fnac")
  })

  it("currency asks for another currency than the market's", async () => {
    const { body } = await get("/api/search?q=headphones&country=GB&currency=EUR")
    expect(currencies(body.results)).toEqual(["EUR"])
    expect(body.market).toMatchObject({ country: "GB", currency: "EUR" })
  })

  it("without a market the answer spans currencies and says so", async () => {
    const { body } = await get("/api/search?q=headphones")
    expect(body.market.country).toBeNull()
    expect(body.market.currency).toBeNull()
    expect(body.market.currencies).toEqual(currencies(body.results))
    expect(body.market.currencies.length).toBeGreaterThan(1)
    expect(body.guidance).toMatch(/No market given: these results span .*not comparable/)
  })

  it("an unknown country or currency is a 400 naming the field", async () => {
    for (const [path, field] of [
      ["/api/search?q=headphones&country=ZZ", "country"],
      ["/api/search?q=headphones&country=GBR", "country"],
      ["/api/search?q=headphones&currency=XYZ", "currency"],
      ["/api/deals?country=12", "country"],
      ["/api/deals?currency=dollars", "currency"]
    ]) {
      const { status, body } = await get(path)
      expect(status, path).toBe(400)
      expect(JSON.stringify(body.error), path).toContain(field)
    }
  })

  it("/api/deals?country=DE lists only EUR deals; without a market it says which currencies it spans", async () => {
    const de = await get("/api/deals?country=DE")
    expect(de.status).toBe(200)
    expect(de.body.count).toBeGreaterThan(0)
    expect(currencies(de.body.deals)).toEqual(["EUR"])
    expect(de.body.market).toMatchObject({ country: "DE", currency: "EUR", currencies: ["EUR"] })
    const us = await get("/api/deals?country=US")
    expect(us.body.deals.map((d: any) => [d.store, d.price.currency])).toEqual([["BestBuy", "USD"]])
    const all = await get("/api/deals")
    expect(all.body.market.country).toBeNull()
    expect(all.body.market.currencies).toEqual(currencies(all.body.deals))
  })

  it("/api/v1/ai/deals?country=GB ranks only GBP offers; without a market its lists span currencies and say so", async () => {
    const registration = await postJson(`${service.url}/api/v1/partners/register`, { name: "M", email: "m@x.example" })
    const auth = { authorization: `Bearer ${registration.body.api_key}` }
    const gb = await get("/api/v1/ai/deals?country=GB", auth)
    expect(gb.status).toBe(200)
    const listed = (body: any) => [...body.trending, ...body.price_drops, ...body.high_commission]
    expect(listed(gb.body).length).toBeGreaterThan(0)
    expect(currencies(listed(gb.body))).toEqual(["GBP"])
    expect(gb.body.market).toMatchObject({ country: "GB", currency: "GBP", currencies: ["GBP"] })
    const all = await get("/api/v1/ai/deals", auth)
    expect(all.body.market.country).toBeNull()
    expect(all.body.market.currencies).toEqual(currencies(listed(all.body)))
    const fr = await get("/api/v1/ai/deals?country=FR", auth)
    expect(listed(fr.body).length).toBeGreaterThan(0)
    expect([...new Set(listed(fr.body).map((deal: any) => deal.store))]).toEqual(["Fnac"])
    const us = await get("/api/v1/ai/deals?country=US", auth)
    expect(listed(us.body).map((deal: any) => deal.store)).toContain("BestBuy")
    expect(currencies(listed(us.body))).toEqual(["USD"])
    const bad = await get("/api/v1/ai/deals?country=ZZ", auth)
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body.error)).toContain("country")
  })

  it("/api/v1/products/search?country=FR answers the French store's offers in EUR, not Germany's", async () => {
    const fr = await get("/api/v1/products/search?q=headphones&country=FR")
    expect(fr.status).toBe(200)
    // before: country was not a parameter of this endpoint, and the answer spanned every market
    expect([...new Set(fr.body.data.map((offer: any) => offer.store))]).toEqual(["Fnac"])
    expect(currencies(fr.body.data)).toEqual(["EUR"])
    const abroad = await get("/api/v1/products/search?q=headphones&country=FR&currency=GBP")
    expect(currencies(abroad.body.data)).toEqual(["GBP"]) // another currency: shopping abroad, any country
    const all = await get("/api/v1/products/search?q=headphones")
    expect(currencies(all.body.data)).toEqual(["EUR", "GBP", "USD"])
    const bad = await get("/api/v1/products/search?q=headphones&country=ZZ")
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body.error)).toContain("country")
  })

  it("the /search page reads the market from Accept-Language's region, and a country parameter wins", async () => {
    const page = async (path: string, language: string) => {
      const response = await fetch(`${service.url}${path}`, { headers: { "accept-language": language } })
      return { status: response.status, html: await response.text(), vary: response.headers.get("vary") }
    }
    const uk = await page("/search?q=headphones", "en-GB,en;q=0.9")
    expect(uk.status).toBe(200)
    expect(uk.html).toContain("prices in GBP for United Kingdom")
    expect(uk.html).toContain("Currys")
    expect(uk.html).not.toContain("BestBuy")
    expect(uk.vary).toContain("Accept-Language")
    const us = await page("/search?q=headphones&country=US", "en-GB")
    expect(us.html).toContain("prices in USD for United States")
    expect(us.html).not.toContain("Currys")
    const none = await page("/search?q=headphones", "de")
    expect(none.html).toContain("no country chosen")
    const bad = await page("/search?q=headphones&country=ZZ", "en-GB")
    expect(bad.status).toBe(400)
    expect(bad.html).toContain("We do not know the country")
  })
})

describe("markets: DEFAULT_COUNTRY", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startMarketsService({ defaultCountry: Option.some("DE") })
  })
  afterAll(() => service.close())

  it("answers requests that name no market for the operator's country; a parameter still wins", async () => {
    const fallback = await getJson(`${service.url}/api/search?q=headphones`)
    expect(currencies(fallback.body.results)).toEqual(["EUR"])
    expect(fallback.body.market).toMatchObject({ country: "DE", source: "default" })
    const asked = await getJson(`${service.url}/api/search?q=headphones&country=US`)
    expect(currencies(asked.body.results)).toEqual(["USD"])
  })
})
