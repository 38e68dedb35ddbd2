import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { ConversionLedger } from "../../conversions/ConversionLedger.ts"
import { parseReport } from "../../conversions/reports/index.ts"
import { Database } from "../../infra/Database.ts"
import { type RunningService, startService } from "../support/TestService.ts"

// The scheduled re-attribution pass runs once for the cluster: only in the
// process holding the pipeline WorkerLock (ROLE=worker or all), never in an
// API replica, although every process has schedules enabled. Each start runs
// a pass at once, so an API replica that ran it would attribute at start-up.
const started: Array<RunningService> = []
afterAll(async () => {
  for (const service of started.reverse()) await service.close()
})

const start = async (overrides: Parameters<typeof startService>[0]) => {
  const service = await startService({ schedulesEnabled: true, ingestOnStart: false, ...overrides })
  started.push(service)
  return service
}

const trackingIdOf = (service: RunningService, id: string) =>
  service.run(
    Effect.flatMap(Database, (db) =>
      db.query<{ tracking_id: string | null }>("SELECT tracking_id FROM conversions WHERE id = $1", [id])
    )
  )

describe("re-attribution schedule with several replicas", () => {
  it("does not run in ROLE=api replicas; runs in the ROLE=worker holding the WorkerLock", async () => {
    const api = await start({ role: "api" })
    // An unattributed conversion, then its link written behind the service's back (as a restored backup would).
    await api.run(
      Effect.gen(function* () {
        const report = parseReport(
          "generic",
          "transaction_id,click_ref,order_amount,commission,currency,status,event_time\n" +
            "LATE-1,RestoredLink1,80.00,4.00,USD,pending,2026-11-20T10:00:00Z\n",
          { network: "dev" }
        )
        yield* (yield* ConversionLedger).upsert(
          report.records.map(({ record }) => record),
          "dev-report"
        )
        yield* (yield* Database).run(
          `INSERT INTO tracking_links (id, partner_id, tag, original_url, normalized_url, destination_url, affiliate_url, source, created_at)
           VALUES ('RestoredLink1', NULL, 'anon', 'https://shop.example.com/', 'https://shop.example.com/',
                   'https://shop.example.com/', 'https://shop.example.com/', 'match', now())`
        )
      })
    )
    const databaseUrl = api.config.databaseUrl
    const secondApi = await start({ role: "api", databaseUrl })
    // Time for a start-up pass, had one been started: it takes milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(await trackingIdOf(secondApi, "dev:LATE-1")).toEqual([{ tracking_id: null }])

    await start({ role: "worker", databaseUrl })
    await expect
      .poll(() => trackingIdOf(api, "dev:LATE-1"), { timeout: 20_000, interval: 100 })
      .toEqual([{ tracking_id: "RestoredLink1" }])
  })
})
