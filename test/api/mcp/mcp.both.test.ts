import { Effect, Schema } from "effect"
import { Database } from "../../../infra/Database.ts"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { spawn } from "node:child_process"
import { join, resolve } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cleanEnv } from "../../cli/partnerCli.ts"
import { getJson, postJson } from "../../support/http.ts"
import { startSampleService } from "../../support/sampleService.ts"
import { type RunningService, tempDir } from "../../support/TestService.ts"
import { call, httpClient, stdioClient } from "./mcpClient.ts"
import { DiscoveryProfile, GetProductResponse, LookupResponse, SearchResponse } from "./ucpSchemas.ts"

// The MCP server over the sample catalog (real DuckDB and Meilisearch),
// driven by the official MCP SDK client over Streamable HTTP and over stdio
// (`aff mcp` as a child process). UCP results are checked against the spec's
// shapes (ucpSchemas.ts); our own tools against the JSON API they mirror.

const EXT = "com.affiliate-commerce.offer"
const TOOLS = [
  "search_catalog",
  "lookup_catalog",
  "get_product",
  "list_deals",
  "match_link",
  "find_programs",
  "partner_stats"
]

describe("MCP server", () => {
  let service: RunningService
  let home: ReturnType<typeof tempDir>
  let apiKey: string
  let partnerTag: string
  let anonymous: Client
  let partner: Client
  const clients: Array<Client> = []

  beforeAll(async () => {
    service = await startSampleService()
    home = tempDir("mcp-home-")
    const registered = await postJson(`${service.url}/api/v1/partners/register`, {
      name: "MCP Tester",
      email: "mcp@example.com"
    })
    expect(registered.status).toBe(200)
    apiKey = registered.body.api_key
    partnerTag = registered.body.partner.tag
    anonymous = await httpClient(service.url)
    partner = await httpClient(service.url, apiKey)
    clients.push(anonymous, partner)
  }, 240_000)
  afterAll(async () => {
    for (const client of clients) await client.close()
    await service?.close()
    home?.rm()
  })

  const trackedLink = (tag: string) => new RegExp(`^${service.url}/t/f\\.[A-Za-z0-9_-]+\\.${tag}$`)
  const search = async (client: Client, catalog: Record<string, unknown>) => {
    const answer = await call(client, "search_catalog", { catalog })
    expect(answer.isError, JSON.stringify(answer.body)).toBe(false)
    return SearchResponse.parse(answer.body)
  }
  /** A product of the sample catalog with offers from at least two stores. */
  const productWithSeveralStores = async () => {
    const { products } = await search(anonymous, { query: "wireless earbuds", pagination: { limit: 20 } })
    const product = products.find(
      (candidate) => new Set(candidate.variants.map((variant) => variant.seller?.name)).size >= 2
    )
    expect(product, "a model sold by two stores").toBeDefined()
    return product!
  }

  describe("over Streamable HTTP", () => {
    it("lists seven tools, each with a description for a model and bounded input", async () => {
      const { tools } = await anonymous.listTools()
      expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort())
      for (const tool of tools) {
        expect(tool.description!.length, tool.name).toBeGreaterThan(120)
        expect(tool.inputSchema.type).toBe("object")
      }
      const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]))
      const catalog = (byName.search_catalog.inputSchema.properties as any).catalog
      expect(catalog.properties.pagination.properties.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 50 })
      expect(catalog.properties.query).toMatchObject({ type: "string", maxLength: 200 })
      expect((byName.lookup_catalog.inputSchema.properties as any).catalog.properties.ids).toMatchObject({
        minItems: 1,
        maxItems: 20
      })
      expect((byName.list_deals.inputSchema.properties as any).limit).toMatchObject({ maximum: 50 })
      expect((byName.match_link.inputSchema.properties as any).url).toMatchObject({ maxLength: 2048 })
      expect(byName.search_catalog.annotations?.readOnlyHint).toBe(true)
      expect(byName.match_link.annotations?.readOnlyHint).toBe(false)
    })

    it("search_catalog answers UCP products: one per model, offers as variants with tracked links and our extension", async () => {
      const { products, pagination } = await search(anonymous, { query: "wireless earbuds", pagination: { limit: 3 } })
      expect(products.length).toBe(3)
      expect(pagination?.has_next_page).toBe(true)
      expect(new Set(products.map((product) => product.id)).size).toBe(3)
      for (const product of products) {
        expect(product.id).toMatch(/^prod_[0-9a-f]{32}$/)
        // our landing page of the model; the tracked links are the variants'
        expect(product.url).toBe(`${service.url}/deals/${product.id}`)
        const extension = product.metadata![EXT] as any
        expect(extension.disclosure).toMatch(/commission/)
        expect(extension.stores.length).toBeGreaterThanOrEqual(1)
        // a search answer lists up to five offers per model; get_product lists them all
        expect(product.variants.length).toBeLessThanOrEqual(5)
        expect(extension.offers).toBeGreaterThanOrEqual(product.variants.length)
        for (const variant of product.variants) {
          expect(variant.url).toMatch(trackedLink("mcp"))
          const offer = variant.metadata![EXT] as any
          expect(offer.tracked_link).toBe(variant.url)
          expect(offer.buying_checks.length).toBeGreaterThan(3)
          expect(offer.assistant_instructions).toMatch(/disclosure/)
          expect(offer.assistant_instructions).not.toMatch(/links\.tracked|originalPrice|couponCode/)
          expect(offer.coupon_code).toBeNull()
        }
      }
      const several = await productWithSeveralStores()
      expect(several.variants.length).toBeGreaterThanOrEqual(2)
    })

    it("a strikethrough price only against our own 30-day reference", async () => {
      const { products } = await search(anonymous, { query: "headphones", pagination: { limit: 30 } })
      const variants = products.flatMap((product) => product.variants)
      const discounted = variants.filter((variant) => (variant.metadata![EXT] as any).verified_discount !== null)
      const plain = variants.filter((variant) => (variant.metadata![EXT] as any).verified_discount === null)
      expect(discounted.length).toBeGreaterThan(0)
      expect(plain.length).toBeGreaterThan(0)
      for (const variant of discounted) {
        const verified = (variant.metadata![EXT] as any).verified_discount
        expect(variant.list_price).toEqual(verified.reference_price)
        expect(variant.list_price!.amount).toBeGreaterThan(variant.price.amount)
        expect(verified.percent).toBeGreaterThan(0)
      }
      for (const variant of plain) expect(variant.list_price).toBeUndefined()
    })

    it("pages with the cursor of the previous answer", async () => {
      const first = await search(anonymous, { query: "running shoes", pagination: { limit: 3 } })
      expect(first.pagination?.has_next_page).toBe(true)
      const second = await search(anonymous, {
        query: "running shoes",
        pagination: { limit: 3, cursor: first.pagination!.cursor }
      })
      expect(second.products.length).toBeGreaterThan(0)
      const seen = new Set(first.products.map((product) => product.id))
      for (const product of second.products) expect(seen.has(product.id)).toBe(false)
    })

    it("filters by category, price (minor units) and currency", async () => {
      const { products } = await search(anonymous, {
        filters: { categories: ["earbuds"], price: { max: 10000 } },
        context: { currency: "USD" },
        pagination: { limit: 20 }
      })
      expect(products.length).toBeGreaterThan(0)
      for (const product of products) {
        expect(product.categories!.map((category) => category.value.toLowerCase())).toContain("earbuds")
        for (const variant of product.variants) {
          expect(variant.price.currency).toBe("USD")
          expect(variant.price.amount).toBeLessThanOrEqual(10000)
          expect(variant.availability?.available).toBe(true)
        }
      }
    })

    it("lookup_catalog resolves product and variant ids, reports unknown ones as messages", async () => {
      const product = await productWithSeveralStores()
      const other = product.variants[1]
      const answer = await call(anonymous, "lookup_catalog", {
        catalog: { ids: [product.id, other.id, "nope", product.id] }
      })
      expect(answer.isError).toBe(false)
      const lookup = LookupResponse.parse(answer.body)
      expect(lookup.products.length).toBe(1)
      const inputs = lookup.products[0].variants.flatMap((variant) => variant.inputs)
      expect(inputs).toEqual(
        expect.arrayContaining([
          { id: product.id, match: "featured" },
          { id: other.id, match: "exact" }
        ])
      )
      expect(inputs.length).toBe(2)
      expect(lookup.messages).toEqual([{ type: "info", code: "not_found", content: "nope" }])
    })

    it("get_product lists every offer of the model; an unknown id is a tool error", async () => {
      const product = await productWithSeveralStores()
      const answer = await call(anonymous, "get_product", { catalog: { id: product.variants[1].id } })
      expect(answer.isError).toBe(false)
      const { product: detail } = GetProductResponse.parse(answer.body)
      expect(detail.variants[0].id).toBe(product.variants[1].id)
      expect(new Set(detail.variants.map((variant) => variant.seller?.name)).size).toBeGreaterThanOrEqual(2)
      expect(detail.price_range.min.amount).toBeLessThanOrEqual(detail.price_range.max.amount)

      const missing = await call(anonymous, "get_product", { catalog: { id: "prod_bm9wZQ" } })
      expect(missing).toEqual({
        isError: true,
        body: { error: { code: "product_not_found", message: "no product or variant has the id 'prod_bm9wZQ'" } }
      })
    })

    it("bad arguments are tool errors with the JSON API's code, and the connection stays open", async () => {
      const tooMany = await call(anonymous, "search_catalog", { catalog: { query: "tv", pagination: { limit: 500 } } })
      expect(tooMany.isError).toBe(true)
      expect(tooMany.body.error).toMatchObject({
        code: "invalid_parameter",
        message: "arguments parameter 'catalog.pagination.limit': Expected a value between 1 and 50"
      })
      const missing = await call(anonymous, "search_catalog", {})
      expect(missing.body.error).toMatchObject({
        code: "invalid_parameter",
        message: "arguments parameter 'catalog': Missing key"
      })
      const empty = await call(anonymous, "search_catalog", { catalog: {} })
      expect(empty.body.error.message).toBe("arguments parameter 'catalog.query': give a query, filters, or both")
      const cursor = await call(anonymous, "search_catalog", {
        catalog: { query: "tv", pagination: { cursor: "garbage" } }
      })
      expect(cursor.body.error.code).toBe("invalid_parameter")
      const noFilter = await call(anonymous, "find_programs", {})
      expect(noFilter.body.error.message).toBe("arguments parameter 'domain': give a domain, a keyword, or both")
      // an unknown tool is a JSON-RPC error, not a broken connection
      await expect(anonymous.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow()
      const after = await search(anonymous, { query: "tv", pagination: { limit: 1 } })
      expect(after.products.length).toBe(1)
    })

    it("list_deals answers what GET /api/deals answers, with the mcp tag", async () => {
      const answer = await call(anonymous, "list_deals", { category: "Electronics", limit: 4 })
      expect(answer.isError).toBe(false)
      const api = await getJson(`${service.url}/api/deals?category=Electronics&limit=4&tag=mcp`)
      expect(answer.body.count).toBe(api.body.count)
      expect(answer.body.deals).toEqual(api.body.deals)
      expect(answer.body.disclosure).toBe(api.body.disclosure)
      for (const deal of answer.body.deals) expect(deal.links.tracked).toMatch(trackedLink("mcp"))
    })

    it("match_link needs the partner key and answers as POST /api/v1/links/match", async () => {
      const url = "https://shop.lululemon.com/p/mcp-test"
      const refused = await call(anonymous, "match_link", { url })
      expect(refused).toEqual({
        isError: true,
        body: { error: { code: "unauthorized", message: "an API key is required: Authorization: Bearer <api key>" } }
      })
      const matched = await call(partner, "match_link", { url })
      expect(matched.isError).toBe(false)
      expect(matched.body).toMatchObject({ matched: true, created: true, program: { id: "rakuten:69950" } })
      const api = await postJson(`${service.url}/api/v1/links/match`, { url }, { authorization: `Bearer ${apiKey}` })
      expect(api.body).toEqual({ ...matched.body, created: false })
      const invalid = await call(partner, "match_link", { url: "not a url" })
      const apiInvalid = await postJson(
        `${service.url}/api/v1/links/match`,
        { url: "not a url" },
        { authorization: `Bearer ${apiKey}` }
      )
      expect(apiInvalid.status).toBe(400)
      expect(invalid).toEqual({ isError: true, body: apiInvalid.body })
    })

    it("find_programs answers as GET /api/v1/programs", async () => {
      const answer = await call(anonymous, "find_programs", { domain: "www.gap.com" })
      const api = await getJson(`${service.url}/api/v1/programs?domain=www.gap.com&limit=10`)
      expect(answer.body).toEqual(api.body)
      expect(answer.body.data.map((program: any) => program.id)).toContain("cj:0358855")
      const byKeyword = await call(anonymous, "find_programs", { keyword: "amazon", limit: 3 })
      expect(byKeyword.body.data.length).toBe(3)
    })

    it("partner_stats is the partner's GET /api/v1/partners/me; a refused key is the API's 401 body", async () => {
      const answer = await call(partner, "partner_stats")
      const api = await getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${apiKey}` })
      expect(answer.body.partner).toEqual(api.body.partner)
      expect(answer.body.totals).toEqual(api.body.totals)
      const unknownKey = await httpClient(service.url, `ak_${"x".repeat(43)}`)
      clients.push(unknownKey)
      expect(await call(unknownKey, "partner_stats")).toEqual({
        isError: true,
        body: { error: { code: "unauthorized", message: "unknown API key" } }
      })
      // the same refusal on tools that hand out links: never silently the default tag
      expect((await call(unknownKey, "list_deals", { limit: 1 })).body.error.code).toBe("unauthorized")
    })

    it("tracked links carry the partner's tag when the request has its key", async () => {
      const { products } = await search(partner, { query: "wireless earbuds", pagination: { limit: 2 } })
      for (const variant of products.flatMap((product) => product.variants))
        expect(variant.url).toMatch(trackedLink(partnerTag))
    })

    it("/.well-known/ucp advertises the MCP endpoint and the catalog capabilities", async () => {
      const response = await getJson(`${service.url}/.well-known/ucp`)
      expect(response.status).toBe(200)
      const { ucp } = DiscoveryProfile.parse(response.body)
      expect(ucp.services["dev.ucp.shopping"].mcp?.endpoint).toBe(`${service.url}/mcp`)
      expect(Object.keys(ucp.capabilities)).toEqual(
        expect.arrayContaining(["dev.ucp.shopping.catalog.search", "dev.ucp.shopping.catalog.lookup"])
      )
      expect(ucp.capabilities["com.affiliate-commerce.offer"][0].extends).toBe("dev.ucp.shopping.catalog.search")
    })
  })

  describe("over stdio (aff mcp)", () => {
    let stdio: Client
    beforeAll(async () => {
      stdio = await stdioClient(home.dir, { AFF_SERVER: service.url, AFF_API_KEY: apiKey })
      clients.push(stdio)
    }, 60_000)

    it("lists the same tools as /mcp", async () => {
      const [local, remote] = await Promise.all([stdio.listTools(), anonymous.listTools()])
      expect(local.tools.map((tool) => [tool.name, tool.inputSchema])).toEqual(
        remote.tools.map((tool) => [tool.name, tool.inputSchema])
      )
    })

    it("answers every tool through the server, with the partner's tag from AFF_API_KEY", async () => {
      const found = SearchResponse.parse(
        (await call(stdio, "search_catalog", { catalog: { query: "wireless earbuds", pagination: { limit: 3 } } })).body
      )
      expect(found.products.length).toBe(3)
      for (const product of found.products) expect(product.variants[0].url).toMatch(trackedLink(partnerTag))
      const product = found.products[0]
      // the same model id as over HTTP
      const overHttp = await search(anonymous, { query: "wireless earbuds", pagination: { limit: 3 } })
      expect(overHttp.products.map((p) => p.id)).toEqual(found.products.map((p) => p.id))
      LookupResponse.parse((await call(stdio, "lookup_catalog", { catalog: { ids: [product.id] } })).body)
      // lookup by what an agent holds: a GTIN from the sample feeds
      const { gtin } = await service.run(
        Effect.gen(function* () {
          const db = yield* Database
          const rows = yield* db.queryAs(
            Schema.Struct({ gtin: Schema.String }),
            "SELECT gtin FROM products WHERE gtin IS NOT NULL ORDER BY id LIMIT 1"
          )
          return rows[0]
        })
      )
      const byGtin = LookupResponse.parse((await call(stdio, "lookup_catalog", { catalog: { ids: [gtin] } })).body)
      expect(byGtin.products.length).toBeGreaterThan(0)
      expect(byGtin.products[0].variants[0].inputs).toEqual([{ id: gtin, match: "exact" }])
      GetProductResponse.parse((await call(stdio, "get_product", { catalog: { id: product.id } })).body)
      const deals = await call(stdio, "list_deals", { limit: 2 })
      expect(deals.body.deals.length).toBe(2)
      expect(deals.body.deals[0].links.tracked).toMatch(trackedLink(partnerTag))
      const matched = await call(stdio, "match_link", { url: "https://www.gap.com/browse/product.do?pid=7" })
      expect(matched.body).toMatchObject({ matched: true, program: { id: "cj:0358855" } })
      expect((await call(stdio, "find_programs", { domain: "gap.com" })).body.data.length).toBeGreaterThan(0)
      const stats = await call(stdio, "partner_stats")
      expect(stats.body.partner.tag).toBe(partnerTag)
    })

    it("passes the server's errors through unchanged and keeps serving", async () => {
      const bad = await call(stdio, "list_deals", { limit: 0 })
      expect(bad).toEqual({
        isError: true,
        body: {
          error: {
            code: "invalid_parameter",
            message: "arguments parameter 'limit': Expected a value between 1 and 50",
            details: [{ field: "limit", message: "Expected a value between 1 and 50", in: "arguments" }]
          }
        }
      })
      expect((await call(stdio, "list_deals", { limit: 1 })).body.count).toBe(1)
    })

    it("a line that is not JSON gets a parse error and the session goes on", async () => {
      const child = spawn(join("node_modules", ".bin", "node"), ["cli/partner.ts", "mcp"], {
        cwd: resolve(import.meta.dirname, "..", "..", ".."),
        env: cleanEnv(home.dir, { AFF_SERVER: service.url })
      })
      const lines: Array<any> = []
      const answered = new Promise<void>((done) => {
        let buffer = ""
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          buffer += chunk
          for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
            lines.push(JSON.parse(buffer.slice(0, at)))
            buffer = buffer.slice(at + 1)
          }
          if (lines.some((line) => line.id === 2)) done()
        })
      })
      child.stdin.write(
        [
          {
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } }
          },
          "this is not json",
          { jsonrpc: "2.0", method: "notifications/initialized" },
          { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_deals", arguments: { limit: 1 } } }
        ]
          .map((line) => (typeof line === "string" ? line : JSON.stringify(line)))
          .join("\n") + "\n"
      )
      await answered
      child.stdin.end()
      expect(lines).toContainEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })
      expect(lines.find((line) => line.id === 2).result.structuredContent.count).toBe(1)
    })

    it("without a key, match_link says so; with the server down, every call says that", async () => {
      const keyless = await stdioClient(home.dir, { AFF_SERVER: service.url })
      clients.push(keyless)
      expect((await call(keyless, "match_link", { url: "https://www.gap.com/" })).body.error.code).toBe("unauthorized")
      const offline = await stdioClient(home.dir, { AFF_SERVER: "http://127.0.0.1:9" })
      clients.push(offline)
      const answer = await call(offline, "search_catalog", { catalog: { query: "tv" } })
      expect(answer.isError).toBe(true)
      expect(answer.body.error.code).toBe("server_unreachable")
      expect(answer.body.error.message).toContain("http://127.0.0.1:9")
    })
  })
})
