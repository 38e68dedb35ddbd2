import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "../../infra/Database.ts"
import { groupKey } from "../../domain/catalog/modelKey.ts"
import { catalogIdOf, documentId } from "../../readModel/documents.ts"
import { getJson } from "../support/http.ts"
import { startSampleService } from "../support/sampleService.ts"
import type { RunningService } from "../support/TestService.ts"

// One result per product model on the shipped sample catalog: its feeds sell
// the same earbuds in five colours across stores (a GTIN and a title per
// colour), which used to fill a whole page of results with one model.
describe("discovery feed: colour/size variants are one product (sample catalog)", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startSampleService()
  }, 240_000)
  afterAll(() => service?.close())

  type Row = {
    id: string
    title: string
    gtin: string | null
    color: string | null
    size: string | null
    condition: string | null
  }
  /** The model key of each listed deal, from its catalog row (not from the response). */
  const modelKeys = async (deals: ReadonlyArray<{ id: string }>) => {
    const ids = deals.map((deal) => catalogIdOf(deal.id)!)
    const rows = await service.run(
      Database.use((db) =>
        db.query<Row>(`SELECT id, title, gtin, color, size, condition FROM products WHERE id IN ${db.jsonList("$1")}`, [
          JSON.stringify(ids)
        ])
      )
    )
    const byId = new Map(rows.map((row) => [row.id, row]))
    return ids.map((id) => {
      const row = byId.get(id)!
      return groupKey(row.gtin, row.title, row)
    })
  }
  const list = async (path: string, field: "results" | "deals") => {
    const response = await getJson(`${service.url}${path}`)
    expect(response.status, path).toBe(200)
    return response.body[field] as Array<{ id: string; title: string; store: string }>
  }

  it("the sample catalog does sell one model in several colours, at several stores", async () => {
    const colours = await service.run(
      Database.use((db) =>
        db.query<{ n: number; stores: number }>(
          `SELECT count(DISTINCT color)::INTEGER AS n, count(DISTINCT store)::INTEGER AS stores FROM products
         WHERE title LIKE 'Anker Soundcore Liberty 4 NC Wireless Earbuds, %' AND color IS NOT NULL`
        )
      )
    )
    expect(colours[0].n).toBeGreaterThanOrEqual(5)
    expect(colours[0].stores).toBeGreaterThanOrEqual(5)
  })

  it("/api/search?q=wireless earbuds lists distinct models", async () => {
    // the sample sells nine earbud models, two of them under 100 (a page of their colours used to hide the second)
    for (const [q, models] of [
      ["wireless earbuds", 5],
      ["wireless earbuds under 100", 2]
    ] as const) {
      const results = await list(`/api/search?q=${encodeURIComponent(q)}&limit=5`, "results")
      expect(results.length, `${q}: ${results.map((r) => r.title).join("; ")}`).toBe(models)
      const keys = await modelKeys(results)
      expect(new Set(keys).size, `${q}: ${results.map((r) => `${r.title} (${r.store})`).join("; ")}`).toBe(keys.length)
      // the colours (and refurbished offers) of one model are never listed side by side
      const brands = results.map((r) => r.title.split(" ").slice(0, 3).join(" "))
      expect(new Set(brands).size, brands.join("; ")).toBe(brands.length)
    }
  })

  it("a model sold in five colours at many stores is one result; its other models stay apart", async () => {
    const liberty = await list(
      `/api/search?q=${encodeURIComponent("anker soundcore liberty 4 nc")}&limit=10`,
      "results"
    )
    expect(liberty.map((r) => r.title.replace(/,.*$/, ""))).toEqual(["Anker Soundcore Liberty 4 NC Wireless Earbuds"])
    const earbuds = await list(`/api/search?q=earbuds&limit=20`, "results")
    const keys = await modelKeys(earbuds)
    expect(new Set(keys).size).toBe(keys.length)
    expect(keys.length).toBeGreaterThanOrEqual(8)
    expect(keys.every((key) => !/ (white|black|navy|coral|silver|refurbished)$/.test(key))).toBe(true)
  })

  it("a result says what else its model offers; a store filter shows that store's offer; every offer keeps its landing page", async () => {
    const [liberty] = (await list(
      `/api/search?q=${encodeURIComponent("anker soundcore liberty 4 nc")}&limit=1`,
      "results"
    )) as Array<any>
    expect(liberty.variants.offers).toBeGreaterThanOrEqual(5)
    expect(liberty.variants.stores).toBeGreaterThanOrEqual(5)
    expect(liberty.variants.colors.length).toBeGreaterThanOrEqual(5)
    // every store that sells the model: its own offer when the filter names it
    const stores = await service.run(
      Database.use((db) =>
        db.query<{ store: string; id: string }>(
          `SELECT store, min(id) AS id FROM products WHERE title LIKE 'Anker Soundcore Liberty 4 NC Wireless Earbuds, %' GROUP BY store`
        )
      )
    )
    expect(stores.length).toBeGreaterThanOrEqual(5)
    for (const { store } of stores) {
      const response = await getJson(
        `${service.url}/api/v1/products/search?q=${encodeURIComponent("liberty 4 nc")}&store=${encodeURIComponent(store)}`
      )
      expect(response.status).toBe(200)
      const items = response.body.data as Array<{ title: string; store: string }>
      expect(
        items.filter((item) => item.title.startsWith("Anker Soundcore Liberty 4 NC")).map((item) => item.store)
      ).toEqual([store])
    }
    // a deal id names one offer, not the model: each offer's landing page renders that offer
    for (const { id } of stores.slice(0, 4)) {
      const page = await fetch(`${service.url}/deals/${documentId(id)}`)
      expect(page.status, id).toBe(200)
      const html = await page.text()
      const [row] = await service.run(
        Database.use((db) => db.query<{ store: string }>("SELECT store FROM products WHERE id = $1", [id]))
      )
      expect(html).toContain(row.store.replaceAll("&", "&amp;"))
    }
  })

  it("/api/deals still lists one offer per product, with and without a phrase", async () => {
    for (const path of [
      "/api/deals?limit=50",
      "/api/deals?q=earbuds&limit=20",
      "/api/deals?category=Electronics&limit=50"
    ]) {
      const deals = await list(path, "deals")
      expect(deals.length, path).toBeGreaterThan(0)
      const keys = await modelKeys(deals)
      expect(new Set(keys).size, path).toBe(keys.length)
    }
  })
})
