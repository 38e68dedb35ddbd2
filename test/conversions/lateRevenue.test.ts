import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ConversionLedger } from "../../conversions/ConversionLedger.ts"
import { parseReport } from "../../conversions/reports/index.ts"
import { TrackingLinks } from "../../links/TrackingLinks.ts"
import { Database } from "../../infra/Database.ts"
import { getJson, postJson } from "../support/http.ts"
import { type RunningService, startService } from "../support/TestService.ts"
import { sampleReport } from "./fixtures.ts"

// Attribution without waiting for a changed report, and what the partner sees
// of it in GET /api/v1/partners/me; CJ corrections in the conversion count.
let service: RunningService
let partner: { id: number; tag: string; key: string }

const me = async () => {
  const response = await getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${partner.key}` })
  expect(response.status).toBe(200)
  return response.body
}

const ledger = <A>(f: (ledger: ConversionLedger["Service"]) => Effect.Effect<A, unknown>) =>
  service.run(
    Effect.gen(function* () {
      return yield* f(yield* ConversionLedger)
    })
  )

/**
 * A link made through the real link store, keeping an id chosen elsewhere
 * (restored, another replica), on `network`'s programme: only that network's
 * conversions are credited to it.
 */
const createLink = (id: string, path: string, network: string) =>
  service.run(
    Effect.gen(function* () {
      const links = yield* TrackingLinks
      const url = `https://shop.example.com/${path}`
      return yield* links.getOrCreate({
        id,
        partnerId: partner.id,
        tag: partner.tag,
        originalUrl: url,
        normalizedUrl: url,
        destinationUrl: url,
        programId: null,
        networkId: network,
        productId: null,
        source: "match",
        affiliateUrlFor: () => url
      })
    })
  )

const attribution = (id: string) =>
  service.run(
    Effect.gen(function* () {
      const db = yield* Database
      const rows = yield* db.query<Record<string, any>>(
        "SELECT tracking_id, partner_id, partner_share::VARCHAR AS partner_share, created_at, attributed_at FROM conversions WHERE id = $1",
        [id]
      )
      return rows[0]
    })
  )

/** Polls `read` until `done` holds (at most 5 s). */
const eventually = async <A>(read: () => Promise<A>, done: (value: A) => boolean) => {
  for (let i = 0; i < 250; i++) {
    const value = await read()
    if (done(value)) return value
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return read()
}

beforeAll(async () => {
  service = await startService()
  const registered = await postJson(`${service.url}/api/v1/partners/register`, {
    name: "Late Deals",
    email: "late@example.com"
  })
  expect(registered.status).toBe(200)
  partner = { id: registered.body.partner.id, tag: registered.body.partner.tag, key: registered.body.api_key }
})
afterAll(async () => {
  await service?.close()
})

describe("attribution when a link named by a stored conversion is created", () => {
  it("attributes at link creation, before any report changes, and partners/me reports the revenue as late", async () => {
    // The network reports a sale under a click reference we do not know yet.
    const report = parseReport(
      "generic",
      [
        "transaction_id,click_ref,order_amount,commission,currency,status,event_time",
        "LATE-1,LateLink0001,200.00,10.00,USD,approved,2026-11-20T10:00:00Z",
        "LATE-2,LateLink0001,50.00,2.50,USD,pending,2026-11-21T10:00:00Z",
        "ONTIME-1,OnTimeLink01,100.00,4.00,USD,approved,2026-11-21T10:00:00Z"
      ].join("\n"),
      { network: "dev" }
    )
    await ledger((l) =>
      l.upsert(
        report.records.slice(0, 2).map(({ record }) => record),
        "dev-report"
      )
    )
    expect(await attribution("dev:LATE-1")).toMatchObject({ tracking_id: null, partner_id: null, attributed_at: null })
    expect((await me()).late_revenue).toEqual({
      conversions: 0,
      revenue: { pending: "0.0000", approved: "0.0000", total: "0.0000" },
      last_attributed_at: null,
      recent: []
    })

    // The link turns up (here: restored with its id). No report changes, nobody calls the admin endpoint.
    const made = await createLink("LateLink0001", "late", "dev")
    expect(made.created).toBe(true)
    // Attributed by the conversions' subscriber to LinkCreated, just after the link was handed out.
    const late = await eventually(
      () => attribution("dev:LATE-1"),
      (row) => row.tracking_id !== null
    )
    expect(late).toMatchObject({ tracking_id: "LateLink0001", partner_id: partner.id, partner_share: "7.0000" })
    expect(late.attributed_at.getTime()).toBeGreaterThan(late.created_at.getTime())

    // A conversion whose link already existed arrives on time: attributed at first sighting, not late.
    await createLink("OnTimeLink01", "on-time", "dev")
    await ledger((l) => l.upsert([report.records[2].record], "dev-report"))
    const onTime = await attribution("dev:ONTIME-1")
    expect(onTime.attributed_at.getTime()).toBe(onTime.created_at.getTime())

    const body = await me()
    expect(body.totals.conversions).toMatchObject({ pending: 1, approved: 2 })
    expect(body.totals.revenue).toEqual({ pending: "1.7500", approved: "9.8000", total: "11.5500" })
    expect(body.late_revenue).toMatchObject({
      conversions: 2,
      revenue: { pending: "1.7500", approved: "7.0000", total: "8.7500" },
      last_attributed_at: late.attributed_at.toISOString().slice(0, 19) + "Z"
    })
    expect(
      body.late_revenue.recent
        .map((c: any) => [c.conversion_id, c.tracking_id, c.status, c.partner_share, c.event_at])
        .sort()
    ).toEqual([
      ["dev:LATE-1", "LateLink0001", "approved", "7.0000", "2026-11-20T10:00:00Z"],
      ["dev:LATE-2", "LateLink0001", "pending", "1.7500", "2026-11-21T10:00:00Z"]
    ])
    for (const c of body.late_revenue.recent) expect(c.attributed_at >= c.first_seen_at).toBe(true)
  })

  it("a later sighting of a late conversion keeps its attribution time", async () => {
    const before = await attribution("dev:LATE-1")
    const report = parseReport(
      "generic",
      "transaction_id,click_ref,order_amount,commission,currency,status,event_time,updated_time\n" +
        "LATE-1,LateLink0001,200.00,10.00,USD,reversed,2026-11-20T10:00:00Z,2026-11-23T00:00:00Z\n",
      { network: "dev" }
    )
    await ledger((l) =>
      l.upsert(
        report.records.map(({ record }) => record),
        "dev-report"
      )
    )
    const after = await attribution("dev:LATE-1")
    expect(after.attributed_at.getTime()).toBe(before.attributed_at.getTime())
    expect((await me()).late_revenue).toMatchObject({
      conversions: 1,
      revenue: { pending: "1.7500", approved: "0.0000" }
    })
  })
})

describe("CJ corrections in the partner's conversion count", () => {
  it("a negative correction nets its money against the sale but is not a conversion of its own", async () => {
    await createLink("Bd6fJ3tN5gUe", "cj-link", "cj") // the sample CJ report's sale 3081120003 and its correction 3081120005
    const before = (await me()).totals
    const report = parseReport("cj", sampleReport("cj-commissions.json"), { network: "cj" })
    await ledger((l) =>
      l.upsert(
        report.records.map(({ record }) => record),
        "cj-report"
      )
    )
    const after = (await me()).totals
    // 3081120003: locked (approved), commission 24.83; 3081120005: its correction, -8.00 -> ONE approved conversion
    expect(after.conversions.approved - before.conversions.approved).toBe(1)
    expect(after.conversions.total - before.conversions.total).toBe(1)
    const share = (text: string) => Math.round(Number(text) * 10_000)
    // revenue still nets out: 17.38 (70% of 24.83, to the cent) - 5.60 (70% of 8.00)
    expect(share(after.revenue.approved) - share(before.revenue.approved)).toBe(share("11.7800"))
  })
})
