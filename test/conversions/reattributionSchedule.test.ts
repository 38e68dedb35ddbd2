import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { ConversionLedger } from "../../conversions/ConversionLedger.ts"
import { parseReport } from "../../conversions/reports/index.ts"
import { ReattributionSchedule } from "../../conversions/ReattributionSchedule.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Database } from "../../infra/Database.ts"
import { ledgerLayer } from "./fixtures.ts"

// The safety net: a link that appears without passing through TrackingLinks
// (another replica wrote it, a backup was restored) is found by the schedule.
const scheduled = ReattributionSchedule.pipe(
  Layer.provideMerge(ledgerLayer),
  Layer.provide(AppConfig.layerWith({ dataDir: "unused", schedulesEnabled: true }))
)

/** Real time passes (DuckDB works on promises) while the test clock stands still. */
const realPause = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))

const trackingIdOf = (id: string) =>
  Effect.gen(function* () {
    const db = yield* Database
    const rows = yield* db.query<{ tracking_id: string | null }>("SELECT tracking_id FROM conversions WHERE id = $1", [
      id
    ])
    return rows[0]?.tracking_id ?? null
  })

describe("ReattributionSchedule", () => {
  it.effect("attributes conversions whose link appeared by other means at the next pass (every 15 minutes)", () =>
    Effect.gen(function* () {
      const db = yield* Database
      const ledger = yield* ConversionLedger
      const report = parseReport(
        "generic",
        "transaction_id,click_ref,order_amount,commission,currency,status,event_time\n" +
          "R-1,ReplicaLink1,80.00,4.00,USD,pending,2026-11-20T10:00:00Z\n",
        { network: "dev" }
      )
      yield* ledger.upsert(
        report.records.map(({ record }) => record),
        "dev-report"
      )
      yield* db.run(
        `INSERT INTO tracking_links (id, partner_id, tag, original_url, normalized_url, destination_url, affiliate_url, source, created_at)
         VALUES ('ReplicaLink1', NULL, 'anon', 'https://shop.example.com/', 'https://shop.example.com/', 'https://shop.example.com/',
                 'https://shop.example.com/', 'match', now())`
      )
      yield* TestClock.adjust("14 minutes")
      for (let i = 0; i < 5; i++) yield* realPause
      assert.strictEqual(yield* trackingIdOf("dev:R-1"), null)
      yield* TestClock.adjust("1 minute")
      let attributed: string | null = null
      for (let i = 0; i < 100 && attributed === null; i++) {
        yield* realPause
        attributed = yield* trackingIdOf("dev:R-1")
      }
      assert.strictEqual(attributed, "ReplicaLink1")
    }).pipe(Effect.provide(scheduled))
  )
})
