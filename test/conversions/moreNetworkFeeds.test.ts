import { Effect } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { movableCalendar } from "../../scripts/lib/referenceClock.ts"
import { buildDeepLink } from "../../domain/links/deepLink.ts"
import { TrackingLinks } from "../../links/TrackingLinks.ts"
import { getJson, postJson } from "../support/http.ts"
import { ebayStub, type Fixture, partnerizeStub, rakutenStub, skimlinksStub } from "../pipelines/moreNetworkStubs.ts"
import { networkFixture, type Stub } from "../pipelines/networkStubs.ts"
import { type FeedInput, query, runFeed, writeFeeds } from "../pipelines/support.ts"
import { type RunningService, startService, tempDir } from "../support/TestService.ts"

// Rakuten Advertising, Partnerize, Skimlinks and eBay Partner Network: the
// ready-made feeds of config/feeds.json run as shipped (only the network's
// host replaced by a loopback stub written from the network's documentation,
// test/pipelines/moreNetworkStubs.ts) over documented-shape fixtures
// (test/fixtures/networks/), through the pipeline, loader, ledger and
// GET /api/v1/partners/me. Also: a negative row of the generic format is a
// correction of its transaction.

const READY_MADE = (
  JSON.parse(readFileSync(new URL("../../config/feeds.json", import.meta.url), "utf8")) as { feeds: Array<FeedInput> }
).feeds
const readyMade = (name: string, origin: string, stub: Stub): FeedInput => {
  const feed = READY_MADE.find((candidate) => candidate.name === name)!
  expect(feed.location.startsWith(origin)).toBe(true)
  return {
    ...feed,
    location: stub.url + feed.location.slice(origin.length),
    options: { ...feed.options, timeoutMs: 5000 }
  }
}

const ENV = {
  RAKUTEN_REPORT_TOKEN: "rak-tok-81c2f0aa9e",
  RAKUTEN_NETWORK_ID: "1",
  RAKUTEN_CURRENCY: "USD",
  PARTNERIZE_PUBLISHER_ID: "1101l92",
  PARTNERIZE_APPLICATION_KEY: "pz-app-4d1c9e",
  PARTNERIZE_USER_API_KEY: "pz-user-7b20fa",
  SKIMLINKS_PUBLISHER_ID: "192837",
  SKIMLINKS_ACCESS_TOKEN: "skim-192837:1798000000:5ac1e9",
  EPN_ACCOUNT_SID: "IRepn7Qx2Lk9",
  EPN_AUTH_TOKEN: "epn-auth-Vb83kq",
  EPN_CURRENCY: "USD"
}
const TRACKING_ID = "Kc4tW9mQ2xLe" // the id our links carry, in every fixture record

const fixtures: Record<string, string | Fixture> = {
  rakuten: "rakuten-signature-orders-november.json",
  partnerize: "partnerize-conversions-november.json",
  skimlinks: "skimlinks-commissions-november.json",
  ebay: "ebay-transaction-detail-november.json"
}
const stubs: Record<string, Stub> = {}

/** The service's calendar, moved to the day a fixture describes (sleeps stay real). */
const calendar = movableCalendar()
const serve = (network: string, fixture: string | Fixture) => {
  fixtures[network] = fixture
  calendar.moveTo((typeof fixture === "string" ? networkFixture(fixture) : fixture).asOf!)
  stubs[network].requests.length = 0
}

let env: { service: RunningService; dir: string; close: () => Promise<void> }
let partner: { id: number; tag: string; key: string }
const genericFile = () => join(env.dir, "generic.csv")

const conversion = async (id: string) =>
  (
    await query(
      env.service,
      `SELECT status, currency, order_amount::VARCHAR AS order_amount, commission::VARCHAR AS commission
       FROM conversions WHERE id = $1`,
      [id]
    )
  )[0]
const events = (id: string) =>
  query(
    env.service,
    "SELECT previous_status, status, commission::VARCHAR AS commission FROM conversion_events WHERE conversion_id = $1 ORDER BY seen_at, commission DESC",
    [id]
  )
const corrections = (id: string) =>
  query(
    env.service,
    "SELECT order_amount::VARCHAR AS order_amount, commission::VARCHAR AS commission FROM conversion_corrections WHERE conversion_id = $1",
    [id]
  )

beforeAll(async () => {
  Object.assign(process.env, ENV)
  stubs.rakuten = await rakutenStub(ENV.RAKUTEN_REPORT_TOKEN, ENV.RAKUTEN_NETWORK_ID, () => fixtures.rakuten)
  stubs.partnerize = await partnerizeStub(
    ENV.PARTNERIZE_PUBLISHER_ID,
    ENV.PARTNERIZE_APPLICATION_KEY,
    ENV.PARTNERIZE_USER_API_KEY,
    () => fixtures.partnerize
  )
  stubs.skimlinks = await skimlinksStub(
    ENV.SKIMLINKS_PUBLISHER_ID,
    ENV.SKIMLINKS_ACCESS_TOKEN,
    () => fixtures.skimlinks
  )
  stubs.ebay = await ebayStub(ENV.EPN_ACCOUNT_SID, ENV.EPN_AUTH_TOKEN, 1, () => fixtures.ebay)
  const files = tempDir("more-network-feeds-")
  const feeds = [
    readyMade("rakuten-signature-orders-api", "https://ran-reporting.rakutenmarketing.com", stubs.rakuten),
    readyMade("partnerize-conversions-api", "https://api.partnerize.com", stubs.partnerize),
    readyMade("skimlinks-commissions-api", "https://reporting.skimapis.com", stubs.skimlinks),
    readyMade("ebay-transaction-detail-api", "https://api.partner.ebay.com", stubs.ebay),
    {
      name: "generic-file",
      kind: "conversions",
      format: "conversions-generic",
      location: join(files.dir, "generic.csv"),
      options: { network: "other", rejectThreshold: 1 }
    }
  ]
  calendar.moveTo("2026-11-20T00:00:00Z")
  const service = await startService(
    { feedsConfigPath: writeFeeds(files.dir, feeds), ingestOnStart: false },
    { clock: calendar.clock }
  )
  env = { service, dir: files.dir, close: async () => (await service.close(), files.rm()) }
  const registered = await postJson(`${env.service.url}/api/v1/partners/register`, {
    name: "More Network Deals",
    email: "more-network-deals@example.com"
  })
  partner = { id: registered.body.partner.id, tag: registered.body.partner.tag, key: registered.body.api_key }
  await env.service.run(
    Effect.gen(function* () {
      const url = "https://shop.example.com/us"
      return yield* (yield* TrackingLinks).getOrCreate({
        id: TRACKING_ID,
        partnerId: partner.id,
        tag: partner.tag,
        originalUrl: url,
        normalizedUrl: url,
        destinationUrl: url,
        programId: null,
        networkId: null,
        productId: null,
        source: "match",
        affiliateUrlFor: () => url
      })
    })
  )
})

afterAll(async () => {
  await env?.close()
  await Promise.all(Object.values(stubs).map((stub) => stub.close()))
  for (const name of Object.keys(ENV)) delete process.env[name]
})

describe("our links carry the tracking id where each network reports it back", () => {
  const networks = readFileSync(new URL("../../data/samples/networks.jsonl", import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map(
      (line) =>
        JSON.parse(line) as {
          id: string
          deep_link_template: string
          subid_param: string
          account_params: Record<string, string>
        }
    )
  const cases: Array<[string, string, (link: URL) => string | null | undefined]> = [
    ["rakuten", "u1", (link) => link.searchParams.get("u1")],
    ["partnerize", "pubref", (link) => /\/pubref:([^/]+)\//.exec(link.pathname)?.[1]],
    ["skimlinks", "xcust", (link) => link.searchParams.get("xcust")],
    ["ebay-partner-network", "customid", (link) => link.searchParams.get("customid")]
  ]
  it.each(cases)("%s: subid_param %s, filled by the deep-link template", (id, param, read) => {
    const network = networks.find((candidate) => candidate.id === id)!
    expect(network.subid_param).toBe(param)
    const link = buildDeepLink(network.deep_link_template, {
      url: "https://www.example-store.com/p/1?colour=green",
      sub: TRACKING_ID,
      params: { mid: "38605", camref: "1101l29", rotationId: "711-53200-19255-0", ...network.account_params }
    })
    expect(link).toBeDefined()
    expect(read(new URL(link!))).toBe(TRACKING_ID)
  })
})

/** Our link on the reporting network's programme: a network credits only its own links. */
const linkOn = (network: string) =>
  query(env.service, "UPDATE tracking_links SET network_id = $1 WHERE id = $2", [network, TRACKING_ID])

describe("Rakuten Advertising Signature Orders Report by token URL", () => {
  beforeAll(() => linkOn("rakuten"))
  it("reads the window by process date as CSV; an order's SKU rows are one conversion", async () => {
    serve("rakuten", "rakuten-signature-orders-november.json")
    const run = await runFeed(env.service, "rakuten-signature-orders-api")
    // two SKU rows, one order
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 2, rowsLoaded: 1, rowsRejected: 0 })
    const [request] = stubs.rakuten.requests
    expect(request.query.get("date_type")).toBe("process")
    expect(request.query.get("tz")).toBe("GMT")
    expect([request.query.get("start_date"), request.query.get("end_date")]).toEqual(["2026-10-21", "2026-11-20"])
    // The success is dated on the service's calendar, as the next run's window is, not on the database's clock.
    expect(
      await query(
        env.service,
        "SELECT strftime(timezone('UTC', last_success_at), '%Y-%m-%d') AS day FROM feed_state WHERE feed = $1",
        ["rakuten-signature-orders-api"]
      )
    ).toEqual([{ day: "2026-11-20" }])
    expect(await conversion("rakuten:RK-771-0001")).toEqual({
      status: "pending",
      currency: "USD",
      order_amount: "100.0000",
      commission: "5.0000"
    })
  })

  it("a returned SKU (its own negative row, processed later) is a correction of the order", async () => {
    serve("rakuten", "rakuten-signature-orders-december.json")
    const run = await runFeed(env.service, "rakuten-signature-orders-api")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 1, rowsLoaded: 1, rowsRejected: 0 })
    expect(await conversion("rakuten:RK-771-0001")).toMatchObject({ order_amount: "40.0000", commission: "2.0000" })
    expect(await corrections("rakuten:RK-771-0001")).toEqual([{ order_amount: "-60.0000", commission: "-3.0000" }])
    expect(await events("rakuten:RK-771-0001")).toEqual([
      { previous_status: null, status: "pending", commission: "5.0000" },
      { previous_status: "pending", status: "pending", commission: "2.0000" }
    ])
  })
})

describe("Partnerize partner conversions report", () => {
  beforeAll(() => linkOn("partnerize"))
  it("reads by last modification with Basic application key : user API key, 300 a page", async () => {
    serve("partnerize", "partnerize-conversions-november.json")
    const run = await runFeed(env.service, "partnerize-conversions-api")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 1, rowsLoaded: 1, rowsRejected: 0 })
    expect(
      stubs.partnerize.requests.map(({ query: params }) => [params.get("date_type"), params.get("offset")])
    ).toEqual([["last_modified", "0"]])
    expect(await conversion("partnerize:1101l4410221")).toEqual({
      status: "pending",
      currency: "EUR",
      order_amount: "200.0000",
      commission: "16.0000"
    })
  })

  it("a rejected item lowers the conversion, a rejected conversion is declined", async () => {
    serve("partnerize", "partnerize-conversions-december.json")
    const run = await runFeed(env.service, "partnerize-conversions-api")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 2, rowsLoaded: 2, rowsRejected: 0 })
    expect(await conversion("partnerize:1101l4410221")).toMatchObject({
      order_amount: "120.0000",
      commission: "9.6000"
    })
    expect(await conversion("partnerize:1101l4410987")).toMatchObject({ status: "declined", commission: "4.4000" })
    expect(await events("partnerize:1101l4410221")).toEqual([
      { previous_status: null, status: "pending", commission: "16.0000" },
      { previous_status: "pending", status: "pending", commission: "9.6000" }
    ])
  })
})

describe("Skimlinks commission report", () => {
  beforeAll(() => linkOn("skimlinks"))
  it("reads commissions updated since the window's start, with the access token, 5,000 a page", async () => {
    serve("skimlinks", "skimlinks-commissions-november.json")
    const run = await runFeed(env.service, "skimlinks-commissions-api")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 1, rowsLoaded: 1, rowsRejected: 0 })
    const [request] = stubs.skimlinks.requests
    expect([request.query.get("updated_since"), request.query.get("limit"), request.query.get("offset")]).toEqual([
      "2026-10-21T00:00:00",
      "5000",
      "0"
    ])
    expect(await conversion("skimlinks:90412233")).toEqual({
      status: "pending",
      currency: "GBP",
      order_amount: "150.0000",
      commission: "7.5000"
    })
  })

  it("a cancelled commission is reversed, a paid one approved", async () => {
    serve("skimlinks", "skimlinks-commissions-december.json")
    const run = await runFeed(env.service, "skimlinks-commissions-api")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 2, rowsLoaded: 2, rowsRejected: 0 })
    expect(await conversion("skimlinks:90412233")).toMatchObject({ status: "reversed" })
    expect(await conversion("skimlinks:90415871")).toMatchObject({ status: "approved", commission: "4.2000" })
  })
})

describe("eBay Partner Network Transaction Detail Report", () => {
  beforeAll(() => linkOn("ebay-partner-network"))
  it("reads by update date, paged by @nextpageuri, in the account's currency", async () => {
    serve("ebay", "ebay-transaction-detail-november.json")
    const run = await runFeed(env.service, "ebay-transaction-detail-api")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 2, rowsLoaded: 2, rowsRejected: 0 })
    // one record a page (the stub's page size): two pages
    expect(stubs.ebay.requests.map(({ query: params }) => [params.get("date_type"), params.get("Page")])).toEqual([
      ["update_date", null],
      ["update_date", "2"]
    ])
    expect(await conversion("ebay-partner-network:5338001234567")).toEqual({
      status: "pending",
      currency: "USD",
      order_amount: "80.0000",
      commission: "3.2000"
    })
  })

  it("a partial return comes back as the transaction's new amounts, a reversal as Status Reversed", async () => {
    serve("ebay", "ebay-transaction-detail-december.json")
    const run = await runFeed(env.service, "ebay-transaction-detail-api")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 2, rowsLoaded: 2, rowsRejected: 0 })
    expect(await conversion("ebay-partner-network:5338001234567")).toMatchObject({
      status: "pending",
      order_amount: "40.0000",
      commission: "1.6000"
    })
    expect(await conversion("ebay-partner-network:5338001239999")).toMatchObject({ status: "reversed" })
    expect(await events("ebay-partner-network:5338001234567")).toEqual([
      { previous_status: null, status: "pending", commission: "3.2000" },
      { previous_status: "pending", status: "pending", commission: "1.6000" }
    ])
  })
})

describe("errors and rate limits, as the networks document them", () => {
  it("Skimlinks: a 429 (no reset header documented) is retried with backoff; the feed keeps to 300 requests an hour", async () => {
    const feed = READY_MADE.find((candidate) => candidate.name === "skimlinks-commissions-api")!
    expect(feed.options!.budget).toEqual({ requestsPerHour: 300 })
    stubs.skimlinks.requests.length = 0
    stubs.skimlinks.faults.push({ status: 429, body: JSON.stringify({ error: "Too Many Requests" }), times: 1 })
    const run = await runFeed(env.service, "skimlinks-commissions-api")
    expect(run.status, run.error ?? "").toBe("skipped") // the same commissions as the last run, after the retry
    expect(stubs.skimlinks.requests).toHaveLength(2)
  })

  it("eBay Partner Network: refused credentials fail the run at once, naming the variables", async () => {
    stubs.ebay.requests.length = 0
    process.env.EPN_AUTH_TOKEN = "epn-auth-revoked"
    try {
      const run = await runFeed(env.service, "ebay-transaction-detail-api")
      expect(run.status).toBe("failed")
      expect(run.error).toMatch(/HTTP 401 .*: the API refused the credentials in EPN_ACCOUNT_SID, EPN_AUTH_TOKEN/)
      expect(run.error).not.toContain("epn-auth-revoked")
      expect(stubs.ebay.requests).toHaveLength(1)
    } finally {
      process.env.EPN_AUTH_TOKEN = ENV.EPN_AUTH_TOKEN
    }
  })
})

describe("partners/me after the four networks' corrections", () => {
  it("counts what each network now reports, at its corrected amounts", async () => {
    const response = await getJson(`${env.service.url}/api/v1/partners/me`, { authorization: `Bearer ${partner.key}` })
    expect(response.status).toBe(200)
    const shares = await query<{ status: string; n: number; share: string }>(
      env.service,
      `SELECT status, count(*)::INTEGER AS n, sum(partner_share)::VARCHAR AS share FROM conversions
       WHERE network_id IN ('rakuten', 'partnerize', 'skimlinks', 'ebay-partner-network') GROUP BY status ORDER BY status`
    )
    expect(shares.map(({ status, n }) => [status, n])).toEqual([
      ["approved", 1],
      ["declined", 1],
      ["pending", 3],
      ["reversed", 2]
    ])
    // Rakuten 2.00 USD, Partnerize 9.60 EUR and eBay 1.60 USD pending; Skimlinks 4.20 GBP approved; 70% to the partner
    expect(response.body.totals.conversions).toMatchObject({ pending: 3, approved: 1 })
    expect(response.body.totals.revenue.pending).toBe(
      Number(shares.find((row) => row.status === "pending")!.share).toFixed(4)
    )
    expect(response.body.totals.revenue.approved).toBe("3.7200") // 4.20 GBP at 1.2675: 5.32 USD to the cent, 70% of it
  })
})

describe("generic format: a negative row", () => {
  beforeAll(() => linkOn("other"))
  const header = "transaction_id,click_ref,order_amount,commission,currency,status,event_time,updated_time\n"

  it("is a correction of the same transaction_id: it moves the sale, once, with its history", async () => {
    writeFileSync(genericFile(), `${header}GX-1,${TRACKING_ID},100.00,10.00,USD,pending,2026-11-01T10:00:00Z,\n`)
    expect(await runFeed(env.service, "generic-file")).toMatchObject({ status: "succeeded", rowsLoaded: 1 })
    const refund = `GX-1,${TRACKING_ID},-30.00,-3.00,USD,pending,2026-11-01T10:00:00Z,2026-11-12T09:00:00Z\n`
    writeFileSync(
      genericFile(),
      `${header}GX-1,${TRACKING_ID},100.00,10.00,USD,pending,2026-11-01T10:00:00Z,\n${refund}`
    )
    const run = await runFeed(env.service, "generic-file")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 2, rowsLoaded: 2, rowsRejected: 0 })
    expect(await conversion("other:GX-1")).toMatchObject({
      status: "pending",
      order_amount: "70.0000",
      commission: "7.0000"
    })
    expect(await corrections("other:GX-1")).toEqual([{ order_amount: "-30.0000", commission: "-3.0000" }])
    expect(await events("other:GX-1")).toEqual([
      { previous_status: null, status: "pending", commission: "10.0000" },
      { previous_status: "pending", status: "pending", commission: "7.0000" }
    ])
    // the refund alone, in a later file: the same correction, not a second one
    writeFileSync(genericFile(), `${header}${refund}`)
    expect(await runFeed(env.service, "generic-file")).toMatchObject({ status: "succeeded", rowsLoaded: 1 })
    expect(await conversion("other:GX-1")).toMatchObject({ commission: "7.0000" })
    expect(await corrections("other:GX-1")).toHaveLength(1)
  })

  it("a refund of the whole commission reverses the sale; a row with mixed signs is rejected", async () => {
    writeFileSync(
      genericFile(),
      `${header}GX-2,,50.00,5.00,USD,approved,2026-11-02T10:00:00Z,\nGX-2,,-50.00,-5.00,USD,approved,2026-11-02T10:00:00Z,2026-11-14T10:00:00Z\nGX-3,,-10.00,2.00,USD,pending,2026-11-02T10:00:00Z,\n`
    )
    const run = await runFeed(env.service, "generic-file")
    expect(run).toMatchObject({ status: "succeeded", rowsLoaded: 2, rowsRejected: 1 })
    expect(await conversion("other:GX-2")).toMatchObject({ status: "reversed", commission: "0.0000" })
    const [rejection] = await query<{ reason: string }>(
      env.service,
      "SELECT reason FROM rejected_rows WHERE feed = 'generic-file' ORDER BY line DESC LIMIT 1"
    )
    expect(rejection.reason).toMatch(/^commission: must not be positive on a correction/)
  })
})

describe("Partnerize: more conversions than a page", () => {
  beforeAll(() => linkOn("partnerize"))
  it("reads the next page by offset while a page is full (300), and stops at the first short one", async () => {
    // 301 conversions of the documented shape, unattributed (no pubref), modified in the window
    const template = (networkFixture("partnerize-conversions-november.json").records[0] as any).conversion_data
    const records = Array.from({ length: 301 }, (_, index) => ({
      conversion_data: {
        ...template,
        conversion_id: `1101l77${String(index).padStart(4, "0")}`,
        publisher_reference: "",
        click: { ...template.click, publisher_reference: "" }
      }
    }))
    serve("partnerize", { asOf: "2026-11-20T00:00:00Z", records })
    const run = await runFeed(env.service, "partnerize-conversions-api")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 301, rowsLoaded: 301, rowsRejected: 0 })
    expect(stubs.partnerize.requests.map(({ query: params }) => params.get("offset"))).toEqual(["0", "300"])
  })
})
