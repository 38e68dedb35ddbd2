import { Effect } from "effect"
import { copyFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "../../infra/Database.ts"
import { PipelineRunner } from "../../pipelines/PipelineRunner.ts"
import { type RunningService, startService, tempDir } from "../support/TestService.ts"
import { seedSampleLinks } from "./fixtures.ts"

// The conversions feed kind through the real pipeline runner of a running
// service: a report that changes between runs updates its rows in place.
const samples = new URL("../../data/samples/reports/", import.meta.url).pathname
const temp = tempDir("conv-pipeline-")
const report = join(temp.dir, "awin.json")
let service: RunningService

beforeAll(async () => {
  copyFileSync(join(samples, "awin-transactions.json"), report)
  const feeds = join(temp.dir, "feeds.json")
  writeFileSync(
    feeds,
    JSON.stringify({
      feeds: [
        {
          name: "awin-report",
          kind: "conversions",
          format: "awin-transactions",
          location: report,
          options: { rejectThreshold: 0.5 }
        },
        {
          name: "impact-report",
          kind: "conversions",
          format: "impact-actions",
          location: join(samples, "impact-actions.csv"),
          options: { rejectThreshold: 0.5 }
        }
      ]
    })
  )
  service = await startService({ feedsConfigPath: feeds, ingestOnStart: false })
  await service.run(
    Effect.gen(function* () {
      const db = yield* Database
      yield* db.transaction((tx) => seedSampleLinks(tx))
    })
  )
})
afterAll(async () => {
  await service?.close()
  temp.rm()
})

const run = (feed: string) =>
  service.run(
    Effect.gen(function* () {
      return yield* (yield* PipelineRunner).run(feed, "manual")
    })
  )
const statuses = () =>
  service.run(
    Effect.gen(function* () {
      const db = yield* Database
      const rows = yield* db.query<{ id: string; status: string; partner_share: string }>(
        "SELECT id, status, partner_share::VARCHAR AS partner_share FROM conversions WHERE network_id = 'awin' ORDER BY id"
      )
      return Object.fromEntries(rows.map((row) => [row.id, `${row.status} ${row.partner_share}`]))
    })
  )

describe("conversions feeds in the pipeline runner", () => {
  it("loads a report, records its rejected rows, and updates the same rows when the report changes", async () => {
    const first = await run("awin-report")
    expect(first).toMatchObject({
      status: "succeeded",
      kind: "conversions",
      rowsRead: 8,
      rowsLoaded: 6,
      rowsRejected: 2
    })
    expect(await statuses()).toEqual({
      "awin:412770001": "pending 3.9900",
      "awin:412770002": "approved 10.9600",
      "awin:412770003": "declined 0.0000",
      "awin:412770004": "reversed 0.0000",
      "awin:412770005": "approved 0.0000",
      "awin:412770006": "pending 0.0000"
    })
    const rejected = await service.run(
      Effect.gen(function* () {
        const db = yield* Database
        return yield* db.query<{ line: number }>(
          "SELECT line::INTEGER AS line FROM rejected_rows WHERE run_id = $1 ORDER BY line",
          [first.id]
        )
      })
    )
    expect(rejected.map((r) => r.line)).toEqual([7, 8])

    expect((await run("awin-report")).status).toBe("skipped") // unchanged report

    copyFileSync(join(samples, "awin-transactions-later.json"), report)
    const later = await run("awin-report")
    expect(later).toMatchObject({ status: "succeeded", rowsRead: 3, rowsLoaded: 3, rowsRejected: 0 })
    const after = await statuses()
    expect(Object.keys(after)).toHaveLength(6)
    expect(after["awin:412770001"]).toBe("approved 3.9900")
    expect(after["awin:412770002"]).toBe("declined 0.0000") // approved -> declined: revenue reversed
  })

  it("reads the CSV export of another network", async () => {
    const impact = await run("impact-report")
    expect(impact).toMatchObject({ status: "succeeded", rowsRead: 4, rowsLoaded: 3, rowsRejected: 1 })
  })
})
