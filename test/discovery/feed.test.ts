import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import { parseFeedTrackingId } from "../../domain/links/feedTrackingId.ts"
import { SearchSync } from "../../pipelines/search/SearchSync.ts"
import { insertProducts } from "../support/catalogFixtures.ts"
import { discoveryCatalog } from "../support/discoveryCatalog.ts"
import { getJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"

describe("discovery feed contract (GET /api/deals, GET /api/search)", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
    await service.run(insertProducts(discoveryCatalog))
    await service.run(SearchSync.use((sync) => sync.syncProducts()))
    await service.run(DiscoverySearch.use((search) => search.refreshVocabulary))
  })
  afterAll(() => service.close())

  const get = (path: string) => getJson(`${service.url}${path}`)

  it("GET /api/deals: DealFeed with defaults, deals ordered by score", async () => {
    const response = await get("/api/deals")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("application/json")
    const feed = response.body
    expect(Object.keys(feed).sort()).toEqual(["count", "deals", "disclosure", "market", "name"])
    expect(typeof feed.name).toBe("string")
    expect(feed.disclosure).toMatch(/commission/i)
    expect(feed.count).toBe(feed.deals.length)
    expect(feed.count).toBeGreaterThan(3)
    const ids = feed.deals.map((deal: any) => deal.title)
    expect(ids).not.toContain("Robot Vacuum Cleaner") // a feed "was" price alone is not a deal
    expect(ids).not.toContain("Vistara 43 inch 4K Smart TV") // no discount
    const scores = await service.run(
      Effect.gen(function* () {
        const search = yield* DiscoverySearch
        return (yield* search.deals({ limit: 24 })).documents.map((doc) => doc.deal_score)
      })
    )
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
  })

  it("every Deal field is present and well-formed", async () => {
    const { body } = await get("/api/deals?limit=100&tag=partner-7")
    for (const deal of body.deals) {
      expect(typeof deal.id).toBe("string")
      for (const field of ["title", "description", "category", "store", "disclosure", "assistantInstructions"]) {
        expect(typeof deal[field]).toBe("string")
      }
      expect(typeof deal.price.amount).toBe("number")
      expect(deal.price.currency).toMatch(/^[A-Z]{3}$/)
      expect(deal.price.originalPrice).toBeGreaterThan(deal.price.amount)
      expect(deal.price.discountPercent).toBeGreaterThanOrEqual(10)
      expect(deal.price.originalPriceObservedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(deal.couponCode).toBeNull()
      expect(deal.couponCodeStatus).toBe("pending_partner_confirmation")
      expect(deal.links.landing).toBe(`${service.url}/deals/${deal.id}`)
      expect(deal.links.tracked.startsWith(`${service.url}/t/f.`)).toBe(true)
      const tracked = parseFeedTrackingId(deal.links.tracked.slice(`${service.url}/t/`.length))
      expect(tracked?.tag).toBe("partner-7")
      expect(Array.isArray(deal.buyingChecks)).toBe(true)
      expect(deal.buyingChecks.join(" ")).toMatch(/checkout/)
      expect(deal.buyingChecks.join(" ")).toMatch(/return policy/)
      expect(deal.buyingChecks.join(" ")).toMatch(/coupon/i)
      expect(deal.assistantInstructions).toMatch(/disclosure/)
      expect(deal.assistantInstructions).toMatch(/invent/)
    }
  })

  it("adds the Amazon Associates sentence for Amazon deals only", async () => {
    const { body } = await get("/api/deals?limit=100")
    const amazon = body.deals.find((deal: any) => deal.store === "Amazon")
    expect(amazon.disclosure).toContain("As an Amazon Associate I earn from qualifying purchases.")
    expect(body.disclosure).toContain("As an Amazon Associate")
    const other = body.deals.find((deal: any) => deal.store !== "Amazon")
    expect(other.disclosure).not.toContain("Amazon")
    const { body: toys } = await get("/api/deals?category=toys%20%26%20games")
    expect(toys.disclosure).not.toContain("Amazon")
  })

  it("filters deals by category and store, case-insensitively; unknown values give an empty list", async () => {
    const toys = (await get("/api/deals?category=toys%20%26%20games")).body
    expect(toys.count).toBeGreaterThan(0)
    expect(toys.deals.every((deal: any) => deal.category === "Toys & Games")).toBe(true)
    const store = (await get("/api/deals?store=bigscreen")).body
    expect(store.deals.map((deal: any) => deal.title)).toEqual(["Vistara 55 inch 4K UHD Smart Television"])
    const none = await get("/api/deals?category=no-such-category")
    expect(none.status).toBe(200)
    expect(none.body).toMatchObject({ count: 0, deals: [] })
  })

  it("limit bounds the count; q searches among deals by relevance", async () => {
    expect((await get("/api/deals?limit=2")).body.count).toBe(2)
    const tv = (await get("/api/deals?q=television")).body
    expect(tv.deals[0].title).toContain("Television")
    expect(tv.deals.every((deal: any) => deal.price.discountPercent >= 10)).toBe(true)
  })

  it("defaults: deals limit 24 and tag 'api'; search limit 8 and tag 'ai-search'", async () => {
    const deals = (await get("/api/deals")).body
    expect(deals.count).toBeLessThanOrEqual(24)
    expect(parseFeedTrackingId(deals.deals[0].links.tracked.split("/t/")[1])?.tag).toBe("api")
    const search = (await get("/api/search?q=s")).body
    expect(search.count).toBe(8)
    expect(parseFeedTrackingId(search.results[0].links.tracked.split("/t/")[1])?.tag).toBe("ai-search")
    const many = (await get("/api/search?q=e&limit=100")).body
    expect(many.count).toBe(many.results.length)
  })

  it("GET /api/search: SearchFeed with guidance describing the interpretation", async () => {
    const response = await get("/api/search?q=wireless%20earbuds%20under%20%24100%20for%20running")
    expect(response.status).toBe(200)
    // every documented field, and the page's place among all matches (total, offset; nextOffset only before the last page)
    expect(Object.keys(response.body).sort()).toEqual([
      "count",
      "guidance",
      "market",
      "name",
      "offset",
      "results",
      "total"
    ])
    expect(response.body.guidance).toContain("price at most 100 USD")
    expect(response.body.count).toBe(response.body.results.length)
    expect(response.body.results[0].title).toContain("Sport Earbuds")
    expect(response.body.results.every((deal: any) => deal.price.amount <= 100 && deal.price.currency === "USD")).toBe(
      true
    )
    // out of stock: excluded while something in stock matches
    expect(response.body.results.map((deal: any) => deal.title)).not.toContain("RunBeat In-Ear Headphones for Running")
  })

  it("shows an originalPrice only when our reference is above today's price", async () => {
    const { body } = await get("/api/search?q=earbuds&limit=100")
    expect(body.count).toBeGreaterThan(0)
    for (const deal of body.results) {
      if (deal.price.originalPrice === undefined) {
        expect(deal.price.discountPercent).toBeUndefined()
        expect(deal.assistantInstructions).toContain("Do not describe this product as discounted")
      } else {
        expect(deal.price.originalPrice).toBeGreaterThan(deal.price.amount)
        expect(deal.price.discountPercent).toBeGreaterThan(0)
      }
    }
  })

  it("finds the expected products for typical intent phrases", async () => {
    const top = async (q: string, n = 3): Promise<Array<string>> =>
      ((await get(`/api/search?q=${encodeURIComponent(q)}`)).body.results as Array<any>)
        .slice(0, n)
        .map((deal) => deal.title)
    expect(await top("wireless earbuds under $100 for running", 1)).toEqual([
      "PulseFit Wireless Sport Earbuds, sweatproof, for running and gym"
    ])
    expect(await top("gift for dad who likes coffee")).toEqual(expect.arrayContaining(["World's Best Dad Coffee Mug"]))
    for (const title of await top("gift for dad who likes coffee")) expect(title).toMatch(/coffee|espresso/i)
    expect(await top("lego for a 10 year old", 2)).toEqual(
      expect.arrayContaining(["LEGO Technic Race Car for kids 10 and up"])
    )
    for (const title of await top("lego for a 10 year old", 5)) expect(title).toMatch(/LEGO/)
    expect(await top("4k tv between 300 and 600 dollars", 5)).toEqual(
      expect.arrayContaining(["Vistara 55 inch 4K UHD Smart Television", "Vistara 43 inch 4K Smart TV"])
    )
    expect(await top("4k tv between 300 and 600 dollars", 5)).toHaveLength(2)
    // one offer per product: the 43 inch TV sold by two stores is one result (the more relevant offer)
    expect((await top("vistara 43 inch", 5)).filter((title) => title === "Vistara 43 inch 4K Smart TV")).toHaveLength(1)
    expect(await top("laptop", 1)).toEqual(["Orion 14 Notebook, 16GB RAM, 512GB SSD"]) // synonym
    expect((await top("yoga under 30 euros", 5)).sort()).toEqual(["Yoga Blocks, set of 2", "Yoga Mat, non-slip, 6 mm"])
  })

  it("shows out-of-stock products only when nothing else matches, and says so", async () => {
    const { body } = await get("/api/search?q=runbeat")
    expect(body.results.map((deal: any) => deal.title)).toEqual(["RunBeat In-Ear Headphones for Running"])
    expect(body.guidance).toMatch(/out-of-stock/)
    expect(body.results[0].price.originalPrice).toBeUndefined()
  })

  it("answers absurd price bounds without failing (no 5xx from the filter they build)", async () => {
    for (const q of [
      "tv under $99999999999999999999999",
      "over 99999999999999999999 dollars",
      "tv between 1 and 1e400"
    ]) {
      const response = await get(`/api/search?q=${encodeURIComponent(q)}`)
      expect(response.status, q).toBe(200)
    }
  })

  it("rejects bad input with a 400 naming the parameter", async () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["/api/search", "q"],
      ["/api/search?q=", "q"],
      ["/api/search?q=%20%20", "q"],
      [`/api/search?q=${"a".repeat(201)}`, "q"],
      ["/api/search?q=tv&limit=0", "limit"],
      ["/api/search?q=tv&limit=101", "limit"],
      ["/api/search?q=tv&limit=abc", "limit"],
      ["/api/search?q=tv&limit=1.5", "limit"],
      ["/api/search?q=tv&offset=-1", "offset"],
      ["/api/search?q=tv&offset=1001", "offset"],
      ["/api/search?q=tv&offset=abc", "offset"],
      ["/api/search?q=tv&offset=2.5", "offset"],
      ["/api/search?q=tv&tag=Bad%20Tag", "tag"],
      [`/api/search?q=tv&category=${"c".repeat(101)}`, "category"],
      ["/api/deals?limit=-1", "limit"],
      ["/api/deals?limit=", "limit"],
      ["/api/deals?tag=%2Fslash", "tag"],
      [`/api/deals?tag=${"t".repeat(65)}`, "tag"],
      [`/api/deals?store=${"s".repeat(101)}`, "store"],
      [`/api/deals?q=${"q".repeat(201)}`, "q"]
    ]
    for (const [path, field] of cases) {
      const response = await get(path)
      expect(response.status, path).toBe(400)
      expect(response.body.error.code, path).toBe("invalid_parameter")
      expect(response.body.error.message, path).toContain(`'${field}'`)
    }
  })

  it("GET /api/search: the hot path answers exactly as the HttpApi route", async () => {
    // A valid request to /api/search is answered before the router
    // (api/discovery/SearchHotPath.ts); the router matches /api/search/ as
    // the same route, and the hot path takes only the exact path: the two
    // answers must be the same bytes, headers aside from the date.
    for (const query of [
      "q=wireless%20earbuds%20under%20%24100%20for%20running",
      "q=earbuds&limit=2&tag=my-bot&category=Earbuds",
      "q=zzzqqq%20nothing&limit=3"
    ]) {
      const [hot, routed] = await Promise.all([
        fetch(`${service.url}/api/search?${query}`),
        fetch(`${service.url}/api/search/?${query}`)
      ])
      expect([hot.status, routed.status], query).toEqual([200, 200])
      const headersOf = (response: Response) => [...response.headers].filter(([name]) => name !== "date")
      expect(headersOf(hot), query).toEqual(headersOf(routed))
      expect(await hot.text(), query).toBe(await routed.text())
    }
  })

  it("documents both endpoints, their parameters and the 400/503 answers in the OpenAPI", async () => {
    const spec = (await get("/openapi.json")).body
    for (const path of ["/api/deals", "/api/search"]) {
      const operation = spec.paths[path].get
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "400", "503"]))
      expect(operation.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(["limit", "tag", "category"]))
    }
    expect(spec.paths["/api/v1/products/search"]).toBeDefined()
    // paging and the ways forward from an empty answer
    const search = spec.paths["/api/search"].get
    expect(search.parameters.map((p: any) => p.name)).toContain("offset")
    const answer = JSON.stringify(search.responses["200"])
    const schemas = JSON.stringify(spec.components?.schemas ?? {})
    for (const field of ["total", "nextOffset", "suggestions", "cheapest_match", "without_price_limit"])
      expect(`${answer}${schemas}`, field).toContain(field)
  })

  it("never 5xx on odd phrases", async () => {
    for (const q of [
      '"',
      "\\",
      "price = 1 OR 1=1",
      "under $",
      "between 5 and",
      "🎁🎁",
      'category = "x"',
      "%00",
      "a AND b",
      "[]{}"
    ]) {
      const response = await get(`/api/search?q=${encodeURIComponent(q)}`)
      expect(response.status, q).toBe(200)
    }
  })
})
