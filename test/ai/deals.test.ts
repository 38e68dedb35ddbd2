import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { ClickRecorder } from "../../clicks/ClickRecorder.ts"
import { clickWeight } from "../../domain/deals/trending.ts"
import { parseFeedTrackingId } from "../../domain/links/feedTrackingId.ts"
import { Database } from "../../infra/Database.ts"
import { insertCatalog } from "../support/catalogFixture.ts"
import { insertProducts, productId } from "../support/catalogFixtures.ts"
import { PRODUCTS, titles } from "./dealsFixture.ts"
import { getJson, postJson } from "../support/http.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// GET /api/v1/ai/deals over real HTTP, from a constructed price and click
// history: prices through the catalog fixtures ([days ago, price] rows in
// price_history), clicks and conversions as rows with controlled timestamps,
// and one list fed by real /t/ clicks.

const HOUR = 3_600_000
const DAY = 24 * HOUR
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

const id = (itemId: string) => productId({ itemId, title: "", price: 0 })

/** Click ages (hours) per product: `human` count, `bot` clicks excluded. */
const CLICKS: Record<string, { human: ReadonlyArray<number>; bot?: ReadonlyArray<number> }> = {
  "tr-rising": { human: [1, 2, 3, 30], bot: [1, 1, 1, 1, 1] },
  "tr-new": { human: [5, 5, 144] },
  "tr-falling": { human: [2, 30, 31, 32] },
  "tr-stale": { human: [240, 241] },
  "tr-oos": { human: [1, 1, 1, 1, 1] }
}

const CJ_PROGRAM = "cj:2002"

const seedClicks = (now: number) =>
  Effect.gen(function* () {
    const db = yield* Database
    const link = (linkId: string, productRef: string | null, programId: string | null) =>
      db.run(
        `INSERT INTO tracking_links VALUES ($1, NULL, 'seed', $2, $2, $2, $2, $3, NULL, $4, 'feed', now(), NULL, NULL)`,
        [linkId, `https://seed.example/${linkId}`, programId, productRef]
      )
    const clicks = (linkId: string, agesHours: ReadonlyArray<number>, bot: boolean) =>
      Effect.forEach(
        agesHours,
        (age, n) =>
          db.run(`INSERT INTO clicks VALUES ($1::TIMESTAMPTZ, $2, NULL, 'seed', $3, 'ua', NULL, $4, $5, true)`, [
            new Date(now - age * HOUR).toISOString(),
            linkId,
            `ip${n}`,
            bot,
            bot ? "isbot" : null
          ]),
        { discard: true }
      )
    for (const [itemId, spec] of Object.entries(CLICKS)) {
      yield* link(`seed-${itemId}`, id(itemId), null)
      yield* clicks(`seed-${itemId}`, spec.human, false)
      yield* clicks(`seed-${itemId}`, spec.bot ?? [], true)
    }
    // The CJ programme's own record: 200 human clicks (and bots, which do not count), 6 counted sales, 2 declined.
    yield* link("seed-cj", null, CJ_PROGRAM)
    yield* clicks(
      "seed-cj",
      Array.from({ length: 200 }, (_, n) => 72 + n / 10),
      false
    )
    yield* clicks(
      "seed-cj",
      Array.from({ length: 50 }, () => 72),
      true
    )
    const statuses = ["approved", "approved", "approved", "pending", "pending", "pending", "declined", "reversed"]
    for (const [n, status] of statuses.entries()) {
      yield* db.run(
        `INSERT INTO conversions VALUES ($1, 'cj', $2, 'seed-cj', 'seed-cj', NULL, 'seed', 'USD', 100, 8, 'USD', 8, 100, 1,
           NULL, 0, 8, $3, $4::TIMESTAMPTZ, NULL, 'test', now(), now(), NULL, NULL)`,
        [`cj:tx${n}`, `tx${n}`, status, new Date(now - 5 * DAY).toISOString()]
      )
    }
  })

describe("GET /api/v1/ai/deals", () => {
  let service: RunningService
  let key: string
  let tag: string

  beforeAll(async () => {
    // Every request computes its lists afresh here (the service caches them for 30 s by default).
    // TRUST_PROXY: the /t/ clicks below come from distinct visitors through X-Forwarded-For.
    service = await startService({ aiDealsCacheSeconds: 0, trustProxy: 1 })
    await service.run(
      Effect.gen(function* () {
        yield* insertCatalog()
        yield* (yield* ProgramMatcher).reload
        yield* insertProducts(PRODUCTS)
        yield* seedClicks(Date.now())
      })
    )
    const registration = await postJson(`${service.url}/api/v1/partners/register`, {
      name: "Deal Hunter",
      email: "d@x.example"
    })
    key = registration.body.api_key
    tag = registration.body.partner.tag
  }, 120_000)
  afterAll(() => service.close())

  /** A human click on `url` from the visitor at `ip` (TRUST_PROXY is on). */
  const clickAs = (url: string, ip: string) =>
    fetch(url, { redirect: "manual", headers: { "user-agent": CHROME, "x-forwarded-for": ip } })

  /** `auth` null: no Authorization header. */
  const get = (query = "", auth: string | null = key) =>
    getJson(`${service.url}/api/v1/ai/deals${query}`, auth === null ? {} : { authorization: `Bearer ${auth}` })

  it("trending: human clicks only, time-decayed, gaining products only, in score order", async () => {
    const { status, body } = await get()
    expect(status, JSON.stringify(body)).toBe(200)
    expect(titles(body.trending)).toEqual(["Smart Watch", "Phone Case"])
    const expectedScore = (ages: ReadonlyArray<number>) => ages.reduce((sum, age) => sum + clickWeight(age * HOUR), 0)
    const [rising, fresh] = body.trending
    // Ages were seeded a moment before the request: the score is a hair lower than at seeding time.
    expect(rising.ranking.score).toBeCloseTo(expectedScore([1, 2, 3, 30]), 2)
    expect(rising.ranking).toMatchObject({
      half_life_hours: 24,
      clicks_24h: 3,
      clicks_prev_24h: 1,
      clicks_window: 4,
      growth: 2
    })
    expect(fresh.ranking.score).toBeCloseTo(expectedScore([5, 5, 144]), 2)
    expect(fresh.ranking).toMatchObject({ clicks_24h: 2, clicks_prev_24h: 0, clicks_window: 3, growth: null })
  })

  it("price_drops: against the previous 30-day low and 90-day median; new, raised-then-cut, small and old drops excluded", async () => {
    const { body } = await get()
    expect(titles(body.price_drops)).toEqual(["Trail Running Shoes", "Yoga Mat", "Brass Desk Lamp"])
    const [shoes, mat, lamp] = body.price_drops
    // Shoes: 200 (100-60 days ago), 180 (60-25), 160 (25-2), now 120. The 90 days before the current price hold
    // 32 days at 200, 35 at 180, 23 at 160: the time-weighted median is 180.
    expect(shoes.ranking).toMatchObject({
      current: 120,
      low_30d: 160,
      median_90d: 180,
      drop_vs_median_percent: 33.3,
      discount_percent: 25,
      below_30d_low: true,
      reference_kind: "full",
      observations_30d: 2,
      observations_90d: 3,
      history_days: 98
    })
    expect(mat.ranking).toMatchObject({
      current: 38,
      low_30d: 50,
      median_90d: 50,
      drop_vs_median_percent: 24,
      discount_percent: 24,
      reference_kind: "partial",
      observations_30d: 1,
      observations_90d: 1,
      history_days: 9
    })
    expect(lamp.ranking).toMatchObject({
      current: 85,
      low_30d: 100,
      median_90d: 100,
      drop_vs_median_percent: 15,
      discount_percent: 15,
      reference_kind: "full",
      observations_30d: 1,
      observations_90d: 1,
      history_days: 49
    })
    // The Deal shape agrees with the ranking: the discovery feed's verified saving.
    expect(shoes.price).toMatchObject({ amount: 120, originalPrice: 160, discountPercent: 25 })
    expect(Date.parse(shoes.ranking.price_since)).toBeLessThan(Date.parse(body.generated_at) - 2 * DAY + HOUR)
  })

  it("high_commission: price x commission x conversion, observed conversion when the programme has the clicks", async () => {
    const { body } = await get()
    expect(titles(body.high_commission)).toEqual([
      "Road Bike",
      "Wool Coat",
      "Travel Insurance",
      "Trail Running Shoes",
      "Desk Chair",
      "Brass Desk Lamp",
      "Reading Lamp"
    ])
    const byTitle = Object.fromEntries(body.high_commission.map((deal: any) => [deal.title, deal.ranking]))
    // CJ: 6 counted conversions (declined/reversed do not count) / 200 human clicks = 3%.
    expect(byTitle["Road Bike"]).toEqual({
      program: {
        id: CJ_PROGRAM,
        number: expect.any(Number),
        name: "Example Store (CJ)",
        network_id: "cj",
        network: "CJ"
      },
      commission_type: "CPS",
      commission_rate: 8,
      price: 500,
      conversion_rate: 0.03,
      conversion_source: "observed",
      observed_clicks: 200,
      observed_conversions: 6,
      earnings_per_click: 1.2,
      partner_share: 0.7,
      partner_earnings_per_click: 0.84,
      currency: "USD"
    })
    expect(byTitle["Wool Coat"]).toMatchObject({
      program: { id: "partnerize:5002" },
      conversion_rate: 0.02,
      conversion_source: "default",
      observed_clicks: 0,
      earnings_per_click: 0.7,
      partner_earnings_per_click: 0.49
    })
    // CPA: the fixed commission times the conversion estimate, whatever the price.
    expect(byTitle["Travel Insurance"]).toMatchObject({
      program: { id: "cj:10002" },
      commission_type: "CPA",
      commission_rate: 30,
      earnings_per_click: 0.6,
      partner_earnings_per_click: 0.42
    })
    expect(byTitle["Trail Running Shoes"]).toMatchObject({
      earnings_per_click: 0.288,
      partner_earnings_per_click: 0.2016
    })
    expect(byTitle["Desk Chair"]).toMatchObject({ earnings_per_click: 0.228 })
    expect(byTitle["Brass Desk Lamp"]).toMatchObject({ program: { id: "awin:4101" }, earnings_per_click: 0.068 })
    expect(titles(body.high_commission)).not.toContain("Sold Out Bike")
    // One offer per product: the other store's Road Bike (0.96 per click) is not a second entry.
    expect(body.high_commission.filter((deal: any) => deal.title === "Road Bike")).toHaveLength(1)
  })

  it("deals carry the discovery Deal shape with tracked links tagged for the calling partner", async () => {
    const { body } = await get()
    expect(body.filters).toEqual({ category: null, min_discount: 0, limit: 10 })
    expect(body.disclosure).toMatch(/commission/i)
    expect(Object.keys(body.method).sort()).toEqual(["high_commission", "price_drops", "trending"])
    for (const deal of [...body.trending, ...body.price_drops, ...body.high_commission]) {
      expect(deal.links.landing).toBe(`${service.url}/deals/${deal.id}`)
      const tracked = parseFeedTrackingId(deal.links.tracked.slice(`${service.url}/t/`.length))
      expect(tracked?.tag).toBe(tag)
      expect(deal.disclosure).toMatch(/commission/i)
      expect(deal.buyingChecks.length).toBeGreaterThan(2)
      expect(deal.couponCode).toBeNull()
    }
  })

  it("min_discount filters every list by the trusted discount", async () => {
    const twenty = (await get("?min_discount=20")).body
    expect(titles(twenty.price_drops)).toEqual(["Trail Running Shoes", "Yoga Mat"])
    // Desk Chair was once 200 but has cost 100 for 60 days: 95 is 5% off, not 20%.
    expect(titles(twenty.high_commission)).toEqual(["Trail Running Shoes"])
    expect(titles(twenty.trending)).toEqual([])
    const exact = (await get("?min_discount=24.5")).body
    expect(titles(exact.price_drops)).toEqual(["Trail Running Shoes"])
    expect(exact.filters.min_discount).toBe(24.5)
    const all = (await get("?min_discount=100")).body
    expect([...all.trending, ...all.price_drops, ...all.high_commission]).toEqual([])
  })

  it("category filters every list, case-insensitively, by category or product-type level; limit caps each list", async () => {
    const sports = (await get("?category=SPORTS")).body
    expect(titles(sports.price_drops)).toEqual(["Trail Running Shoes", "Yoga Mat"])
    expect(titles(sports.high_commission)).toEqual(["Road Bike", "Trail Running Shoes"])
    expect(titles(sports.trending)).toEqual([])
    const running = (await get("?category=running")).body
    expect(titles(running.price_drops)).toEqual(["Trail Running Shoes"])
    const electronics = (await get("?category=Electronics")).body
    expect(titles(electronics.trending)).toEqual(["Smart Watch", "Phone Case"])
    expect(electronics.price_drops).toEqual([])
    const none = (await get("?category=Nothing%20Here")).body
    expect([...none.trending, ...none.price_drops, ...none.high_commission]).toEqual([])
    const one = (await get("?limit=1")).body
    expect([titles(one.trending), titles(one.price_drops), titles(one.high_commission)]).toEqual([
      ["Smart Watch"],
      ["Trail Running Shoes"],
      ["Road Bike"]
    ])
  })

  it("real /t/ clicks on a feed link make a product trend", async () => {
    const { body } = await get("?category=home")
    const lamp = body.high_commission.find((deal: any) => deal.title === "Reading Lamp")
    expect(lamp).toBeDefined()
    for (let n = 0; n < 3; n++) expect((await clickAs(lamp.links.tracked, `198.51.100.${n + 1}`)).status).toBe(302)
    await service.run(Effect.flatMap(ClickRecorder, (recorder) => recorder.flush))
    const after = (await get("?category=home")).body
    expect(titles(after.trending)).toEqual(["Reading Lamp"])
    expect(after.trending[0].ranking).toMatchObject({
      clicks_24h: 3,
      clicks_prev_24h: 0,
      clicks_window: 3,
      growth: null
    })
    expect(after.trending[0].ranking.score).toBeGreaterThan(2.99)
  })

  it("trending counts visitors, not requests: 40 clicks from one IP count once", async () => {
    const coat = (await get("?category=fashion")).body.high_commission.find((deal: any) => deal.title === "Wool Coat")
    const bike = (await get("?category=sports")).body.high_commission.find((deal: any) => deal.title === "Road Bike")
    for (let n = 0; n < 40; n++) expect((await clickAs(coat.links.tracked, "203.0.113.7")).status).toBe(302)
    for (let n = 0; n < 3; n++) expect((await clickAs(bike.links.tracked, `203.0.113.${20 + n}`)).status).toBe(302)
    await service.run(Effect.flatMap(ClickRecorder, (recorder) => recorder.flush))
    const trending = (await get()).body.trending as Array<any>
    const rank = (title: string) => trending.findIndex((deal) => deal.title === title)
    expect(rank("Road Bike")).toBeGreaterThanOrEqual(0)
    expect(rank("Road Bike")).toBeLessThan(rank("Wool Coat"))
    expect(trending[rank("Wool Coat")].ranking).toMatchObject({ clicks_24h: 1, clicks_window: 1 })
    expect(trending[rank("Road Bike")].ranking).toMatchObject({ clicks_24h: 3, clicks_window: 3 })
  })

  it("400 names the offending parameter; unknown parameters are ignored as on /api/deals", async () => {
    for (const [query, field] of [
      ["?min_discount=abc", "min_discount"],
      ["?min_discount=101", "min_discount"],
      ["?min_discount=-1", "min_discount"],
      ["?min_discount=NaN", "min_discount"],
      ["?limit=0", "limit"],
      ["?limit=51", "limit"],
      ["?limit=2.5", "limit"],
      [`?category=${"x".repeat(101)}`, "category"]
    ]) {
      const { status, body } = await get(query)
      expect(status, query).toBe(400)
      expect(body.error.code).toBe("invalid_parameter")
      expect(body.error.message).toContain(field)
    }
    expect((await get("?colour=red&min_discount=0")).status).toBe(200)
  })

  it("401 without a key or with an unknown one", async () => {
    const missing = await get("", null)
    expect(missing.status, JSON.stringify(missing.body)).toBe(401)
    const unknown = await get("", `ak_${"0".repeat(40)}`)
    expect(unknown.status).toBe(401)
    expect(unknown.body.error.code).toBe("unauthorized")
  })
})
