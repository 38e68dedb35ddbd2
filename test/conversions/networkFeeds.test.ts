import { Effect } from "effect"
import { parse, validate, buildSchema } from "graphql"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { movableCalendar } from "../../scripts/lib/referenceClock.ts"
import { fillBody } from "../../pipelines/FeedRequest.ts"
import { TrackingLinks } from "../../links/TrackingLinks.ts"
import { getJson, postJson } from "../support/http.ts"
import {
  awinStub,
  cjStub,
  type ImpactRateLimit,
  impactStub,
  networkFixture,
  type Stub
} from "../pipelines/networkStubs.ts"
import { type FeedInput, query, runFeed, writeFeeds } from "../pipelines/support.ts"
import { type RunningService, startService, tempDir } from "../support/TestService.ts"

// The ready-made network feeds of config/feeds.json, run as shipped (only the
// network's host replaced by a loopback stub) against stubs written from the
// networks' documentation and fixtures in the documented shape
// (test/fixtures/networks/): the real pipeline, loader, ledger and
// GET /api/v1/partners/me.

const READY_MADE = (
  JSON.parse(readFileSync(new URL("../../config/feeds.json", import.meta.url), "utf8")) as {
    feeds: Array<FeedInput>
  }
).feeds
const readyMade = (name: string, origin: string, stub: Stub): FeedInput => {
  const feed = READY_MADE.find((candidate) => candidate.name === name)!
  expect(feed.location.startsWith(origin)).toBe(true)
  // short timeouts for the test; everything else as shipped
  return {
    ...feed,
    location: stub.url + feed.location.slice(origin.length),
    options: { ...feed.options, timeoutMs: 5000 }
  }
}

const ENV = {
  CJ_TOKEN: "cj-pat-3f9a0c7d21",
  CJ_PUBLISHER_ID: "7654321",
  CJ_CURRENCY: "EUR",
  AWIN_PUBLISHER_ID: "882134",
  AWIN_TOKEN: "awin-tok-5c1e0b9d77",
  IMPACT_ACCOUNT_SID: "IRsid5kQ2wE8",
  IMPACT_AUTH_TOKEN: "impact-auth-r4Tq8Zm"
}
const TRACKING_ID = "Kc4tW9mQ2xLe" // the sid our links carry, in every fixture record

let cj: Stub, awin: Stub, impact: Stub
let cjFixture = "cj-commissions-november.json"
let awinFixture = "awin-transactions-october.json"
let impactFixture = "impact-actions-november.json"
const impactRateLimit: ImpactRateLimit = { until: 0, header: "X-RateLimit-Reset" }
let env: { service: RunningService; close: () => Promise<void> }

/** The service's calendar, moved to the day a fixture describes (sleeps stay real). */
const calendar = movableCalendar()
const serve = (fixture: string) => {
  if (fixture.startsWith("cj-")) cjFixture = fixture
  if (fixture.startsWith("awin-")) awinFixture = fixture
  if (fixture.startsWith("impact-")) impactFixture = fixture
  calendar.moveTo(networkFixture(fixture).asOf!)
}
let partner: { id: number; tag: string; key: string }

const me = async () => {
  const response = await getJson(`${env.service.url}/api/v1/partners/me`, { authorization: `Bearer ${partner.key}` })
  expect(response.status).toBe(200)
  return response.body.totals as {
    conversions: { pending: number; approved: number; total: number }
    revenue: { pending: string; approved: string }
  }
}
const conversion = async (id: string) =>
  (
    await query(
      env.service,
      `SELECT status, currency, order_amount::VARCHAR AS order_amount, commission::VARCHAR AS commission,
              partner_share::VARCHAR AS partner_share
       FROM conversions WHERE id = $1`,
      [id]
    )
  )[0]

beforeAll(async () => {
  Object.assign(process.env, ENV)
  cj = await cjStub(ENV.CJ_PUBLISHER_ID, ENV.CJ_TOKEN, 1, () => networkFixture(cjFixture))
  const files = tempDir("network-feeds-")
  awin = await awinStub(ENV.AWIN_PUBLISHER_ID, ENV.AWIN_TOKEN, () => networkFixture(awinFixture))
  impact = await impactStub(
    ENV.IMPACT_ACCOUNT_SID,
    ENV.IMPACT_AUTH_TOKEN,
    2000,
    () => networkFixture(impactFixture),
    impactRateLimit
  )
  const impactFeed = readyMade("impact-actions-api", "https://api.impact.com", impact)
  const feeds = [
    readyMade("cj-commissions-api", "https://commissions.api.cj.com", cj),
    readyMade("awin-transactions-api", "https://api.awin.com", awin),
    impactFeed,
    // the same feed on an allowance of 3 requests an hour, and 1 s to wait for it
    {
      ...impactFeed,
      name: "impact-budgeted",
      options: { ...impactFeed.options, budget: { requestsPerHour: 3 }, maxRetryAfterMs: 1000 }
    }
  ]
  serve("cj-commissions-november.json")
  const service = await startService(
    { feedsConfigPath: writeFeeds(files.dir, feeds), ingestOnStart: false },
    { clock: calendar.clock }
  )
  env = { service, close: async () => (await service.close(), files.rm()) }
  const registered = await postJson(`${env.service.url}/api/v1/partners/register`, {
    name: "Network Deals",
    email: "network-deals@example.com"
  })
  partner = { id: registered.body.partner.id, tag: registered.body.partner.tag, key: registered.body.api_key }
  await env.service.run(
    Effect.gen(function* () {
      const url = "https://shop.example.com/eu"
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
  await Promise.all([cj, awin, impact].map((stub) => stub?.close()))
  for (const name of Object.keys(ENV)) delete process.env[name]
})

/** Our link on the reporting network's programme: a network credits only its own links. */
const linkOn = (network: string) =>
  query(env.service, "UPDATE tracking_links SET network_id = $1 WHERE id = $2", [network, TRACKING_ID])

describe("CJ Commission Detail API, as CJ documents it", () => {
  beforeAll(() => linkOn("cj"))
  const schema = buildSchema(
    readFileSync(new URL("../fixtures/networks/cj-commissions.graphql", import.meta.url), "utf8")
  )
  const feed = READY_MADE.find((candidate) => candidate.name === "cj-commissions-api")!
  const passes = feed.options!.passes as Array<Record<string, string>>

  it("the ready-made query validates against CJ's published types, on every pass", () => {
    expect(passes.map((pass) => pass.date)).toEqual(["Posting", "Locking"])
    for (const pass of passes) {
      const body = fillBody(feed.options!.body, { env: {}, pass }) as { query: string }
      expect(validate(schema, parse(body.query)).map((error) => error.message)).toEqual([])
    }
    // what the feed asked before: an ID where CJ takes [String!]!, and a field CJ does not have
    const before =
      "query Commissions($publisher: ID!, $from: String!, $to: String!, $since: String) { publisherCommissions(" +
      "forPublishers: [$publisher], sincePostingDate: $from, beforePostingDate: $to, sinceCommissionId: $since) { count " +
      "payloadComplete maxCommissionId records { commissionId shopperId actionStatus pubCurrency saleAmountPubCurrency " +
      "pubCommissionAmountPubCurrency eventDate postingDate } } }"
    expect(validate(schema, parse(before)).map((error) => error.message)).toEqual([
      // CJ's schema has no ID type at all
      'Unknown type "ID".',
      'Cannot query field "pubCurrency" on type "PublisherCommission".'
    ])
  })

  it("loads a month in the account's currency (CJ_CURRENCY), by posting and by locking date, paged by sinceCommissionId", async () => {
    const run = await runFeed(env.service, "cj-commissions-api")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 2, rowsLoaded: 2, rowsRejected: 0 })
    const bodies = cj.requests.map((request) => JSON.parse(request.body) as { query: string; variables: any })
    // one sale per page (the stub's limit): two pages by posting date, none locking in the window yet
    expect(bodies.map((body) => [/since(\w+)Date/.exec(body.query)![1], body.variables.since])).toEqual([
      ["Posting", null],
      ["Posting", "4100000001"],
      ["Locking", null]
    ])
    expect(bodies[0].variables.publishers).toEqual([ENV.CJ_PUBLISHER_ID])
    expect(await conversion("cj:7700000001")).toEqual({
      status: "pending",
      currency: "EUR",
      order_amount: "310.4000",
      commission: "24.8300",
      partner_share: expect.any(String)
    })
    expect(await me()).toMatchObject({ conversions: { pending: 2, approved: 0 } })
  })

  it("a month later: the sales locked more than 30 days after posting turn approved, and the refund moves the sale", async () => {
    serve("cj-commissions-december.json")
    cj.requests.length = 0
    const run = await runFeed(env.service, "cj-commissions-api")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 4, rowsLoaded: 4, rowsRejected: 0 })
    // the posting-date pass sees the correction and the new sale, the locking-date pass the sales that locked on the 11th
    expect(cj.requests.map((request) => JSON.parse(request.body).variables.since)).toEqual([
      null,
      "4100000103",
      null,
      "4100000001"
    ])

    // the correction (original false, originalActionId 7700000001, -8.00) moves the first sale: 24.83 -> 16.83
    expect(await conversion("cj:7700000001")).toMatchObject({
      status: "approved",
      order_amount: "210.4000",
      commission: "16.8300"
    })
    expect(await conversion("cj:7700000002")).toMatchObject({ status: "approved", commission: "8.0000" })
    expect(await conversion("cj:4100000103")).toBeUndefined() // not a conversion of its own
    expect(
      await query(
        env.service,
        "SELECT previous_status, status, commission::VARCHAR AS commission FROM conversion_events WHERE conversion_id = 'cj:7700000001' ORDER BY seen_at, status"
      )
    ).toEqual([
      { previous_status: null, status: "pending", commission: "24.8300" },
      { previous_status: "pending", status: "approved", commission: "16.8300" }
    ])
    const shares = await query<{ approved: string }>(
      env.service,
      "SELECT sum(partner_share)::VARCHAR AS approved FROM conversions WHERE network_id = 'cj' AND status = 'approved'"
    )
    const totals = await me()
    expect(totals.conversions).toMatchObject({ pending: 1, approved: 2, total: 3 })
    // 16.83 + 8.00 EUR at 1.0842 USD, 70% to the partner: 12.78 + 6.07
    expect(totals.revenue.approved).toBe("18.8500")
    expect(Number(shares[0].approved)).toBe(18.85)
    // The partner sees the refund as an adjustment on the day it arrived: 24.83 -> 16.83 EUR, 18.84 -> 12.78 USD at 70%.
    const adjustments = (
      await getJson(`${env.service.url}/api/v1/partners/me`, { authorization: `Bearer ${partner.key}` })
    ).body.adjustments
    expect(adjustments).toMatchObject({
      adjustments: 1,
      revenue: "-6.0600",
      recent: [
        {
          conversion_id: "cj:7700000001",
          kind: "correction",
          reason: "RETURNED_MERCHANDISE",
          previous_status: "pending",
          status: "approved",
          partner_share_change: "-6.0600",
          // the calendar was moved to the report's day, then runs at its real pace: the run's seconds are on it
          arrived_at: expect.stringMatching(/^2026-12-15T00:00:\d\dZ$/)
        }
      ]
    })
  })

  it("a re-read of the same month changes nothing: the correction is applied once", async () => {
    expect((await runFeed(env.service, "cj-commissions-api")).status).toBe("skipped") // the same records
    // loaded again all the same (as after a lost feed state): the sale is re-read with its correction, once
    await query(env.service, "UPDATE feed_state SET content_sha256 = NULL WHERE feed = 'cj-commissions-api'")
    const run = await runFeed(env.service, "cj-commissions-api")
    expect(run).toMatchObject({ status: "succeeded", rowsLoaded: 4 })
    expect(await conversion("cj:7700000001")).toMatchObject({ status: "approved", commission: "16.8300" })
    expect(
      await query(
        env.service,
        "SELECT count(*)::INTEGER AS n FROM conversion_corrections WHERE conversion_id = 'cj:7700000001'"
      )
    ).toEqual([{ n: 1 }])
    expect((await me()).revenue.approved).toBe("18.8500")
  })
})

describe("Awin publisher API transactions, as Awin documents them", () => {
  beforeAll(() => linkOn("awin"))
  const events = (id: string) =>
    query(
      env.service,
      "SELECT previous_status, status, commission::VARCHAR AS commission FROM conversion_events WHERE conversion_id = $1 ORDER BY seen_at, status",
      [id]
    )

  it("reads the window once per documented dateType: transaction, validation, amendment", async () => {
    serve("awin-transactions-october.json")
    const run = await runFeed(env.service, "awin-transactions-api")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 3, rowsLoaded: 3, rowsRejected: 0 })
    expect(awin.requests.map((request) => request.query.get("dateType"))).toEqual([
      "transaction",
      "validation",
      "amendment"
    ])
    for (const { query: params } of awin.requests) {
      const span = Date.parse(`${params.get("endDate")}Z`) - Date.parse(`${params.get("startDate")}Z`)
      expect(span).toBeLessThanOrEqual(31 * 86_400_000)
      expect(params.get("timezone")).toBe("UTC")
    }
    expect(await conversion("awin:913000001")).toMatchObject({
      status: "pending",
      currency: "GBP",
      commission: "4.5000"
    })
  })

  it("two months on: an approval and a decline validated after day 30, and an amended amount, all arrive", async () => {
    serve("awin-transactions-december.json")
    awin.requests.length = 0
    const run = await runFeed(env.service, "awin-transactions-api")
    // nothing happened in the transaction window; the validation window has two, the amendment window one
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 3, rowsLoaded: 3, rowsRejected: 0 })
    expect(await conversion("awin:913000001")).toMatchObject({ status: "approved", commission: "4.5000" })
    expect(await conversion("awin:913000002")).toMatchObject({
      status: "declined",
      commission: "12.3500",
      partner_share: "0.0000"
    })
    expect(await conversion("awin:913000003")).toMatchObject({
      status: "pending",
      order_amount: "150.0000",
      commission: "7.5000"
    })
    expect(await events("awin:913000003")).toEqual([
      { previous_status: null, status: "pending", commission: "12.0000" },
      { previous_status: "pending", status: "pending", commission: "7.5000" }
    ])
  })
})

describe("impact.com partner Actions API, as impact.com documents it", () => {
  beforeAll(() => linkOn("impact"))
  it("reads by last update and again by locking date, with a documented PageSize", async () => {
    serve("impact-actions-november.json")
    const run = await runFeed(env.service, "impact-actions-api")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 2, rowsLoaded: 2, rowsRejected: 0 })
    expect(impact.requests.map(({ query: params }) => [...params.keys()])).toEqual([
      ["StartDate", "EndDate", "PageSize"],
      ["LockingDateStart", "LockingDateEnd", "PageSize"]
    ])
    for (const { query: params } of impact.requests) expect(Number(params.get("PageSize"))).toBeGreaterThanOrEqual(2000)
    expect(await conversion("impact:59942.4410.770001")).toMatchObject({ status: "pending", commission: "9.7500" })
  })

  it("an approval at the locking date (not an update to impact.com) and a modified payout both arrive", async () => {
    serve("impact-actions-december.json")
    impact.requests.length = 0
    const run = await runFeed(env.service, "impact-actions-api")
    // the update window has the modified action, the locking window the approved one
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 2, rowsLoaded: 2, rowsRejected: 0 })
    expect(await conversion("impact:59942.4410.770001")).toMatchObject({ status: "approved", commission: "9.7500" })
    expect(await conversion("impact:59942.4410.770002")).toMatchObject({
      status: "pending",
      order_amount: "110.0000",
      commission: "8.2500"
    })
  })

  it("on a 429 waits for the reset header (no Retry-After) instead of failing after quick retries, and says so", async () => {
    for (const header of ["X-RateLimit-Reset", "RateLimit-Reset"]) {
      impact.requests.length = 0
      impactRateLimit.header = header
      impactRateLimit.until = Date.now() + 2000
      const started = Date.now()
      const run = await runFeed(env.service, "impact-actions-api")
      expect(run.status, run.error ?? "").toBe("skipped") // the same actions as before, after the wait
      expect(Date.now() - started).toBeGreaterThanOrEqual(1900)
      expect(run.notes).toEqual([expect.stringMatching(/^waited 2 s on the API's rate limit \(1 × HTTP 429\)$/)])
      expect(impact.requests.length).toBe(3) // the refused one, then both passes
    }
  })

  it("keeps to the feed's request budget: a run that would exceed it waits or stops, and says so", async () => {
    const first = await runFeed(env.service, "impact-budgeted") // 2 requests of the 3
    expect(first.status).toBe("succeeded")
    impact.requests.length = 0
    const second = await runFeed(env.service, "impact-budgeted")
    expect(second.status).toBe("failed")
    expect(second.error).toMatch(
      /the request budget \(options\.budget: 3 per hour\) is spent for another \d+ s, longer than options\.maxRetryAfterMs allows; nothing was loaded, the next run reads the window again/
    )
    expect(impact.requests.length).toBe(1) // the third request of the hour, then the budget held
  })
})
