import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSampleService } from "../../support/sampleService.ts"
import type { RunningService } from "../../support/TestService.ts"
import { httpClient } from "./mcpClient.ts"

// What an agent pays to read our answers: the bytes of the whole tool result
// (structuredContent and its text copy, as the MCP client receives it) over
// the sample catalog. Lean by default; `view: "full"` is the agent's choice.

const QUERIES = [
  "wireless earbuds",
  "headphones",
  "running shoes",
  "coffee maker",
  "laptop",
  "tv",
  "backpack",
  "jacket",
  "toys",
  "kitchen",
  "watch",
  "gift for a 10 year old who likes science"
]
const KB = 1024

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

describe("MCP answer sizes over the sample catalog", () => {
  let service: RunningService
  let client: Client
  beforeAll(async () => {
    service = await startSampleService()
    client = await httpClient(service.url)
  }, 240_000)
  afterAll(async () => {
    await client?.close()
    await service?.close()
  })

  const bytesOf = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args })
    expect(result.isError, JSON.stringify(result.content)).not.toBe(true)
    // the answer an agent reads: the structured result (the text block repeats it for clients without structure)
    return { bytes: Buffer.byteLength(JSON.stringify(result.structuredContent)), body: result.structuredContent as any }
  }

  it("a 10-product search page has a median of at most 25 KB; get_product of a headphone model at most 30 KB", async () => {
    const pages = []
    for (const query of QUERIES) {
      const { bytes, body } = await bytesOf("search_catalog", { catalog: { query, pagination: { limit: 10 } } })
      pages.push({ query, bytes, products: body.products.length })
    }
    const full = pages.filter((page) => page.products === 10).map((page) => page.bytes)
    // a page of 50 products: every in-stock product above a price floor, by relevance
    const fifty = await bytesOf("search_catalog", {
      catalog: { filters: { price: { min: 1 } }, context: { currency: "USD" }, pagination: { limit: 50 } }
    })
    const headphones = await bytesOf("search_catalog", { catalog: { query: "headphones", pagination: { limit: 1 } } })
    const detail = await bytesOf("get_product", { catalog: { id: headphones.body.products[0].id } })
    const figures = {
      pages_of_ten: full.length,
      median_kb: +(median(full) / KB).toFixed(1),
      max_kb: +(Math.max(...full) / KB).toFixed(1),
      fifty_products_kb: +(fifty.bytes / KB).toFixed(1),
      fifty_products: fifty.body.products.length,
      get_product_kb: +(detail.bytes / KB).toFixed(1),
      get_product_offers: detail.body.product.variants.length
    }
    console.log(`answer sizes: ${JSON.stringify(figures)}`)
    expect(full.length).toBeGreaterThanOrEqual(8)
    expect(figures.fifty_products).toBe(50)
    expect(figures.median_kb).toBeLessThanOrEqual(25)
    expect(figures.get_product_kb).toBeLessThanOrEqual(30)
  })
})
