import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ConversionLedger } from "../../conversions/ConversionLedger.ts"
import type { ConversionRecord } from "../../conversions/ConversionRecord.ts"
import { parseDecimal } from "../../domain/money/Decimal.ts"
import { Database } from "../../infra/Database.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { insertCatalog } from "../support/catalogFixture.ts"
import { insertProducts } from "../support/catalogFixtures.ts"
import { getJson, postJson } from "../support/http.ts"
import { type RunningService, startService } from "../support/TestService.ts"

// A sale, its correction (CJ: a record of its own), a reversal, and a negative
// correction row as databases loaded before corrections were filed apart hold
// it: partners/me, the admin summary and the AI deals' observed conversion rate
// count them by one rule, and partners/me shows the corrections as adjustments
// on the day they arrived. Times are relative to the service's own clock (the
// days and the deals' 90-day window are), so the test reads the same any day.

const DAY = 86_400_000
const LINK = "CorrLink0001"
const PROGRAM = "cj:2002" // example-store.com in the catalog fixture: CJ, 8% CPS

let service: RunningService
let partner: { id: number; key: string }

const money = (text: string) => parseDecimal(text)!
const sale = (id: string, status: ConversionRecord["status"], commission: string, daysAgo: number, updated?: number) =>
  ({
    network: "cj",
    networkTxId: id,
    clickRef: LINK,
    orderAmount: money("100.00"),
    commission: money(commission),
    currency: "USD",
    status,
    eventAt: new Date(Date.now() - daysAgo * DAY),
    updatedAt: updated === undefined ? null : new Date(Date.now() - updated * DAY)
  }) satisfies ConversionRecord

const upsert = (records: ReadonlyArray<ConversionRecord>) =>
  service.run(
    Effect.gen(function* () {
      return yield* (yield* ConversionLedger).upsert(records, "cj-commissions-api")
    })
  )

beforeAll(async () => {
  service = await startService({ aiDealsCacheSeconds: 0 })
  await service.run(
    Effect.gen(function* () {
      yield* insertCatalog()
      yield* (yield* ProgramMatcher).reload
      yield* insertProducts([
        { itemId: "bike", title: "Road Bike", category: "Sports", price: 500, storeDomain: "example-store.com" }
      ])
    })
  )
  const registered = await postJson(`${service.url}/api/v1/partners/register`, {
    name: "Refunds",
    email: "r@example.com"
  })
  expect(registered.status).toBe(200)
  partner = { id: registered.body.partner.id, key: registered.body.api_key }
  await service.run(
    Effect.gen(function* () {
      const db = yield* Database
      yield* db.run(
        `INSERT INTO tracking_links (id, partner_id, tag, original_url, normalized_url, destination_url, affiliate_url,
                                     program_id, network_id, source, created_at)
         VALUES ($1, $2::INTEGER, $3, $4, $4, $4, $4, $5, 'cj', 'match', now())`,
        [LINK, partner.id, registered.body.partner.tag, "https://example-store.com/bike", PROGRAM]
      )
      // 100 human clicks over the last 10 days: enough for an observed conversion rate.
      for (let n = 0; n < 100; n++)
        yield* db.run(
          `INSERT INTO clicks VALUES ($1::TIMESTAMPTZ, $2, $3::INTEGER, 'seed', $4, 'ua', NULL, false, NULL, true)`,
          [new Date(Date.now() - (n / 10) * DAY).toISOString(), LINK, partner.id, `ip${n}`]
        )
    })
  )
}, 120_000)
afterAll(async () => {
  await service?.close()
})

describe("a sale and its correction in every read that counts conversions", () => {
  it("counts the sale once everywhere, nets the money alike, and shows the correction as an adjustment", async () => {
    // First sightings: two sales and one that will be reversed.
    await upsert([
      sale("S1", "pending", "10.00", 5),
      sale("S2", "approved", "20.00", 6, 5),
      sale("S3", "approved", "6.00", 7, 6)
    ])
    // Later runs: CJ's correction of S1 (a record of its own), S3 reversed, and a negative row as older versions stored corrections.
    await upsert([
      {
        ...sale("S1-C", "pending", "-4.00", 4),
        orderAmount: money("-40.00"),
        correctionOf: "S1",
        correctionReason: "partial refund"
      },
      sale("S3", "reversed", "6.00", 7, 1),
      sale("LEGACY-C", "approved", "-2.00", 6)
    ])

    const me = await getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${partner.key}` })
    expect(me.status).toBe(200)
    // S1 pending (10.00 - 4.00 = 6.00 -> 4.20), S2 approved 14.00, the legacy row's -1.40 nets; S3 reversed.
    expect(me.body.totals.conversions).toEqual({ total: 3, pending: 1, approved: 1, declined: 0, reversed: 1 })
    expect(me.body.totals.revenue).toEqual({ pending: "4.2000", approved: "12.6000", total: "16.8000" })
    expect(me.body.totals.conversion_rate).toBe(0.02)
    expect(me.body.adjustments.adjustments).toBe(2)
    expect(me.body.adjustments.revenue).toBe("-7.0000")
    expect(
      me.body.adjustments.recent
        .map((a: any) => [a.conversion_id, a.kind, a.reason, a.previous_status, a.status, a.partner_share_change])
        .sort()
    ).toEqual([
      ["cj:S1", "correction", "partial refund", "pending", "pending", "-2.8000"],
      ["cj:S3", "reversal", null, "approved", "reversed", "-4.2000"]
    ])
    // Shown on the day they arrived (the service's today), not on the sales' days.
    const arrived = me.body.adjustments.recent[0].arrived_at.slice(0, 10)
    const byDate = Object.fromEntries(me.body.days.map((d: any) => [d.date, d.adjustments]))
    expect(byDate[arrived]).toBe("-7.0000")
    expect(Object.values(byDate).filter((value) => value !== "0.0000")).toEqual(["-7.0000"])

    const summary = await getJson(`${service.url}/admin/conversions/summary`, {
      authorization: "Bearer test-admin-token"
    })
    expect(summary.status).toBe(200)
    const byStatus = Object.fromEntries(summary.body.by_status.map((s: any) => [s.status, s.conversions]))
    expect(byStatus).toEqual({ pending: 1, approved: 1, reversed: 1 })
    expect(summary.body.partner_revenue).toEqual(me.body.totals.revenue)

    const deals = await getJson(`${service.url}/api/v1/ai/deals`, { authorization: `Bearer ${partner.key}` })
    expect(deals.status).toBe(200)
    const bike = deals.body.high_commission.find((d: any) => d.title === "Road Bike")
    expect(bike.ranking).toMatchObject({
      program: { id: PROGRAM },
      conversion_source: "observed",
      observed_clicks: 100,
      observed_conversions: 2,
      conversion_rate: me.body.totals.conversion_rate
    })
  })

  it("files an amended amount and a reinstatement as adjustments too; a move of status alone is none", async () => {
    await upsert([
      sale("S2", "approved", "18.00", 6, 0.5), // the network amended the amount: 20.00 -> 18.00
      sale("S3", "approved", "6.00", 7, 0.4) // reversed, then approved again
    ])
    await upsert([sale("S1", "approved", "10.00", 5, 0.3)]) // pending -> approved; its correction stays applied
    const me = await getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${partner.key}` })
    expect(me.body.adjustments.adjustments).toBe(4)
    expect(
      me.body.adjustments.recent
        .map((a: any) => [a.conversion_id, a.kind, a.previous_status, a.status, a.partner_share_change])
        .sort()
    ).toEqual([
      ["cj:S1", "correction", "pending", "pending", "-2.8000"],
      ["cj:S2", "amendment", "approved", "approved", "-1.4000"],
      ["cj:S3", "reinstatement", "reversed", "approved", "4.2000"],
      ["cj:S3", "reversal", "approved", "reversed", "-4.2000"]
    ])
    expect(me.body.adjustments.revenue).toBe("-4.2000")
    expect(me.body.totals.conversions).toMatchObject({ pending: 0, approved: 3, reversed: 0 })
    // S1 6.00 -> 4.20, S2 18.00 -> 12.60, S3 6.00 -> 4.20, the legacy row -1.40
    expect(me.body.totals.revenue.approved).toBe("19.6000")
    const summary = await getJson(`${service.url}/admin/conversions/summary`, {
      authorization: "Bearer test-admin-token"
    })
    expect(summary.body.partner_revenue).toEqual(me.body.totals.revenue)
    expect(summary.body.by_status.map((s: any) => [s.status, s.conversions])).toEqual([["approved", 3]])
  })
})
