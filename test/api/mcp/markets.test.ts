import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startMarketsService, XM5 } from "../../support/marketsCatalog.ts"
import type { RunningService } from "../../support/TestService.ts"
import { call, httpClient } from "./mcpClient.ts"

// The shopper's market over MCP (the official SDK client over Streamable
// HTTP): UCP context.address_country selects the market, whose currency is
// the only one answered and the unit of filters.price; context.currency asks
// for another; get_product's price_range is in the requested currency or a
// message says none is sold in it; the operator's DEFAULT_COUNTRY stands in.

const currencies = (products: ReadonlyArray<any>) =>
  [...new Set(products.flatMap((product) => product.variants.map((variant: any) => variant.price.currency)))].sort()

describe("MCP catalog tools: markets", () => {
  let service: RunningService
  let client: Client
  beforeAll(async () => {
    service = await startMarketsService()
    client = await httpClient(service.url)
  })
  afterAll(async () => {
    await client.close()
    await service.close()
  })
  const search = (catalog: Record<string, unknown>) => call(client, "search_catalog", { catalog })

  it("address_country picks the market: only its currency, price bounds in its minor units", async () => {
    const gb = await search({ query: "headphones", context: { address_country: "GB" } })
    expect(gb.isError).toBe(false)
    expect(gb.body.products.length).toBe(3)
    expect(currencies(gb.body.products)).toEqual(["GBP"])
    const cheap = await search({
      query: "headphones",
      filters: { price: { max: 10000 } },
      context: { address_country: "US" }
    })
    expect(cheap.body.products.map((p: any) => [p.title, p.price_range.min])).toEqual([
      ["Budget Wired Headphones", { amount: 7999, currency: "USD" }]
    ])
  })

  it("address_country FR answers only offers sold in France, not every euro offer", async () => {
    const fr = await search({ query: "headphones", context: { address_country: "FR" } })
    expect(fr.isError).toBe(false)
    const variants = fr.body.products.flatMap((p: any) => p.variants)
    expect(variants.length).toBeGreaterThan(0)
    expect(JSON.stringify(fr.body.products)).toContain("Fnac")
    expect(JSON.stringify(fr.body.products)).not.toContain("MediaMarkt")
  })

  it("a price filter without any currency is refused rather than compared across currencies", async () => {
    const answer = await search({ query: "headphones", filters: { price: { max: 10000 } } })
    expect(answer.isError).toBe(true)
    expect(answer.body.ucp.status).toBe("error")
    expect(answer.body.messages).toEqual([
      expect.objectContaining({ type: "error", code: "invalid_parameter", path: "$.catalog.filters.price" })
    ])
  })

  it("an unknown address_country is invalid_parameter naming it", async () => {
    const answer = await search({ query: "headphones", context: { address_country: "ZZ" } })
    expect(answer.isError).toBe(true)
    expect(answer.body.messages).toEqual([
      expect.objectContaining({ code: "invalid_parameter", path: "$.catalog.context.address_country" })
    ])
  })

  it("get_product with currency GBP: a GBP price_range, or a message that none is sold in GBP", async () => {
    const us = await search({ query: "sony", context: { address_country: "US" } })
    const product = us.body.products.find((p: any) => p.title === XM5.title)
    expect(product.price_range.min.currency).toBe("USD")
    const inGbp = await call(client, "get_product", { catalog: { id: product.id, context: { currency: "GBP" } } })
    expect(inGbp.isError).toBe(false)
    expect(inGbp.body.product.price_range).toEqual({
      min: { amount: 24900, currency: "GBP" },
      max: { amount: 24900, currency: "GBP" }
    })
    expect(currencies([inGbp.body.product])).toEqual(["GBP"])

    const budget = (await search({ query: "budget wired", context: { address_country: "US" } })).body.products[0]
    const notSold = await call(client, "get_product", { catalog: { id: budget.id, context: { currency: "GBP" } } })
    expect(notSold.isError).toBe(false)
    expect(notSold.body.product.price_range.min.currency).toBe("USD")
    expect(notSold.body.messages).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: "currency_not_sold", content: expect.stringContaining("priced in GBP") })
      ])
    )
  })

  it("get_product's currency message says when offers in the currency exist but the filters leave them out", async () => {
    const us = await search({ query: "sony", context: { address_country: "US" } })
    const product = us.body.products.find((p: any) => p.title === XM5.title)
    const tooCheap = await call(client, "get_product", {
      catalog: { id: product.id, context: { currency: "EUR" }, filters: { price: { max: 10000 } } }
    })
    expect(tooCheap.isError).toBe(false)
    // before: "no offer of this product is priced in EUR", while two are (289 and 299 EUR)
    expect(tooCheap.body.messages).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: "currency_not_sold",
          content: expect.stringContaining("none of its offers priced in EUR meets the filters given")
        })
      ])
    )
  })
})

describe("MCP catalog tools: DEFAULT_COUNTRY", () => {
  let service: RunningService
  let client: Client
  beforeAll(async () => {
    service = await startMarketsService({ defaultCountry: Option.some("DE") })
    client = await httpClient(service.url)
  })
  afterAll(async () => {
    await client.close()
    await service.close()
  })

  it("answers a request without a market in the operator's country's currency", async () => {
    const answer = await call(client, "search_catalog", { catalog: { query: "headphones" } })
    expect(currencies(answer.body.products)).toEqual(["EUR"])
  })
})
