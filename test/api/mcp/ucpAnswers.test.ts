import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getJson } from "../../support/http.ts"
import { startSampleService } from "../../support/sampleService.ts"
import { type RunningService, tempDir } from "../../support/TestService.ts"
import { call, httpClient, stdioClient } from "./mcpClient.ts"
import { openSession, postMcp } from "./rawMcp.ts"
import { conforms, UCP_RELEASE, violations } from "./ucpConformance.ts"

// Every UCP answer against the release's published schemas, over the sample
// catalog, through the official SDK client (HTTP and `aff mcp` over stdio) and
// raw JSON-RPC (the envelope as sent): catalog answers, error answers, the
// business profile; and the tools' promises: titles and output schemas,
// unknown keys refused, batch and page limits, one reading of the words.

const QUERIES = [
  "wireless earbuds",
  "headphones under $100",
  "cheap running shoes",
  "coffee maker",
  "laptop",
  "gift for a 10 year old who likes science",
  "tv",
  "backpack",
  "toys",
  "kitchen"
]

describe("UCP answers", () => {
  let service: RunningService
  let home: ReturnType<typeof tempDir>
  let http: Client
  let stdio: Client
  const validated: Record<string, number> = {}
  /** A catalog answer checked against the published schema, and counted. */
  const checked = (kind: "search_catalog" | "lookup_catalog" | "get_product" | "error_response", body: unknown) => {
    validated[kind] = (validated[kind] ?? 0) + 1
    return conforms(kind, body)
  }

  beforeAll(async () => {
    service = await startSampleService()
    home = tempDir("ucp-answers-home-")
    http = await httpClient(service.url)
    stdio = await stdioClient(home.dir, { AFF_SERVER: service.url })
  }, 240_000)
  afterAll(async () => {
    console.log(`answers validated against UCP ${UCP_RELEASE}: ${JSON.stringify(validated)}`)
    await http?.close()
    await stdio?.close()
    await service?.close()
    home?.rm()
  })

  it("the business profile conforms, with https spec and schema URLs of the release and a conforming extension name", async () => {
    const { body } = await getJson(`${service.url}/.well-known/ucp`)
    const { ucp } = conforms("business_profile", body)
    expect(ucp.version).toBe(UCP_RELEASE)
    expect(ucp.services["dev.ucp.shopping"]).toEqual([
      expect.objectContaining({ transport: "mcp", endpoint: `${service.url}/mcp` })
    ])
    expect(Object.keys(ucp.capabilities).sort()).toEqual([
      "com.affiliate_commerce.offer",
      "dev.ucp.shopping.catalog.lookup",
      "dev.ucp.shopping.catalog.search"
    ])
    expect(ucp.payment_handlers).toEqual({})
    const entries = [...Object.values(ucp.services), ...Object.values(ucp.capabilities)].flat() as Array<any>
    for (const entry of entries) {
      expect(entry.version).toBe(UCP_RELEASE)
      for (const url of [entry.spec, entry.schema].filter((value) => value !== undefined))
        expect(url).toMatch(new RegExp(`^https://ucp\\.dev/${UCP_RELEASE}/`))
    }
    for (const name of Object.keys(ucp.capabilities)) expect(name).toMatch(/^[a-z][a-z0-9]*(?:\.[a-z][a-z0-9_]*)+$/)
    // the old shapes are what the published schema refuses
    expect(violations("business_profile", { ucp: { ...ucp, payment_handlers: undefined } })).not.toEqual([])
  })

  for (const transport of ["http", "stdio"] as const) {
    it(`every catalog answer conforms (${transport}): searches, lookups, get_product in both views`, async () => {
      const client = transport === "http" ? http : stdio
      for (const query of QUERIES) {
        const answer = await call(client, "search_catalog", { catalog: { query } })
        expect(answer.isError, query).toBe(false)
        const { products } = checked("search_catalog", answer.body)
        if (products.length === 0) continue
        const ids = [products[0].id, ...products.slice(1).map((product: any) => product.variants[0].id), "unknown"]
        checked("lookup_catalog", (await call(client, "lookup_catalog", { catalog: { ids } })).body)
        for (const view of ["summary", "full"])
          checked("get_product", (await call(client, "get_product", { catalog: { id: products[0].id, view } })).body)
      }
      const missing = await call(client, "get_product", { catalog: { id: "prod_bm9wZQ" } })
      expect(missing.isError).toBe(false)
      checked("get_product", missing.body)
      expect(checked("error_response", missing.body)).toEqual({
        ucp: {
          version: UCP_RELEASE,
          status: "error",
          capabilities: { "dev.ucp.shopping.catalog.lookup": [{ version: UCP_RELEASE }] }
        },
        messages: [
          {
            type: "error",
            code: "not_found",
            content: "Product not found: prod_bm9wZQ",
            severity: "unrecoverable",
            path: "$.catalog.id"
          }
        ]
      })
    })
  }

  it("every envelope has structuredContent, its text block the same JSON, errors included", async () => {
    const opened = await openSession(service.url, "2025-11-25")
    const headers = opened.headers ?? { "mcp-protocol-version": "2025-11-25" }
    const calls: Array<[string, Record<string, unknown>]> = [
      ["search_catalog", { catalog: { query: "headphones" } }],
      ["search_catalog", { catalog: { query: "headphones", filter: { brand: ["Sony"] } } }],
      ["search_catalog", { catalog: {} }],
      ["lookup_catalog", { catalog: { ids: ["nope"] } }],
      ["get_product", { catalog: { id: "nope" } }],
      ["list_deals", { limit: 0 }],
      ["list_deals", { limit: 1 }],
      ["match_link", { url: "https://www.gap.com/" }],
      ["find_programs", {}],
      ["partner_stats", {}]
    ]
    for (const [i, [name, args]] of calls.entries()) {
      const raw = await postMcp(
        service.url,
        { jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name, arguments: args } },
        headers
      )
      const result = raw.messages.find((message) => message.id === i + 1)?.result
      expect(result?.structuredContent, `${name} ${JSON.stringify(args)}`).toBeDefined()
      expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent)
      if (name !== "list_deals" && name !== "match_link" && name !== "find_programs" && name !== "partner_stats")
        expect(violations(result.isError ? "error_response" : (name as any), result.structuredContent)).toEqual([])
    }
  })

  it("every tool has a title and an output schema", async () => {
    const { tools } = await http.listTools()
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/\w/)
      expect(tool.outputSchema, tool.name).toBeDefined()
    }
  })

  for (const transport of ["http", "stdio"] as const) {
    it(`an unknown argument key is refused, naming it (${transport})`, async () => {
      const client = transport === "http" ? http : stdio
      const typo = await call(client, "search_catalog", {
        catalog: { query: "headphones", filter: { price: { max: 1000 } } }
      })
      expect(typo.isError).toBe(true)
      expect(checked("error_response", typo.body).messages).toEqual([
        {
          type: "error",
          code: "invalid_parameter",
          content: expect.stringContaining("'catalog.filter': unknown key"),
          severity: "recoverable",
          path: "$.catalog.filter"
        }
      ])
      const own = await call(client, "list_deals", { categroy: "Electronics" })
      expect(own).toMatchObject({
        isError: true,
        body: { error: { code: "invalid_parameter", details: [{ field: "categroy", in: "arguments" }] } }
      })
    })
  }

  it("a request with every member UCP defines for a search is served, whichever of them we do not use", async () => {
    const catalog = {
      query: "headphones",
      context: {
        address_country: "US",
        address_region: "California",
        postal_code: "94043",
        intent: "a present",
        language: "en",
        currency: "USD",
        eligibility: ["com.example.loyalty_gold"]
      },
      signals: { "dev.ucp.user_agent": "agent/1.0" },
      attribution: { utm_source: "assistant" },
      filters: { categories: ["Headphones"], price: { max: 50000 } },
      pagination: { limit: 5 }
    }
    expect(violations("search_request", catalog)).toEqual([])
    const answer = await call(http, "search_catalog", {
      meta: { "ucp-agent": { profile: "https://agent.example/ucp" } },
      catalog
    })
    expect(answer.isError, JSON.stringify(answer.body)).toBe(false)
    expect(checked("search_catalog", answer.body).products.length).toBeGreaterThan(0)
  })

  it("more than 20 lookup ids is JSON-RPC invalid params; a limit above 50 is served at 50", async () => {
    const ids = Array.from({ length: 21 }, (_, i) => `id-${i}`)
    for (const client of [http, stdio])
      await expect(client.callTool({ name: "lookup_catalog", arguments: { catalog: { ids } } })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining("at most 20 ids")
      })
    const wide = await call(http, "search_catalog", { catalog: { query: "a", pagination: { limit: 500 } } })
    expect(wide.isError).toBe(false)
    const page = checked("search_catalog", wide.body)
    expect(page.products.length).toBeLessThanOrEqual(50)
    expect(page.messages).toContainEqual({
      type: "info",
      code: "limit_clamped",
      content: "limit 500 served as 50, the most per page"
    })
  })

  it("search_catalog reads words as /api/search does and says how it read them", async () => {
    const phrase = "gift for a 10 year old who likes science"
    const answer = checked("search_catalog", (await call(http, "search_catalog", { catalog: { query: phrase } })).body)
    const api = await getJson(`${service.url}/api/search?q=${encodeURIComponent(phrase)}`)
    expect(answer.products.length).toBeGreaterThan(0)
    for (const product of answer.products) expect(product.title).not.toMatch(/coffee/i)
    const reading = answer.messages.find((message: any) => message.code === "interpretation").content
    // the search page's reading of the same words, word for word
    // (its guidance goes on with "N of M results" or "Nothing matched")
    const pageReading = /^Interpreted the request as: (.+?)\. (?:\d+ of \d+ results?|Nothing matched)/.exec(
      api.body.guidance
    )
    expect(pageReading?.[1]).toContain("10-year-old")
    expect(reading).toContain(`query read as: ${pageReading![1]}`)
    // the same words as background: their constraints apply, not their words
    const background = checked(
      "search_catalog",
      (
        await call(http, "search_catalog", {
          catalog: { query: "headphones", context: { intent: "a present under $100" } }
        })
      ).body
    )
    expect(background.products.length).toBeGreaterThan(0)
    for (const variant of background.products.flatMap((product: any) => product.variants)) {
      expect(variant.price.currency).toBe("USD")
      expect(variant.price.amount).toBeLessThanOrEqual(10000)
    }
    for (const product of background.products) expect(product.title).toMatch(/headphones/i)
  })

  it("list_deals answers the deals of GET /api/deals, in the catalog tools' minor units and snake_case", async () => {
    const answer = await call(http, "list_deals", { category: "Electronics", limit: 4 })
    expect(answer.isError).toBe(false)
    const api = await getJson(`${service.url}/api/deals?category=Electronics&limit=4&tag=mcp`)
    expect(answer.body.count).toBe(api.body.count)
    expect(answer.body.disclosure).toBe(api.body.disclosure)
    expect(answer.body.deals.map((deal: any) => deal.id)).toEqual(api.body.deals.map((deal: any) => deal.id))
    const minor = (amount: number, currency: string) => ({ amount: Math.round(amount * 100), currency })
    for (const [i, deal] of answer.body.deals.entries()) {
      const same = api.body.deals[i]
      expect(deal.url).toBe(same.links.tracked)
      expect(deal.price).toEqual(minor(same.price.amount, same.price.currency))
      expect(deal.verified_discount).toEqual(
        same.price.originalPrice === undefined
          ? null
          : {
              percent: same.price.discountPercent,
              reference_price: minor(same.price.originalPrice, same.price.currency),
              reference_observed_at: same.price.originalPriceObservedAt ?? null
            }
      )
      expect(deal.coupon_code).toBeNull()
    }
    expect(answer.body.deals.some((deal: any) => deal.verified_discount !== null)).toBe(true)
    // one casing: no camelCase key anywhere in the answer
    expect(JSON.stringify(answer.body)).not.toMatch(/"[a-z]+[A-Z][A-Za-z]*":/)
  })

  it("a search the strict reading cannot answer pages on with the step that answered it", async () => {
    const catalog = { query: "wireless earbuds headphones speaker", pagination: { limit: 3 } }
    const first = checked("search_catalog", (await call(http, "search_catalog", { catalog })).body)
    expect(first.products.length).toBe(3)
    expect(first.pagination.has_next_page).toBe(true)
    const second = checked(
      "search_catalog",
      (
        await call(http, "search_catalog", {
          catalog: { ...catalog, pagination: { limit: 3, cursor: first.pagination.cursor } }
        })
      ).body
    )
    expect(second.products.length).toBeGreaterThan(0)
    const seen = new Set(first.products.map((product: any) => product.id))
    for (const product of second.products) expect(seen.has(product.id)).toBe(false)
  })

  it("structured filters win over the words", async () => {
    const body = (
      await call(http, "search_catalog", {
        catalog: {
          query: "headphones under $50",
          filters: { price: { min: 10000, max: 40000 } },
          context: { currency: "USD" },
          pagination: { limit: 20 }
        }
      })
    ).body
    const answer = checked("search_catalog", body)
    expect(answer.products.length).toBeGreaterThan(0)
    for (const variant of answer.products.flatMap((product: any) => product.variants))
      expect(variant.price.amount).toBeGreaterThanOrEqual(10000)
    const reading = answer.messages.find((message: any) => message.code === "interpretation").content
    expect(reading).toContain("filters given replace what the words said about: price, currency")
  })
})
