import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { MATCH_THRESHOLD } from "../../domain/matching/fuzzy/fuzzyScore.ts"
import { PipelineRunner } from "../../pipelines/PipelineRunner.ts"
import { getJson, postJson } from "../support/http.ts"
import { type RunningService, startService } from "../support/TestService.ts"
import { freeLoopbackPort } from "../../infra/freeLoopbackPort.ts"

// POST /api/v1/ai/match-link over real HTTP, against the shipped sample
// catalog loaded through the real networks/programmes pipelines (DuckDB and
// the Meilisearch programmes index).

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

/** Loads networks and programmes; `requireSync` false when Meilisearch is down on purpose (DuckDB still loads). */
const loadSampleCatalog = (service: RunningService, requireSync = true) =>
  service.run(
    Effect.gen(function* () {
      const runner = yield* PipelineRunner
      for (const feed of ["networks", "programs"]) {
        const run = yield* runner.run(feed, "manual")
        if (requireSync && run.status !== "succeeded")
          return yield* Effect.die(new Error(`${feed}: ${run.status} ${run.error}`))
      }
      yield* (yield* ProgramMatcher).reload
    })
  )

const register = async (service: RunningService, name: string) =>
  (await postJson(`${service.url}/api/v1/partners/register`, { name, email: `${name.replace(/\W/g, "")}@x.example` }))
    .body.api_key as string

describe("POST /api/v1/ai/match-link", () => {
  let service: RunningService
  let key: string
  let otherKey: string
  const auth = (k: string) => ({ authorization: `Bearer ${k}` })
  const matchLink = (url: unknown, k = key) => postJson(`${service.url}/api/v1/ai/match-link`, { url }, auth(k))
  /** What plain domain matching picks for a real merchant URL: fuzzy matches must agree with it. */
  const domainProgramFor = async (url: string) =>
    (await postJson(`${service.url}/api/v1/links/match`, { url })).body.program.id

  beforeAll(async () => {
    service = await startService()
    await loadSampleCatalog(service)
    key = await register(service, "Fuzzy Deals")
    otherKey = await register(service, "Someone Else")
  })
  afterAll(() => service.close())

  describe("fuzzy matches", () => {
    // [submitted URL, the real merchant URL whose programme is expected, destination, evidence kind]
    it.each([
      // misspelt domains
      [
        "https://nikee.com/t/air-max-90",
        "https://nike.com/t/air-max-90",
        "https://nike.com/t/air-max-90",
        "doubled_letter"
      ],
      [
        "https://www.nkie.com/t/air-max-90",
        "https://nike.com/t/air-max-90",
        "https://nike.com/t/air-max-90",
        "transposition"
      ],
      [
        "https://www.amazn.co.uk/dp/B0TEST?tag=someone-21",
        "https://amazon.co.uk/dp/B0TEST",
        "https://amazon.co.uk/dp/B0TEST",
        "missing_letter"
      ],
      ["https://amzaon.de/dp/B0TEST", "https://amazon.de/dp/B0TEST", "https://amazon.de/dp/B0TEST", "transposition"],
      [
        "https://bestbuyy.com/site/tv-4k",
        "https://bestbuy.com/site/tv-4k",
        "https://bestbuy.com/site/tv-4k",
        "doubled_letter"
      ],
      ["https://www.zalandoo.fr/damen", "https://zalando.fr/damen", "https://zalando.fr/damen", "doubled_letter"],
      [
        "https://www.lululemom.co.uk/en-gb/p/x",
        "https://lululemon.co.uk/en-gb/p/x",
        "https://lululemon.co.uk/en-gb/p/x",
        "adjacent_key"
      ],
      // the brand on a country domain the catalog does not have: that country's programme, else the main one
      [
        "https://www.amazon.at/dp/B0TEST",
        "https://amazon.com/dp/B0TEST",
        "https://amazon.com/dp/B0TEST",
        "other_suffix"
      ],
      [
        "https://www.amazon.com.tr/dp/B0TEST",
        "https://amazon.com/dp/B0TEST",
        "https://amazon.com/dp/B0TEST",
        "other_suffix"
      ],
      ["https://www.dyson.ie/vacuums", "https://dyson.com/vacuums", "https://dyson.com/vacuums", "other_suffix"],
      ["https://lululemon.de/p/x", "https://shop.lululemon.com/p/x", "https://shop.lululemon.com/p/x", "other_suffix"],
      // regional store domains
      ["https://dyson-store.co.uk/v15", "https://dyson.co.uk/v15", "https://dyson.co.uk/v15", "store_affix"],
      ["https://nikestore.de/t/x", "https://nike.com/t/x", "https://nike.com/t/x", "store_affix"],
      // a marketplace or unknown site whose listing names a brand: the brand's home page
      [
        "https://some-market.example/listing/dyson-v15-detect-vacuum",
        "https://dyson.com/",
        "https://dyson.com/",
        "listing_brand"
      ],
      [
        "https://bazaar.example.co.uk/p/dyson-v11-outsize",
        "https://dyson.co.uk/",
        "https://dyson.co.uk/",
        "listing_brand"
      ],
      [
        "https://shop.example/item/le-creuset-signature-casserole-24cm",
        "https://lecreuset.com/",
        "https://lecreuset.com/",
        "listing_brand"
      ],
      [
        "https://resale.example/l/the-north-face-nuptse-700",
        "https://thenorthface.com/",
        "https://thenorthface.com/",
        "listing_brand"
      ]
    ])("%s -> the programme of %s", async (url, realUrl, destination, kind) => {
      const res = await matchLink(url)
      expect(res.status).toBe(200)
      expect(res.body.matched, JSON.stringify(res.body)).toBe(true)
      expect(res.body.method).toBe("fuzzy")
      expect(res.body.program_id).toBe(await domainProgramFor(realUrl))
      expect(res.body.destination_url).toBe(destination)
      expect(res.body.recognised.kind).toBe(kind)
      expect(res.body.confidence).toBeGreaterThanOrEqual(MATCH_THRESHOLD)
      expect(res.body.confidence).toBeLessThan(1)
      expect(res.body.candidate_source).toBe("search_index")
      expect(res.body.tracking_url).toBe(`/t/${res.body.tracking_id}`)
      expect(res.body.affiliate_url).toContain(res.body.tracking_id)
      // The shopper is never sent to the host that was typed.
      expect(decodeURIComponent(res.body.affiliate_url)).not.toContain(new URL(url).hostname)
    })

    it("prefers the programme of the URL's country (nikee.co.uk -> Nike's GB programme; lego.co.uk -> LEGO UK)", async () => {
      const nike = await matchLink("https://nikee.co.uk/t/x")
      expect(nike.body).toMatchObject({ matched: true, network: "awin", recognised: { country_matched: true } })
      expect(nike.body.program).toBe("Nike UK")
      const lego = await matchLink("https://www.lego.co.uk/en-gb/product/x")
      expect(lego.body).toMatchObject({
        matched: true,
        program: "LEGO UK",
        destination_url: "https://lego.com/en-gb/product/x"
      })
    })
  })

  describe("URLs that must not match", () => {
    it.each([
      // generic sites
      ["https://en.wikipedia.org/wiki/Nike,_Inc."],
      ["https://github.com/nike-inc/example"],
      ["https://www.bbc.co.uk/news/business-dyson-profits"],
      ["https://www.chase.com/personal/credit-cards"],
      ["https://myblog.wordpress.com/2024/01/best-dyson-vacuums"],
      ["https://www.reddit.com/r/nike"],
      ["https://www.theverge.com/2024/5/1/dyson-v15-review"],
      // everyday words one edit from a brand, and brands that are everyday words
      ["https://nice.com/"],
      ["https://mike.com/"],
      ["https://www.logo.com/"],
      ["https://argus.com/"],
      ["https://www.dells.com/"],
      ["https://next.org/"],
      ["https://target.de/"],
      ["https://www.canvas.com/"],
      ["https://www.notion.so/"],
      // a brand's label on a foundation or developer suffix is not its shop
      ["https://www.dell.org/"],
      ["https://adobe.io/apis"],
      // Google: only Google Store (store.google.com) is in the catalog
      ["https://google.com/search?q=nike+shoes"],
      ["https://www.google.de/"],
      ["https://maps.google.com/"],
      // a path that merely contains a store's name as a word
      ["https://shop.example/products/hiking-boots-waterproof"],
      ["https://market.example/listing/ring-light-10-inch"],
      ["https://deals.example/item/next-day-delivery-desk"],
      // user-hosted sites named like a brand
      ["https://nike.github.io/"]
    ])("%s", async (url) => {
      const res = await matchLink(url)
      expect(res.status).toBe(200)
      expect(res.body, JSON.stringify(res.body)).toMatchObject({
        matched: false,
        program: null,
        network: null,
        affiliate_url: null,
        tracking_url: null,
        method: null
      })
      expect(res.body.confidence).toBeLessThan(MATCH_THRESHOLD)
      expect(["no_program", "below_threshold", "known_site"]).toContain(res.body.reason)
      expect(res.body.message).toEqual(expect.any(String))
    })

    it("reports the best candidate below the threshold with its score", async () => {
      const res = await matchLink("https://www.theverge.com/2024/5/1/dyson-v15-review")
      expect(res.body).toMatchObject({
        matched: false,
        reason: "below_threshold",
        recognised: { brand: "Dyson", from: "path" }
      })
      expect(res.body.confidence).toBeGreaterThan(0)
      const google = await matchLink("https://google.com/")
      expect(google.body).toMatchObject({ reason: "known_site", confidence: 0, recognised: null })
    })

    it("does not guess another merchant for a recognised merchant without an active programme", async () => {
      const paused = await matchLink("https://www.patagonia.com/product/x")
      expect(paused.body).toMatchObject({ matched: false, reason: "no_active_program", method: null, recognised: null })
      const misspelt = await matchLink("https://www.patagoniaa.com/product/x")
      expect(misspelt.body).toMatchObject({
        matched: false,
        reason: "no_active_program",
        recognised: { brand: "Patagonia" }
      })
      const tracking = await matchLink("https://www.awin1.com/cread.php?awinmid=1")
      expect(tracking.body).toMatchObject({ matched: false, reason: "tracking_link_without_destination" })
    })
  })

  describe("domain matches", () => {
    it("answer method domain, confidence 1, the programme /links/match picks", async () => {
      const url = "https://www.nike.com/t/pegasus-41?utm_source=x"
      const res = await matchLink(url)
      expect(res.body).toMatchObject({
        matched: true,
        method: "domain",
        confidence: 1,
        original_url: url,
        destination_url: "https://www.nike.com/t/pegasus-41",
        recognised: null,
        candidate_source: null
      })
      expect(res.body.program_id).toBe(await domainProgramFor(url))
      expect(typeof res.body.program).toBe("string")
      expect(typeof res.body.network).toBe("string")
    })

    it("unwraps someone else's tracking link first", async () => {
      const wrapped = `https://www.awin1.com/cread.php?awinmid=1&awinaffid=9&ued=${encodeURIComponent("https://www.amazon.de/dp/B0X")}`
      const res = await matchLink(wrapped)
      expect(res.body).toMatchObject({ matched: true, method: "domain", program: "Amazon.de" })
    })
  })

  describe("the partner's link", () => {
    it("is attributed to the caller, listed with its key, redirects to the real domain, and is reused", async () => {
      const url = "https://nikee.com/t/attribution-check"
      const first = await matchLink(url)
      expect(first.body).toMatchObject({ matched: true, created: true })
      const again = await matchLink(url)
      expect(again.body).toMatchObject({ created: false, tracking_id: first.body.tracking_id })

      const mine = await getJson(`${service.url}/api/v1/links?limit=100`, auth(key))
      const listed = mine.body.data.find((link: any) => link.tracking_id === first.body.tracking_id)
      expect(listed).toMatchObject({
        original_url: url,
        destination_url: "https://nike.com/t/attribution-check",
        program_id: first.body.program_id,
        network_id: first.body.network,
        source: "match"
      })
      const theirs = await getJson(`${service.url}/api/v1/links?limit=100`, auth(otherKey))
      expect(theirs.body.data.some((link: any) => link.tracking_id === first.body.tracking_id)).toBe(false)

      const other = await matchLink(url, otherKey)
      expect(other.body.tracking_id).not.toBe(first.body.tracking_id)

      const click = await fetch(`${service.url}${first.body.tracking_url}`, {
        redirect: "manual",
        headers: { "user-agent": CHROME }
      })
      expect(click.status).toBe(302)
      const location = click.headers.get("location")!
      expect(location).toBe(first.body.affiliate_url)
      expect(decodeURIComponent(location)).toContain("https://nike.com/t/attribution-check")
      expect(location).not.toContain("nikee")
    })
  })

  describe("auth and validation", () => {
    it("answers 401 without a key, with a malformed key and with an unknown key", async () => {
      const none = await postJson(`${service.url}/api/v1/ai/match-link`, { url: "https://nikee.com/" })
      expect(none.status).toBe(401)
      expect(none.body.error.code).toBe("unauthorized")
      const malformed = await postJson(
        `${service.url}/api/v1/ai/match-link`,
        { url: "https://nikee.com/" },
        auth("nope")
      )
      expect(malformed.status).toBe(401)
      const unknown = await postJson(
        `${service.url}/api/v1/ai/match-link`,
        { url: "https://nikee.com/" },
        auth(`ak_${"A".repeat(43)}`)
      )
      expect(unknown.status).toBe(401)
      expect(unknown.body.error.message).toContain("unknown")
    })

    it.each([
      ["missing", {}],
      ["not a string", { url: 42 }],
      ["empty", { url: "" }],
      ["relative", { url: "/dp/B0X" }],
      ["ftp", { url: "ftp://nikee.com/file" }],
      ["javascript", { url: "javascript:alert(1)" }],
      ["too long", { url: `https://nikee.com/${"a".repeat(2100)}` }],
      ["with spaces", { url: "https://nikee.com/a b" }]
    ])("answers 400 naming url when it is %s", async (_, body) => {
      const res = await postJson(`${service.url}/api/v1/ai/match-link`, body, auth(key))
      expect(res.status).toBe(400)
      expect(res.body.error.code).toEqual(expect.any(String))
      expect(JSON.stringify(res.body.error)).toContain("url")
    })

    it("answers 400 for a body that is not JSON", async () => {
      const res = await postJson(`${service.url}/api/v1/ai/match-link`, "{not json", auth(key))
      expect(res.status).toBe(400)
    })
  })
})

describe("POST /api/v1/ai/match-link with Meilisearch down", () => {
  let service: RunningService
  let key: string

  beforeAll(async () => {
    // Nothing listens on this port: every search request is refused.
    service = await startService({ meiliUrl: Option.some(`http://127.0.0.1:${await freeLoopbackPort()}`) })
    await loadSampleCatalog(service, false)
    key = await register(service, "Offline Deals")
  })
  afterAll(() => service.close())

  it.each([
    ["https://nikee.com/t/x", "https://nike.com/t/x"],
    ["https://www.amazn.co.uk/dp/B0TEST", "https://amazon.co.uk/dp/B0TEST"],
    ["https://some-market.example/listing/dyson-v15-detect-vacuum", "https://dyson.com/"]
  ])("still matches %s from the in-memory catalog, and says so", async (url, destination) => {
    const res = await postJson(`${service.url}/api/v1/ai/match-link`, { url }, { authorization: `Bearer ${key}` })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      matched: true,
      method: "fuzzy",
      candidate_source: "in_memory",
      destination_url: destination
    })
  })

  it("still refuses to guess", async () => {
    const res = await postJson(
      `${service.url}/api/v1/ai/match-link`,
      { url: "https://nice.com/" },
      { authorization: `Bearer ${key}` }
    )
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ matched: false, candidate_source: "in_memory" })
  })
})
