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
import { conforms } from "./ucpConformance.ts"

// The MCP server over the sample catalog (real DuckDB and Meilisearch),
// driven by the official MCP SDK client over Streamable HTTP and over stdio
// (`aff mcp` as a child process). UCP results are checked against the spec's
// published schemas (ucpConformance.ts); our own tools against the JSON API they mirror.

const EXT = "com.affiliate_commerce.offer"
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
    return conforms("search_catalog", answer.body)
  }
  /** A product of the sample catalog with offers from at least two stores. */
  const productWithSeveralStores = async () => {
    const { products } = await search(anonymous, { query: "wireless earbuds", pagination: { limit: 20 } })
    const product = products.find(
      (candidate: any) => new Set(candidate.variants.map((variant: any) => variant.seller?.name)).size >= 2
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
      expect(catalog.properties.pagination.properties.limit).toMatchObject({ type: "integer", minimum: 1 })
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

    it("search_catalog answers UCP products: one per model, offers as variants with tracked links; what is the same for every offer is said once", async () => {
      const { products, pagination, messages } = await search(anonymous, {
        query: "wireless earbuds",
        pagination: { limit: 3 }
      })
      expect(products.length).toBe(3)
      expect(pagination?.has_next_page).toBe(true)
      expect(new Set(products.map((product: any) => product.id)).size).toBe(3)
      // the disclosure once, where UCP clients must show it
      const disclosures = messages.filter((message: any) => message.presentation === "disclosure")
      expect(disclosures).toEqual([
        {
          type: "warning",
          code: "affiliate_disclosure",
          content: expect.stringMatching(/commission/),
          presentation: "disclosure"
        }
      ])
      const codes = messages.map((message: any) => message.code)
      expect(codes).toEqual(expect.arrayContaining(["assistant_instructions", "buying_checks", "interpretation"]))
      expect(JSON.stringify(products)).not.toMatch(/commission|buying_checks|assistant_instructions/)
      for (const product of products) {
        expect(product.id).toMatch(/^prod_[0-9a-f]{32}$/)
        // our landing page of the model; the tracked links are the variants'
        expect(product.url).toBe(`${service.url}/deals/${product.id}`)
        const extension = product.metadata![EXT] as any
        expect(extension.stores).toBeGreaterThanOrEqual(1)
        expect(extension.prices_checked_at).toMatch(/^\d{4}-\d{2}-\d{2}$/)
        // a search answer lists up to three offers per model; get_product lists them all
        expect(product.variants.length).toBeLessThanOrEqual(3)
        expect(extension.offers).toBeGreaterThanOrEqual(product.variants.length)
        for (const variant of product.variants) {
          expect(variant.url).toMatch(trackedLink("mcp"))
          expect(Object.keys(variant).sort()).toEqual(
            expect.arrayContaining(["id", "title", "description", "url", "price", "availability", "seller"])
          )
          expect(variant.media).toBeUndefined()
        }
      }
      const several = await productWithSeveralStores()
      expect(several.variants.length).toBeGreaterThanOrEqual(2)
    })

    it("a strikethrough price only against our own 30-day reference", async () => {
      const { products } = await search(anonymous, { query: "headphones", pagination: { limit: 30 } })
      const variants = products.flatMap((product: any) => product.variants)
      const discounted = variants.filter((variant: any) => variant.metadata?.[EXT].verified_discount !== undefined)
      const plain = variants.filter((variant: any) => variant.metadata?.[EXT].verified_discount === undefined)
      expect(discounted.length).toBeGreaterThan(0)
      expect(plain.length).toBeGreaterThan(0)
      for (const variant of discounted) {
        const verified = variant.metadata[EXT].verified_discount
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
      const seen = new Set(first.products.map((product: any) => product.id))
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
        expect(product.categories!.map((category: any) => category.value.toLowerCase())).toContain("earbuds")
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
      const lookup = conforms("lookup_catalog", answer.body)
      expect(lookup.products.length).toBe(1)
      const inputs = lookup.products[0].variants.flatMap((variant: any) => variant.inputs)
      expect(inputs).toEqual(
        expect.arrayContaining([
          { id: product.id, match: "featured" },
          { id: other.id, match: "exact" }
        ])
      )
      expect(inputs.length).toBe(2)
      expect(lookup.messages.filter((message: any) => message.code === "not_found")).toEqual([
        { type: "info", code: "not_found", content: "nope" }
      ])
    })

    it("get_product lists every offer of the model", async () => {
      const product = await productWithSeveralStores()
      const answer = await call(anonymous, "get_product", { catalog: { id: product.variants[1].id } })
      expect(answer.isError).toBe(false)
      const { product: detail } = conforms("get_product", answer.body)
      expect(detail.variants[0].id).toBe(product.variants[1].id)
      expect(new Set(detail.variants.map((variant: any) => variant.seller?.name)).size).toBeGreaterThanOrEqual(2)
      expect(detail.price_range.min.amount).toBeLessThanOrEqual(detail.price_range.max.amount)
    })

    it("bad arguments are UCP error answers naming the field, and the connection stays open", async () => {
      const error = (answer: { isError: boolean; body: any }) => {
        expect(answer.isError).toBe(true)
        return conforms("error_response", answer.body).messages[0]
      }
      const zero = await call(anonymous, "search_catalog", { catalog: { query: "tv", pagination: { limit: 0 } } })
      expect(error(zero)).toEqual({
        type: "error",
        code: "invalid_parameter",
        content: "arguments parameter 'catalog.pagination.limit': Expected a value greater than or equal to 1",
        severity: "recoverable",
        path: "$.catalog.pagination.limit"
      })
      const missing = await call(anonymous, "search_catalog", {})
      expect(error(missing)).toMatchObject({
        code: "invalid_parameter",
        content: "arguments parameter 'catalog': Missing key"
      })
      const empty = await call(anonymous, "search_catalog", { catalog: {} })
      expect(error(empty).content).toBe(
        "arguments parameter 'catalog.query': give a query, a context.intent, filters, or both"
      )
      const cursor = await call(anonymous, "search_catalog", {
        catalog: { query: "tv", pagination: { cursor: "garbage" } }
      })
      expect(error(cursor).code).toBe("invalid_parameter")
      const noFilter = await call(anonymous, "find_programs", {})
      expect(noFilter.body.error.message).toBe("arguments parameter 'domain': give a domain, a keyword, or both")
      // an unknown tool is a JSON-RPC error, not a broken connection
      await expect(anonymous.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow()
      const after = await search(anonymous, { query: "tv", pagination: { limit: 1 } })
      expect(after.products.length).toBe(1)
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
      for (const variant of products.flatMap((product: any) => product.variants))
        expect(variant.url).toMatch(trackedLink(partnerTag))
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
      const described = (tools: typeof local.tools) =>
        tools.map((tool) => [tool.name, tool.title, tool.inputSchema, tool.outputSchema])
      expect(described(local.tools)).toEqual(described(remote.tools))
    })

    it("answers every tool through the server, with the partner's tag from AFF_API_KEY", async () => {
      const found = conforms(
        "search_catalog",
        (await call(stdio, "search_catalog", { catalog: { query: "wireless earbuds", pagination: { limit: 3 } } })).body
      )
      expect(found.products.length).toBe(3)
      for (const product of found.products) expect(product.variants[0].url).toMatch(trackedLink(partnerTag))
      const product = found.products[0]
      // the same model id as over HTTP
      const overHttp = await search(anonymous, { query: "wireless earbuds", pagination: { limit: 3 } })
      expect(overHttp.products.map((p: any) => p.id)).toEqual(found.products.map((p: any) => p.id))
      conforms("lookup_catalog", (await call(stdio, "lookup_catalog", { catalog: { ids: [product.id] } })).body)
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
      const byGtin = (await call(stdio, "lookup_catalog", { catalog: { ids: [gtin] } })).body
      conforms("lookup_catalog", byGtin)
      expect(byGtin.products.length).toBeGreaterThan(0)
      expect(byGtin.products[0].variants[0].inputs).toEqual([{ id: gtin, match: "exact" }])
      conforms("get_product", (await call(stdio, "get_product", { catalog: { id: product.id } })).body)
      const deals = await call(stdio, "list_deals", { limit: 2 })
      expect(deals.body.deals.length).toBe(2)
      expect(deals.body.deals[0].url).toMatch(trackedLink(partnerTag))
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
