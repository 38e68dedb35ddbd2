import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { Effect, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "../../../infra/Database.ts"
import { startSampleService } from "../../support/sampleService.ts"
import type { RunningService } from "../../support/TestService.ts"
import { call, httpClient } from "./mcpClient.ts"
import { conforms } from "./ucpConformance.ts"

// Who a product is, over the sample catalog with the official MCP client:
// one id per model whatever the query, our landing page of the model as its
// url, options and selections for colour and size, filters that narrow the
// variants, and lookup by what an agent holds (a merchant URL, a GTIN).

// the extension name UCP's name pattern allows (reverse domain, no hyphen)
const EXT = "com.affiliate_commerce.offer"
const AIR_MAX = "Nike Air Max 90 Women's Sneakers"

describe("product identity, options and lookup keys", () => {
  let service: RunningService
  let client: Client

  beforeAll(async () => {
    service = await startSampleService()
    client = await httpClient(service.url)
  }, 120_000)
  afterAll(async () => {
    await client?.close()
    await service?.close()
  })

  const search = async (query: string) => {
    const answer = await call(client, "search_catalog", { catalog: { query, pagination: { limit: 20 } } })
    expect(answer.isError, JSON.stringify(answer.body)).toBe(false)
    conforms("search_catalog", answer.body)
    return answer.body.products as Array<any>
  }
  const getProduct = async (catalog: Record<string, unknown>) => {
    const answer = await call(client, "get_product", { catalog })
    expect(answer.isError, JSON.stringify(answer.body)).toBe(false)
    conforms("get_product", answer.body)
    return answer.body as { product: any; messages?: Array<any> }
  }
  const lookup = async (catalog: Record<string, unknown>) => {
    const answer = await call(client, "lookup_catalog", { catalog })
    expect(answer.isError, JSON.stringify(answer.body)).toBe(false)
    conforms("lookup_catalog", answer.body)
    return answer.body
  }
  const airMax = async () => {
    const found = (await search("nike air max 90 women sneakers")).find((p) => p.title.startsWith(AIR_MAX))
    expect(found, AIR_MAX).toBeDefined()
    return found!
  }

  it("one product id per model, whichever offer a query features", async () => {
    const queries = [
      "Nike Air Max 90 Women's Sneakers Cream",
      "Nike Air Max 90 Women's Sneakers Black",
      "Nike Air Max 90 Women's Sneakers Navy",
      "nike air max 90 women chestnut",
      "white air max 90 women",
      "women's sneakers"
    ]
    const productOfVariant = new Map<string, Set<string>>()
    const featured = new Map<string, Set<string>>()
    for (const query of queries) {
      for (const product of await search(query)) {
        featured.set(product.id, (featured.get(product.id) ?? new Set()).add(product.variants[0].id))
        for (const variant of product.variants) {
          productOfVariant.set(variant.id, (productOfVariant.get(variant.id) ?? new Set()).add(product.id))
        }
      }
    }
    // every offer belongs to one product id across all the answers
    for (const [variant, products] of productOfVariant) expect([...products], variant).toHaveLength(1)
    // and some model was featured through different offers (its id once came from the featured offer)
    expect([...featured.values()].some((offers) => offers.size > 1)).toBe(true)
    for (const id of featured.keys()) expect(id).toMatch(/^prod_[0-9a-f]{32}$/)

    // get_product by any of a model's variants, and lookup by its id, answer the same id
    const product = await airMax()
    for (const variant of product.variants.slice(0, 3)) {
      expect((await getProduct({ id: variant.id })).product.id).toBe(product.id)
    }
    const looked = await lookup({ ids: [product.id] })
    expect(looked.products.map((p: any) => p.id)).toEqual([product.id])
  })

  it("product.url is our landing page of the model; each variant's url is the tracked link", async () => {
    const product = await airMax()
    expect(product.url).toBe(`${service.url}/deals/${product.id}`)
    const page = await fetch(product.url!, { headers: { accept: "text/html" } })
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toContain("text/html")
    expect(await page.text()).toContain("Nike Air Max 90")
    for (const variant of product.variants) expect(variant.url).toMatch(new RegExp(`^${service.url}/t/f\\.`))
  })

  it("options list colour and size, each variant its own values, get_product its selection", async () => {
    const product = (await airMax()) as any
    expect(product.options.map((option: any) => option.name)).toEqual(["Color", "Size"])
    for (const variant of product.variants) {
      expect(variant.options.map((option: any) => option.name)).toContain("Color")
    }
    const { product: detail } = await getProduct({ id: product.id })
    expect(detail.selected).toEqual(detail.variants[0].options)
    const colours = detail.options.find((option: any) => option.name === "Color").values
    expect(colours.length).toBeGreaterThan(1)
    expect(colours.every((value: any) => typeof value.exists === "boolean")).toBe(true)
  })

  it("selected narrows get_product's variants; an impossible selection is relaxed as preferences say", async () => {
    const product = await airMax()
    const colour = "Black"
    const { product: black } = await getProduct({ id: product.id, selected: [{ name: "Color", label: colour }] })
    expect(black.variants.length).toBeGreaterThan(0)
    for (const variant of black.variants) expect(variant.options).toContainEqual({ name: "Color", label: colour })
    expect(black.selected).toContainEqual({ name: "Color", label: colour })
    // the other colours stay listed as options
    expect(black.options.find((o: any) => o.name === "Color").values.length).toBeGreaterThan(1)

    const relaxed = await getProduct({
      id: product.id,
      selected: [
        { name: "Color", label: colour },
        { name: "Size", label: "UK 99" }
      ],
      preferences: ["Color", "Size"]
    })
    for (const variant of relaxed.product.variants)
      expect(variant.options).toContainEqual({ name: "Color", label: colour })
    // said once beside the answer's disclosure and instructions
    const relaxations = relaxed.messages!.filter((message: any) => message.code === "selection_relaxed")
    expect(relaxations).toEqual([expect.objectContaining({ type: "info", code: "selection_relaxed" })])
  })

  it("filters narrow the variants of get_product, the one asked for too", async () => {
    const { product } = await getProduct({ id: (await airMax()).id })
    // price bounds are in the minor units of the currency the context names: compare offers in one currency
    const currency = product.variants[0].price.currency
    const priced = product.variants.filter((variant: any) => variant.price.currency === currency)
    const cheapest = Math.min(...priced.map((variant: any) => variant.price.amount))
    const dearest = priced.find((variant: any) => variant.price.amount > cheapest)
    expect(dearest, "a model with offers at two prices").toBeDefined()
    const { product: narrowed } = await getProduct({
      id: dearest.id,
      filters: { price: { max: cheapest } },
      context: { currency }
    })
    expect(narrowed.variants.map((variant: any) => variant.id)).not.toContain(dearest.id)
    for (const variant of narrowed.variants) {
      expect(variant.price.currency).toBe(currency)
      expect(variant.price.amount).toBeLessThanOrEqual(cheapest)
    }
  })

  const storeRow = (sql: string) =>
    service.run(
      Effect.gen(function* () {
        const db = yield* Database
        const rows = yield* db.queryAs(
          Schema.Struct({ id: Schema.String, link: Schema.String, gtin: Schema.String }),
          sql
        )
        return rows[0]
      })
    )

  it("lookup by a merchant URL (normalised like link matching) finds the model with all its offers", async () => {
    const offer = await storeRow(
      `SELECT id, link, gtin FROM products WHERE title LIKE 'Nike Air Max 90 Women%' AND gtin IS NOT NULL LIMIT 1`
    )
    // the page as an agent holds it: http, a campaign parameter, a fragment
    const held = `${offer.link.replace(/^https:/, "http:")}${offer.link.includes("?") ? "&" : "?"}utm_source=newsletter#reviews`
    const { products } = await lookup({ ids: [held] })
    expect(products).toHaveLength(1)
    const [product] = products
    expect(product.id).toBe((await airMax()).id)
    const exact = product.variants.filter((variant: any) =>
      variant.inputs.some((input: any) => input.match === "exact")
    )
    expect(exact.length).toBeGreaterThanOrEqual(1)
    expect(product.variants[0].inputs).toEqual([{ id: held, match: "exact" }])
    // every offer of the model, not only the one at that URL
    expect(product.variants.length).toBe(product.metadata[EXT].offers)
    expect(product.variants.length).toBeGreaterThan(exact.length)
  })

  it("lookup by GTIN, with or without leading zeros, finds the model and every offer; unknown keys are messages", async () => {
    const offer = await storeRow(
      `SELECT min(id) AS id, min(link) AS link, gtin FROM products WHERE gtin IS NOT NULL GROUP BY gtin ORDER BY count(*) DESC LIMIT 1`
    )
    const short = offer.gtin.replace(/^0+/, "")
    const { products, messages } = await lookup({ ids: [short, "https://nowhere.example/item/1", "00000000"] })
    expect(products.length).toBeGreaterThanOrEqual(1)
    const exact = products.flatMap((product: any) =>
      product.variants.filter((variant: any) => variant.inputs.some((input: any) => input.match === "exact"))
    )
    expect(exact.length).toBeGreaterThan(1)
    // each key that found nothing is its own not_found message, beside the answer's disclosure and instructions
    const notFound = messages.filter((message: any) => message.code === "not_found")
    expect(notFound.map((message: any) => message.content)).toEqual(["https://nowhere.example/item/1", "00000000"])
    expect(notFound.every((message: any) => message.type === "info")).toBe(true)
    expect(messages.map((message: any) => message.code)).toContain("affiliate_disclosure")

    // filters narrow the offers a lookup lists
    const narrowed = await lookup({ ids: [short], filters: { price: { max: 1500 } }, context: { currency: "USD" } })
    for (const product of narrowed.products) {
      for (const variant of product.variants) expect(variant.price.amount).toBeLessThanOrEqual(1500)
    }
  })
})
