import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { Database } from "../../infra/Database.ts"
import { insertCatalog } from "../support/catalogFixture.ts"
import { getJson, postJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"

describe("POST /api/v1/links/match and GET /api/v1/links over real HTTP", () => {
  let service: RunningService
  let key: string
  let otherKey: string
  const match = (url: unknown, headers: Record<string, string> = {}) =>
    postJson(`${service.url}/api/v1/links/match`, { url }, headers)
  const auth = (k: string) => ({ authorization: `Bearer ${k}` })

  beforeAll(async () => {
    service = await startService()
    await service.run(
      Effect.gen(function* () {
        yield* insertCatalog()
        yield* (yield* ProgramMatcher).reload
      })
    )
    key = (await postJson(`${service.url}/api/v1/partners/register`, { name: "Matcher Co", email: "m@x.example" })).body
      .api_key
    otherKey = (await postJson(`${service.url}/api/v1/partners/register`, { name: "Other Co", email: "o@x.example" }))
      .body.api_key
  })
  afterAll(() => service.close())

  it("matches a merchant URL and answers the documented shape", async () => {
    const url = "https://www.Example-Store.com/p/42?colour=blue&utm_source=newsletter"
    const res = await match(url, auth(key))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      matched: true,
      created: true,
      program: {
        id: "cj:2002",
        name: "Example Store (CJ)",
        network: "cj",
        domain: "example-store.com",
        commission_type: "CPS"
      },
      link: { original_url: url, destination_url: "https://www.example-store.com/p/42?colour=blue" }
    })
    // the programme's integer number, the one GET /api/v1/programs lists
    const listed = await getJson(`${service.url}/api/v1/programs?network=cj&q=${encodeURIComponent("Example Store")}`)
    const number = listed.body.data.find((p: { id: string }) => p.id === "cj:2002").number
    expect([Number.isInteger(number), res.body.program.number]).toEqual([true, number])
    const { tracking_id, tracking_url, affiliate_url } = res.body.link
    expect(tracking_url).toBe(`${service.url}/t/${tracking_id}`)
    expect(affiliate_url).toBe(
      `https://www.anrdoezrs.net/click-7654321-13579?url=${encodeURIComponent("https://www.example-store.com/p/42?colour=blue")}&sid=${tracking_id}`
    )
  })

  it("returns the same link for the same partner and normalised URL, with no duplicate rows", async () => {
    const a = await match("https://example-store.com/same?x=1", auth(key))
    const b = await match("https://EXAMPLE-STORE.com:443/same?x=1&gclid=abc#frag", auth(key))
    expect(b.body.created).toBe(false)
    expect(b.body.link.tracking_id).toBe(a.body.link.tracking_id)
    expect(b.body.link.original_url).toBe("https://EXAMPLE-STORE.com:443/same?x=1&gclid=abc#frag")
    const concurrent = await Promise.all(
      Array.from({ length: 10 }, () => match("https://example-store.com/race", auth(key)))
    )
    expect(new Set(concurrent.map((r) => r.body.link.tracking_id)).size).toBe(1)
    const rows = await service.run(
      Effect.gen(function* () {
        const db = yield* Database
        return yield* db.query<{ n: number }>(
          "SELECT count(*)::INTEGER AS n FROM tracking_links WHERE normalized_url = 'https://example-store.com/race'"
        )
      })
    )
    expect(rows[0].n).toBe(1)
  })

  it("gives different partners (and anonymous callers) their own links", async () => {
    const mine = await match("https://example-store.com/shared", auth(key))
    const theirs = await match("https://example-store.com/shared", auth(otherKey))
    const anon = await match("https://example-store.com/shared")
    const anonAgain = await match("https://example-store.com/shared")
    expect(new Set([mine.body.link.tracking_id, theirs.body.link.tracking_id, anon.body.link.tracking_id]).size).toBe(3)
    expect(anonAgain.body.link.tracking_id).toBe(anon.body.link.tracking_id)
  })

  it.each([
    ["https://outlet.example-store.com/x", "rakuten:3003", "outlet.example-store.com"],
    ["https://www.gadget.co.uk/tv", "awin:4001", "gadget.co.uk"],
    ["https://gadget.de/tv", "rakuten:4002", "gadget.de"],
    ["https://fashion-house.com/dress", "partnerize:5002", "fashion-house.com"],
    ["https://deeplink-test.com/a", "admitad:7002", "deeplink-test.com"],
    ["https://bücher.de/buch/1", "awin:8001", "xn--bcher-kva.de"],
    ["https://coolshop.myshopify.com/products/x", "impact:9001", "coolshop.myshopify.com"],
    ["https://insure-me.com/quote", "cj:10002", "insure-me.com"],
    ["https://lamp-shop.com/lamp", "awin:4101", "lamp-shop.com"],
    ["http://example-store.com:80/plain-http", "cj:2002", "example-store.com"]
  ])("matches %s to %s", async (url, programId, domain) => {
    const res = await match(url)
    expect(res.status).toBe(200)
    expect(res.body.matched).toBe(true)
    expect(res.body.program.id).toBe(programId)
    expect(res.body.program.domain).toBe(domain)
    expect(res.body.link.affiliate_url).toContain(res.body.link.tracking_id)
  })

  it("keeps country domains apart: gadget.fr is unknown", async () => {
    const res = await match("https://gadget.fr/tv")
    expect(res.body).toMatchObject({ matched: false, reason: "no_program", program: null, link: null })
  })

  it.each([
    [
      `https://www.awin1.com/cread.php?awinmid=1&awinaffid=999&clickref=someone&ued=${encodeURIComponent("https://example-store.com/p/7?awc=x")}`
    ],
    [`https://www.kqzyfj.com/click-1-2?url=${encodeURIComponent("https://example-store.com/p/7")}&sid=them`],
    [`https://click.linksynergy.com/deeplink?id=x&mid=1&murl=${encodeURIComponent("https://example-store.com/p/7")}`],
    [`https://prf.hn/click/camref:abc/pubref:them/destination:${encodeURIComponent("https://example-store.com/p/7")}`],
    [
      `https://ad.admitad.com/g/zzz/?ulp=${encodeURIComponent(encodeURIComponent("https://example-store.com/p/7"))}&subid=them`
    ],
    [`https://brand.sjv.io/c/1/2/3?subId1=them&u=${encodeURIComponent("https://example-store.com/p/7?irclickid=q")}`]
  ])("re-affiliates an already-affiliated link to our programme: %s", async (url) => {
    const res = await match(url, auth(key))
    expect(res.body.matched).toBe(true)
    expect(res.body.link.destination_url).toBe("https://example-store.com/p/7")
    expect(res.body.link.original_url).toBe(url)
    expect(res.body.link.affiliate_url).not.toContain("them")
    expect(res.body.link.affiliate_url).not.toContain("999")
  })

  it.each([
    ["https://closed-net.com/x", "no_active_program"],
    ["https://paused-shop.com/x", "no_active_program"],
    ["https://paused-net.com/x", "no_active_program"],
    ["https://unknown-merchant.example/x", "no_program"],
    // active programme on an open network that has no link template: the truth is "no deep link", not "nothing active"
    ["https://no-template.com/x", "deep_link_unavailable"],
    ["https://www.awin1.com/cread.php?awinmid=1", "tracking_link_without_destination"]
  ])("answers matched: false for %s (%s)", async (url, reason) => {
    const res = await match(url)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ matched: false, reason, original_url: url, program: null, link: null })
    expect(typeof res.body.message).toBe("string")
  })

  it("sends homepage-only programmes to the home page", async () => {
    const res = await match("https://homepage-only.com/deep/item")
    expect(res.body.link.affiliate_url).toContain(encodeURIComponent("https://homepage-only.com/"))
    expect(res.body.link.affiliate_url).not.toContain("deep")
    // flagged, so the partner knows the link does not land on the page they sent
    expect(res.body.link).toMatchObject({
      deep_link: false,
      lands_on: "https://homepage-only.com/",
      destination_url: "https://homepage-only.com/deep/item"
    })
  })

  it.each([
    ["not a url"],
    ["example-store.com/no-scheme"],
    ["javascript:alert(1)"],
    ["ftp://example-store.com/"],
    ["data:text/html,<script>1</script>"],
    ["https://example-store.com/a\r\nb"],
    [`https://example-store.com/${"x".repeat(2100)}`],
    [""],
    [42],
    [null]
  ])("refuses %j with a 400 naming url", async (url) => {
    const res = await match(url)
    expect(res.status).toBe(400)
    expect(res.body.error.message).toContain("url")
  })

  it("refuses a missing body field and a non-JSON body with a 400", async () => {
    const missing = await postJson(`${service.url}/api/v1/links/match`, {})
    expect(missing.status).toBe(400)
    expect(missing.body.error.message).toContain("url")
    const garbage = await postJson(`${service.url}/api/v1/links/match`, "{{{")
    expect(garbage.status).toBe(400)
  })

  it("401s on a malformed or unknown key instead of going anonymous", async () => {
    for (const header of ["Bearer nope", "Token abc", `Bearer ak_${"B".repeat(43)}`, "Bearer "]) {
      const res = await match("https://example-store.com/x", { authorization: header })
      expect(res.status, header).toBe(401)
      expect(res.body.error.code).toBe("unauthorized")
    }
    const list = await getJson(`${service.url}/api/v1/links`, { authorization: "Bearer nope" })
    expect(list.status).toBe(401)
  })

  it("lists the partner's own links with a key", async () => {
    const own = await getJson(`${service.url}/api/v1/links?limit=100`, auth(key))
    expect(own.status).toBe(200)
    expect(own.body.pagination).toMatchObject({ limit: 100, offset: 0 })
    expect(own.body.data.length).toBe(own.body.pagination.total)
    expect(own.body.data.every((l: any) => l.tag === "matcher-co")).toBe(true)
    const item = own.body.data[0]
    expect(Object.keys(item).sort()).toEqual([
      "affiliate_url",
      "created_at",
      "destination_url",
      "last_change",
      "market",
      "name",
      "network_id",
      "original_url",
      "program_id",
      "program_number",
      "source",
      "state",
      "status",
      "tag",
      "tracking_id",
      "tracking_url",
      "unaffiliated_since"
    ])
    expect([item.status, item.unaffiliated_since, item.last_change]).toEqual(["affiliated", null, null])
    expect([item.name, item.state]).toEqual([null, "active"])
    // each link names its programme by id and by the number GET /api/v1/programs lists
    const programs = await getJson(`${service.url}/api/v1/programs?limit=100`)
    const numbers = new Map(programs.body.data.map((p: { id: string; number: number }) => [p.id, p.number]))
    for (const link of own.body.data) expect(link.program_number).toBe(numbers.get(link.program_id))
    // and so do the partner's statistics per link
    const me = await getJson(`${service.url}/api/v1/partners/me`, auth(key))
    expect(me.body.links.length).toBeGreaterThan(0)
    for (const link of me.body.links) expect(link.program_number).toBe(numbers.get(link.program_id) ?? null)
  })

  it("never lists anonymous links: another anonymous caller cannot read a pasted reset link", async () => {
    const pasted =
      "https://example-store.com/account/reset?reset_token=s3cr3t-Tok&email=alice%40mail.example&colour=red"
    const made = await match(pasted)
    expect(made.status).toBe(200)
    expect(made.body.link.tracking_id).toMatch(/^[A-Za-z0-9]{12}$/)
    const other = await getJson(`${service.url}/api/v1/links?limit=100`)
    expect(other.status).toBe(401)
    expect(other.body.error.code).toBe("unauthorized")
    expect(JSON.stringify(other.body)).not.toContain("s3cr3t")
    // nor does any partner see it among theirs
    const partner = await getJson(`${service.url}/api/v1/links?limit=100`, auth(otherKey))
    expect(JSON.stringify(partner.body)).not.toContain("s3cr3t")
  })

  it("stores original_url without parameters that look like credentials", async () => {
    const submitted =
      "https://example-store.com/p/77?API_Key=k1&sessionid=s1&Password=p1&colour=blue&secret=x" +
      "&auth_code=a1&contact=bob@mail.example&size=9#access_token=t1"
    const made = await match(submitted, auth(key))
    expect(made.status).toBe(200)
    expect(made.body.link.original_url).toBe(submitted) // the answer echoes what the caller sent
    const listed = await getJson(`${service.url}/api/v1/links?limit=100`, auth(key))
    const stored = listed.body.data.find((l: any) => l.tracking_id === made.body.link.tracking_id)
    expect(stored.original_url).toBe("https://example-store.com/p/77?colour=blue&size=9")
    const rows = await service.run(
      Effect.flatMap(Database, (db) =>
        db.query<{ original_url: string }>("SELECT original_url FROM tracking_links WHERE id = $1", [
          made.body.link.tracking_id
        ])
      )
    )
    expect(rows[0].original_url).toBe("https://example-store.com/p/77?colour=blue&size=9")
  })

  it("pages with limit/offset and next_offset", async () => {
    const first = await getJson(`${service.url}/api/v1/links?limit=2`, auth(key))
    expect(first.body.data).toHaveLength(2)
    expect(first.body.pagination.next_offset).toBe(2)
    const second = await getJson(`${service.url}/api/v1/links?limit=2&offset=2`, auth(key))
    expect(second.body.data[0].tracking_id).not.toBe(first.body.data[0].tracking_id)
    const last = await getJson(
      `${service.url}/api/v1/links?limit=100&offset=${first.body.pagination.total - 1}`,
      auth(key)
    )
    expect(last.body.data).toHaveLength(1)
    expect(last.body.pagination.next_offset).toBeNull()
  })

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["offset=-1", "offset"]
  ])("refuses ?%s with a 400 naming %s", async (query, field) => {
    const res = await getJson(`${service.url}/api/v1/links?${query}`, auth(key))
    expect(res.status).toBe(400)
    expect(res.body.error.message).toContain(field)
  })
})
