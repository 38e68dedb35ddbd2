import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SearchEngine } from "../../infra/SearchEngine.ts"
import { PipelineRunner } from "../../pipelines/PipelineRunner.ts"
import { gateOnEnv, loadFeedsConfig } from "../../pipelines/FeedConfig.ts"
import { groupKey } from "../../domain/catalog/modelKey.ts"
import { count, query } from "./support.ts"
import type { RunningService } from "../support/TestService.ts"
import { startSampleService } from "../support/sampleService.ts"

// The shipped config/feeds.json over the shipped samples, end to end: every
// feed loads into DuckDB and the search indexes, and a second run skips. The
// ingest is this run's sample snapshot (test/support/sampleSnapshot.ts: the
// shipped feeds through the real pipelines, which most files serve from); a
// service started from it holds a copy of its data, its runs included.
describe("shipped feeds over the sample data", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startSampleService()
  })
  afterAll(() => service.close())

  it("ingests every shipped feed, then skips them all when nothing changed", async () => {
    // the network API feeds stay disabled here: their credential variables are not set
    const config = gateOnEnv(await Effect.runPromise(loadFeedsConfig("config/feeds.json"))).feeds.filter(
      (feed) => feed.enabled
    )
    const runs = await query<{
      feed: string
      kind: string
      status: string
      error: string | null
      rowsRead: number
      rowsLoaded: number
      rowsRejected: number
    }>(
      service,
      `SELECT feed, kind, status, error, rows_read::DOUBLE AS "rowsRead", rows_loaded::DOUBLE AS "rowsLoaded",
         rows_rejected::DOUBLE AS "rowsRejected"
       FROM pipeline_runs`
    )
    // the runs of a stage ran side by side: compared in feed order
    expect(runs.map((r) => [r.feed, r.status, r.error]).sort()).toEqual(
      config.map((f) => [f.name, "succeeded", null]).sort()
    )
    for (const run of runs.filter((r) => r.kind !== "conversions")) {
      expect(run.rowsLoaded).toBeGreaterThan(0)
      // the samples are meant to load nearly whole
      expect(run.rowsRejected / run.rowsRead).toBeLessThan(0.05)
    }
    expect(await count(service, "SELECT count(*) AS n FROM networks")).toBe(122)
    expect(await count(service, "SELECT count(*) AS n FROM programs")).toBeGreaterThanOrEqual(500)
    expect(
      await count(service, "SELECT count(*) AS n FROM program_domains WHERE domain = 'amazon.co.uk'")
    ).toBeGreaterThan(0)
    expect(await count(service, "SELECT count(*) AS n FROM products")).toBeGreaterThanOrEqual(5000)
    const stores = await query<{ store: string }>(
      service,
      "SELECT DISTINCT store FROM products WHERE feed = 'us-electronics'"
    )
    expect(stores.length).toBeGreaterThan(1)
    const products = runs.filter((r) => r.kind === "products")
    const indexed = await service.run(
      Effect.gen(function* () {
        const search = yield* SearchEngine
        return yield* search.use("stats", (client) => client.index(search.indexUid("products")).getStats())
      })
    )
    // one document per product model
    const rows = await query<{
      title: string
      gtin: string | null
      color: string | null
      size: string | null
      condition: string | null
    }>(service, "SELECT title, gtin, color, size, condition FROM products")
    expect(rows.length).toBe(products.reduce((sum, r) => sum + r.rowsLoaded, 0))
    expect(indexed.numberOfDocuments).toBe(new Set(rows.map((row) => groupKey(row.gtin, row.title, row))).size)

    // (a run that did not skip would fail on its sync: the snapshot's indexes are read-only here)
    const again = await service.run(PipelineRunner.use((runner) => runner.runAll("manual")))
    expect(again.map((r) => [r.feed, r.status])).toEqual(config.map((f) => [f.name, "skipped"]))
  })
})
