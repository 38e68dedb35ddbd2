import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ExchangeRates } from "../../discovery/ExchangeRates.ts"
import { comparablePrice } from "../../domain/money/exchangeRates.ts"
import { round2 } from "../../domain/money/round2.ts"
import { catalogIdOf } from "../../readModel/documents.ts"
import { catalogRows, type CatalogRow } from "../../scripts/search-eval/catalog.ts"
import { launchBrowser, phonePage } from "../support/browser.ts"
import { getJson } from "../support/http.ts"
import { startSampleService } from "../support/sampleService.ts"
import type { RunningService } from "../support/TestService.ts"

// Search for real shoppers on the sample catalog, over real HTTP and on the
// page in a real Chromium: gifts that fit the person, cheap that means cheap,
// no dead ends, and paging through every match.

interface Result {
  readonly id: string
  readonly title: string
  readonly category: string
  readonly price: {
    readonly amount: number
    readonly currency: string
    readonly converted?: { readonly amount: number; readonly currency: string; readonly ratesAsOf: string }
  }
}
interface Answer {
  readonly guidance: string
  readonly market: { readonly convertedTo?: { currency: string; ratesAsOf: string; source: string } }
  readonly count: number
  readonly total: number
  readonly offset: number
  readonly nextOffset?: number
  readonly results: ReadonlyArray<Result>
  readonly suggestions?: ReadonlyArray<{
    kind: string
    text: string
    q: string
    title?: string
    price?: { amount: number; currency: string }
  }>
}

describe("search for real shoppers on the sample catalog", () => {
  let service: RunningService
  let rows: ReadonlyArray<CatalogRow>
  let browser: Browser
  beforeAll(async () => {
    service = await startSampleService()
    rows = await service.run(catalogRows)
    browser = await launchBrowser()
  }, 240_000)
  afterAll(async () => {
    await browser?.close()
    await service?.close()
  })

  const search = async (q: string, more = ""): Promise<Answer> => {
    const response = await getJson(`${service.url}/api/search?q=${encodeURIComponent(q)}${more}`)
    expect(response.status, q).toBe(200)
    return response.body
  }
  const rowOf = (result: Result) => {
    const row = rows.find((r) => r.id === catalogIdOf(result.id))
    expect(row, result.title).toBeDefined()
    return row!
  }
  const TOYS = ["Toys & Games", "Board Games", "Building Toys", "Educational Toys", "Children's Books", "Bikes"]

  it("gift for dad / dad: men's or unisex products for grown-ups in gift categories; a 10-year-old gets toys", async () => {
    const forDad = await search("gift for dad")
    const dad = await search("dad")
    const child = await search("birthday present for 10 year old")
    for (const answer of [forDad, dad]) {
      expect(answer.count).toBe(8)
      expect(answer.guidance).toContain("used: only men's or unisex products")
      expect(answer.guidance).toMatch(/browsing gift categories: [^;.]*Headphones/)
      for (const result of answer.results) {
        const row = rowOf(result)
        expect(row.gender, result.title).not.toBe("female")
        expect(["newborn", "infant", "toddler", "kids"], result.title).not.toContain(row.ageGroup)
        expect(result.title).not.toMatch(/women's|mower|griddle|foundation/i)
      }
    }
    expect(child.count).toBe(8)
    expect(child.guidance).toContain("a gift for a 10-year-old")
    expect(child.guidance).toContain("used: products for children")
    for (const result of child.results) {
      const row = rowOf(result)
      expect(row.ageGroup === "kids" || TOYS.some((c) => row.categories.includes(c)), result.title).toBe(true)
      expect(row.ageGroup, result.title).not.toBe("adult")
    }
    // not the same list for different people
    const ids = (answer: Answer) => answer.results.map((r) => r.id)
    expect(ids(child).filter((id) => ids(forDad).includes(id))).toEqual([])
  })

  it("\"winter jacket women\" is a gender filter: women's jackets, never men's", async () => {
    const { results, guidance } = await search("winter jacket women")
    expect(guidance).not.toContain("a gift for her")
    expect(guidance).toContain("only women's or unisex products")
    expect(results.length).toBeGreaterThanOrEqual(3)
    for (const result of results.slice(0, 3)) expect(result.title).toMatch(/women's.*jacket/i)
    for (const result of results) expect(rowOf(result).gender, result.title).not.toBe("male")
  })

  it('"cheap running shoes" without a market: running shoes only, cheapest first by converted price, the first the cheapest pair', async () => {
    const { results, guidance, market } = await search("cheap running shoes")
    expect(guidance).toContain("cheapest first")
    expect(results.length).toBe(8)
    for (const result of results) expect(result.title).toMatch(/running shoes/i)
    // the sample's reference rates convert USD and GBP into EUR: one order across currencies, said in the answer
    const rates = await service.run(ExchangeRates.use((loaded) => loaded.current))
    expect(market.convertedTo).toEqual({
      currency: "EUR",
      ratesAsOf: rates.asOf,
      source: "European Central Bank euro foreign exchange reference rates"
    })
    const inEur = (amount: number, currency: string) => comparablePrice(amount, currency, rates)!
    const converted = results.map((r) => inEur(r.price.amount, r.price.currency))
    expect(converted).toEqual([...converted].sort((a, b) => a - b))
    for (const r of results)
      if (r.price.currency !== "EUR")
        expect(r.price.converted?.amount).toBe(round2(inEur(r.price.amount, r.price.currency)))
    const pairs = rows.filter((row) => row.inStock && /running shoes/i.test(row.title))
    expect(converted[0]).toBeCloseTo(Math.min(...pairs.map((row) => inEur(row.price, row.currency))), 6)
  })

  it('"headphones under 50": no dead end; each suggestion is true and leads to products', async () => {
    const answer = await search("headphones under 50")
    expect(answer.results).toEqual([])
    const cheapest = answer.suggestions!.filter((s) => s.kind === "cheapest_match")
    // the sample sells headphones in USD, GBP and EUR: the cheapest of each, never compared across currencies
    expect(cheapest.map((s) => s.price!.currency).sort()).toEqual(["EUR", "GBP", "USD"])
    expect(cheapest.find((s) => s.price!.currency === "USD")).toMatchObject({
      text: "headphones from 79.99 USD",
      price: { amount: 79.99, currency: "USD" }
    })
    for (const suggestion of cheapest) {
      const { amount, currency } = suggestion.price!
      // the product named exists at that price, and nothing matching costs less in that currency
      expect(rows.some((r) => r.title === suggestion.title && r.price === amount && r.currency === currency)).toBe(true)
      const cheaper = rows.filter(
        (r) => r.inStock && r.currency === currency && r.price < amount && /headphones?\b/i.test(r.title)
      )
      expect(cheaper.map((r) => r.title)).toEqual([])
      expect(answer.guidance).toContain(`${amount.toFixed(2)} ${currency}`)
      // following it finds that product
      const next = await search(suggestion.q)
      expect(
        next.results.map((r) => r.title),
        suggestion.q
      ).toContain(suggestion.title)
    }
    const unbounded = answer.suggestions!.find((s) => s.kind === "without_price_limit")
    expect(unbounded?.q).toBe("headphones")
    expect((await search(unbounded!.q)).count).toBeGreaterThan(0)
  })

  it("pages through every match: total, nextOffset, no product twice, the last page says so", async () => {
    const seen: Array<string> = []
    let answer = await search("running shoes", "&limit=12")
    const total = answer.total
    expect(total).toBeGreaterThan(12)
    expect(answer.guidance).toContain(`12 of ${total} results`)
    while (answer.nextOffset !== undefined) {
      expect(answer.count).toBe(12)
      seen.push(...answer.results.map((r) => r.id))
      answer = await search("running shoes", `&limit=12&offset=${answer.nextOffset}`)
    }
    seen.push(...answer.results.map((r) => r.id))
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen.length).toBe(total)
    // beyond the end: an empty page, not an error
    expect((await search("running shoes", `&limit=12&offset=${total + 24}`)).results).toEqual([])
  })

  it("the /search page shows 12 of N with a next link, and an empty answer's ways forward as links", async () => {
    const { context, page } = await phonePage(browser, service.url, { javaScriptEnabled: false })
    try {
      const { total } = await search("running shoes", "&limit=12")
      await page.goto(`${service.url}/search?q=running%20shoes`)
      expect(await page.getByRole("status").innerText()).toContain(`12 of ${total} results`)
      expect(await page.locator(".card").count()).toBe(12)
      await page.getByRole("link", { name: "Next results" }).click()
      await page.waitForURL(/offset=12/)
      expect(await page.getByRole("status").innerText()).toContain(`13–24 of ${total} results`)
      expect(await page.getByRole("link", { name: "Previous results" }).count()).toBe(1)

      await page.goto(`${service.url}/search?q=${encodeURIComponent("headphones under 50")}`)
      expect(await page.locator(".card").count()).toBe(0)
      const way = page.getByRole("link", { name: "headphones from 79.99 USD" })
      expect(await way.count()).toBe(1)
      expect(await page.getByRole("link", { name: "headphones at any price" }).count()).toBe(1)
      await way.click()
      await page.waitForURL(/\/search\?q=headphones\+under\+80\+usd/)
      expect(await page.locator(".card").allInnerTexts()).toEqual(
        expect.arrayContaining([expect.stringContaining("$79.99")])
      )

      const bad = await page.goto(`${service.url}/search?q=tv&offset=-3`)
      expect(bad?.status()).toBe(400)
    } finally {
      await context.close()
    }
  })
})
