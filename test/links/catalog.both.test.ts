import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BUMP_CATALOG_VERSION_SQL } from "../../infra/CatalogVersion.ts"
import { Database } from "../../infra/Database.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { readMatcherCatalog } from "../../links/readMatcherCatalog.ts"
import { insertCatalog, NETWORKS, PROGRAMS } from "../support/catalogFixture.ts"
import { getJson, postJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"

describe("GET /api/v1/networks and /api/v1/programs", () => {
  let service: RunningService
  const get = (path: string) => getJson(`${service.url}${path}`)

  beforeAll(async () => {
    service = await startService()
    await service.run(insertCatalog())
  })
  afterAll(() => service.close())

  it("lists networks with the list conventions", async () => {
    const res = await get("/api/v1/networks")
    expect(res.status).toBe(200)
    expect(res.body.pagination).toEqual({ limit: 20, offset: 0, total: NETWORKS.length, next_offset: null })
    const awin = res.body.data.find((n: any) => n.id === "awin")
    expect(awin).toEqual({
      id: "awin",
      name: "AWIN",
      status: "active",
      website: null,
      click_hosts: ["www.awin1.com"],
      subid_param: "clickref",
      confidence: "H",
      successor_id: null,
      regions: ["global"],
      programs: PROGRAMS.filter((p) => p.networkId === "awin").length
    })
    const names = res.body.data.map((n: any) => n.name.toLowerCase())
    expect(names).toEqual([...names].sort())
  })

  it("filters networks by status and search term", async () => {
    const closed = await get("/api/v1/networks?status=closed")
    expect(closed.body.data.map((n: any) => n.id)).toEqual(["shareasale"])
    const q = await get("/api/v1/networks?q=RAKU")
    expect(q.body.data.map((n: any) => n.id)).toEqual(["rakuten"])
    const none = await get("/api/v1/networks?q=%25")
    expect(none.body.data).toEqual([])
  })

  it("pages networks", async () => {
    const first = await get("/api/v1/networks?limit=3")
    const second = await get(`/api/v1/networks?limit=3&offset=${first.body.pagination.next_offset}`)
    expect(first.body.data).toHaveLength(3)
    expect(second.body.pagination.offset).toBe(3)
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id)
  })

  it("filters programmes by network, domain (with parents), keyword, status and country", async () => {
    const byNetwork = await get("/api/v1/programs?network=cj&limit=100")
    expect(byNetwork.body.data.every((p: any) => p.network_id === "cj")).toBe(true)
    expect(byNetwork.body.pagination.total).toBe(PROGRAMS.filter((p) => p.networkId === "cj").length)
    const byDomain = await get("/api/v1/programs?domain=www.outlet.example-store.com")
    expect(byDomain.body.data.map((p: any) => p.id).sort()).toEqual(["awin:1001", "cj:2002", "rakuten:3003"])
    const byKeyword = await get("/api/v1/programs?q=gadget")
    expect(byKeyword.body.data.map((p: any) => p.id).sort()).toEqual(["awin:4001", "rakuten:4002"])
    const byCountry = await get("/api/v1/programs?country=gb")
    expect(byCountry.body.data.map((p: any) => p.id)).toEqual(["awin:4001"])
    const paused = await get("/api/v1/programs?status=paused")
    expect(paused.body.data.map((p: any) => p.id)).toEqual(["awin:6002"])
    const item = byCountry.body.data[0]
    expect(item).toMatchObject({
      commission_type: "CPS",
      commission_rate: "4.0000",
      deep_link_allowed: true,
      domains: ["gadget.co.uk"],
      country: "GB"
    })
  })

  it.each([
    ["/api/v1/networks?status=bogus", "status"],
    ["/api/v1/networks?limit=0", "limit"],
    ["/api/v1/networks?limit=500", "limit"],
    ["/api/v1/networks?offset=-5", "offset"],
    [`/api/v1/networks?q=${"x".repeat(101)}`, "q"],
    ["/api/v1/programs?status=gone", "status"],
    ["/api/v1/programs?country=GBR", "country"],
    ["/api/v1/programs?limit=x", "limit"]
  ])("refuses %s with a 400 naming %s", async (path, field) => {
    const res = await get(path)
    expect(res.status).toBe(400)
    expect(res.body.error.message).toContain(field)
  })

  it("documents every /api/v1 endpoint in the OpenAPI with the shared list parameters", async () => {
    const spec = (await get("/openapi.json")).body
    for (const path of [
      "/api/v1/partners/register",
      "/api/v1/partners/me",
      "/api/v1/links/match",
      "/api/v1/links",
      "/api/v1/networks",
      "/api/v1/programs"
    ]) {
      expect(Object.keys(spec.paths), path).toContain(path)
    }
    for (const path of ["/api/v1/links", "/api/v1/networks", "/api/v1/programs"]) {
      const names = spec.paths[path].get.parameters.map((p: any) => p.name)
      expect(names).toEqual(expect.arrayContaining(["limit", "offset"]))
    }
  })

  it("the matcher picks up catalog changes without a restart", async () => {
    const before = await postJson(`${service.url}/api/v1/links/match`, { url: "https://brand-new-shop.com/x" })
    expect(before.body.matched).toBe(false)
    await service.run(
      insertCatalog(
        [],
        [{ networkId: "awin", merchantId: "424242", domains: ["brand-new-shop.com"], linkParams: { mid: "424242" } }]
      )
    )
    // As every catalog writer does in the transaction of its change; no explicit reload:
    // the catalog follower sees the version move and the matcher reloads on its event.
    await service.run(Effect.flatMap(Database, (db) => db.run(BUMP_CATALOG_VERSION_SQL)))
    let after = before
    const deadline = Date.now() + 8_000
    while (!after.body.matched && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250))
      after = await postJson(`${service.url}/api/v1/links/match`, { url: "https://brand-new-shop.com/x" })
    }
    expect(after.body).toMatchObject({ matched: true, program: { id: "awin:424242" } })
    // And the explicit reload used after a feed load works too.
    await service.run(
      Effect.gen(function* () {
        yield* (yield* ProgramMatcher).reload
      })
    )
  })

  it("the matcher reads a catalog of several pages, with the domains program_domains adds on either side of a page", async () => {
    const PROGRAMMES = 2_100 // past the matcher's pages of 1,000
    const rows = Array.from({ length: PROGRAMMES }, (_, i) => {
      const n = String(i).padStart(4, "0")
      return { id: `paged:${n}`, merchant_id: n, domain: `paged-${n}.example` }
    })
    // the programmes either side of the two page boundaries (ids in order) gain a domain only program_domains names
    const edges = await service.run(
      Effect.gen(function* () {
        const db = yield* Database
        const edges = yield* db.transaction((tx) =>
          Effect.gen(function* () {
            yield* tx.run(
              `INSERT INTO programs (id, network_id, merchant_id, name, domains, country, category, commission_type,
                 commission_rate, commission_currency, cookie_days, status, deep_link_allowed, epc, link_params, feed,
                 updated_at)
               SELECT r.id, 'awin', r.merchant_id, r.id, ARRAY[r.domain], NULL, 'General', 'CPS', 5, 'USD', 30,
                 'active', true, NULL, CAST('{"mid": "' || r.merchant_id || '"}' AS JSON), 'paged', now()
               FROM ${tx.jsonRows("$1", { id: "VARCHAR", merchant_id: "VARCHAR", domain: "VARCHAR" })} r`,
              [JSON.stringify(rows)]
            )
            const ids = (yield* tx.query<{ id: string }>("SELECT id FROM programs ORDER BY id")).map((row) => row.id)
            const edges = [999, 1_000, 1_999, 2_000].map((at) => ids[at])
            for (const [i, id] of edges.entries())
              yield* tx.run("INSERT INTO program_domains VALUES ($1, $2, 'paged')", [`extra-${i}.example`, id])
            return edges
          })
        )
        yield* (yield* ProgramMatcher).reload
        return edges
      })
    )
    const { catalog } = await service.run(Effect.flatMap(ProgramMatcher, (matcher) => matcher.current))
    for (const row of rows) expect(catalog.byDomain.get(row.domain)?.map((p) => p.id)).toEqual([row.id])
    for (const [i, id] of edges.entries())
      expect(catalog.byDomain.get(`extra-${i}.example`)?.map((p) => p.id)).toEqual([id])
    const match = await postJson(`${service.url}/api/v1/links/match`, { url: "https://extra-1.example/x" })
    expect(match.body).toMatchObject({ matched: true, program: { id: edges[1] } })
    // the fixture's programmes (ids before and after "paged:") are all still there
    for (const program of PROGRAMS)
      for (const domain of program.domains) expect(catalog.byDomain.has(domain), domain).toBe(true)
  })

  it("a load committed between two pages of the matcher's read is not mixed into what it holds", async () => {
    // The paged programmes of the test above: paged:0005 is on the first page, paged:2050 on the third.
    const { catalog } = await service.run(
      Effect.gen(function* () {
        const db = yield* Database
        // One catalog change, as a feed load commits it: both programmes' domains change together.
        const change = db.transaction((tx) =>
          Effect.gen(function* () {
            yield* tx.run("UPDATE programs SET domains = ARRAY['after-0005.example'] WHERE id = 'paged:0005'")
            yield* tx.run("UPDATE programs SET domains = ARRAY['after-2050.example'] WHERE id = 'paged:2050'")
            yield* tx.run(BUMP_CATALOG_VERSION_SQL)
          })
        )
        let changed = false
        // The store as it is, with the change committed once, just before the second page is read.
        const changingMidRead: typeof db = {
          ...db,
          queryAs: (row, sql, params) =>
            !changed && sql.includes("FROM programs LEFT JOIN") && params?.[0] !== ""
              ? change.pipe(
                  Effect.tap(() => Effect.sync(() => (changed = true))),
                  Effect.andThen(db.queryAs(row, sql, params))
                )
              : db.queryAs(row, sql, params)
        }
        const read = yield* readMatcherCatalog(changingMidRead)
        expect(changed).toBe(true)
        return read
      })
    )
    const programsAt = (domain: string) => catalog.byDomain.get(domain)?.map((p) => p.id)
    // the catalog after the change, whole: not the first page from before it with the third from after it
    expect(programsAt("after-0005.example")).toEqual(["paged:0005"])
    expect(programsAt("after-2050.example")).toEqual(["paged:2050"])
    expect(programsAt("paged-0005.example")).toBeUndefined()
    expect(programsAt("paged-2050.example")).toBeUndefined()
  })
})
