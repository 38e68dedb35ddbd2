import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ConversionLedger } from "../../conversions/ConversionLedger.ts"
import { parseReport } from "../../conversions/reports/index.ts"
import { Database } from "../../infra/Database.ts"
import { TrackingLinks } from "../../links/TrackingLinks.ts"
import { conversionsLayer, linksLayer, type RunningFeature, startFeature } from "../support/featureLayers.ts"

// A conversion reported before its link existed (the link was made on
// another replica, or restored from a backup) is attributed when the link is
// created: links announce LinkCreated, the conversions feature re-attributes
// in its own fiber. The two features alone (test/support/featureLayers.ts),
// on both stores, no HTTP server.
const layer = Layer.merge(linksLayer, conversionsLayer)
let features: RunningFeature<Layer.Success<typeof layer>>
beforeAll(async () => {
  features = await startFeature(layer)
})
afterAll(() => features?.close())

const trackingIdOf = (id: string) =>
  features.run(
    Effect.flatMap(Database, (db) =>
      db.query<{ tracking_id: string | null }>("SELECT tracking_id FROM conversions WHERE id = $1", [id])
    )
  )

describe("a link created after the conversion that named it", () => {
  it("attributes the conversion once the link exists, and not before", async () => {
    await features.run(
      Effect.gen(function* () {
        const report = parseReport(
          "generic",
          "transaction_id,click_ref,order_amount,commission,currency,status,event_time\n" +
            "EARLY-1,LateLink0001,80.00,4.00,USD,pending,2026-11-20T10:00:00Z\n",
          { network: "dev" }
        )
        yield* (yield* ConversionLedger).upsert(
          report.records.map(({ record }) => record),
          "dev-report"
        )
      })
    )
    expect(await trackingIdOf("dev:EARLY-1")).toEqual([{ tracking_id: null }])
    const url = "https://shop.example.com/late"
    const created = await features.run(
      Effect.flatMap(TrackingLinks, (links) =>
        links.getOrCreate({
          id: "LateLink0001",
          partnerId: null,
          tag: "anon",
          originalUrl: url,
          normalizedUrl: url,
          destinationUrl: url,
          programId: null,
          networkId: "dev",
          productId: null,
          source: "match",
          affiliateUrlFor: () => url
        })
      )
    )
    expect(created.created).toBe(true)
    await expect
      .poll(() => trackingIdOf("dev:EARLY-1"), { timeout: 10_000, interval: 50 })
      .toEqual([{ tracking_id: "LateLink0001" }])
  })
})
