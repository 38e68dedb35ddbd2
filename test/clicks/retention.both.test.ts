import { Effect, type Layer, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ClickMaintenance, retentionCutoff } from "../../clicks/ClickMaintenance.ts"
import { Database } from "../../infra/Database.ts"
import { clicksLayer, type RunningFeature, startFeature } from "../support/featureLayers.ts"

// CLICK_RETENTION_DAYS on the store in use: PostgreSQL drops whole day
// partitions (and deletes the DEFAULT partition's old rows), DuckDB deletes
// the rows; either way clicks from the kept days stay. The clicks feature
// alone (test/support/featureLayers.ts): no HTTP server, no Meilisearch.
const DAY = 86_400_000
const RETENTION_DAYS = 5

const insertClickAt = (at: Date, trackingId: string) =>
  Effect.flatMap(Database, (db) =>
    db.run(
      `INSERT INTO clicks VALUES (CAST($1 AS TIMESTAMPTZ), $2, NULL, 'retention', 'h', 'ua', NULL, false, NULL, true)`,
      [at.toISOString(), trackingId]
    )
  )

type Clicks = RunningFeature<Layer.Success<typeof clicksLayer>>

const storedIds = (service: Clicks) =>
  service.run(
    Effect.flatMap(Database, (db) =>
      db.query<{ tracking_id: string }>("SELECT tracking_id FROM clicks WHERE tag = 'retention' ORDER BY tracking_id")
    )
  )

const partitions = (service: Clicks) =>
  service.run(
    Effect.flatMap(Database, (db) =>
      db.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'clicks'::regclass ORDER BY c.relname`
      )
    )
  )

describe("click retention (CLICK_RETENTION_DAYS)", () => {
  let service: Clicks
  beforeAll(async () => {
    service = await startFeature(clicksLayer, { clickRetentionDays: Option.some(RETENTION_DAYS) })
  })
  afterAll(() => service.close())

  it("computes the cutoff as the start of the UTC day that many days back", () => {
    expect(new Date(retentionCutoff(Date.parse("2026-11-24T15:30:00Z"), 5)).toISOString()).toBe(
      "2026-11-19T00:00:00.000Z"
    )
  })

  it("removes clicks older than the kept days and keeps the rest, partitions included on PostgreSQL", async () => {
    const now = Date.now()
    const cutoff = retentionCutoff(now, RETENTION_DAYS)
    const dialect = await service.run(Effect.map(Database, (db) => db.dialect))
    if (dialect === "postgres") {
      // Partitions for old days, as a long-running service would have made them.
      await service.run(
        Effect.flatMap(Database, (db) =>
          db.run("SELECT create_click_partitions(CAST($1 AS DATE), 3)", [
            new Date(cutoff - 3 * DAY).toISOString().slice(0, 10)
          ])
        )
      )
    }
    await service.run(
      Effect.all([
        insertClickAt(new Date(cutoff - 2 * DAY + 3600_000), "old-partitioned"),
        insertClickAt(new Date(cutoff - 40 * DAY), "old-unpartitioned"),
        insertClickAt(new Date(cutoff - 1), "old-last-ms"),
        insertClickAt(new Date(cutoff), "kept-first-ms"),
        insertClickAt(new Date(now), "kept-today")
      ])
    )
    await service.run(Effect.flatMap(ClickMaintenance, (maintenance) => maintenance.run))
    expect((await storedIds(service)).map((r) => r.tracking_id)).toEqual(["kept-first-ms", "kept-today"])
    if (dialect === "postgres") {
      const names = (await partitions(service)).map((p) => p.name)
      const dayName = (ms: number) => `clicks_${new Date(ms).toISOString().slice(0, 10).replaceAll("-", "")}`
      expect(names).not.toContain(dayName(cutoff - 2 * DAY))
      expect(names).not.toContain(dayName(cutoff - DAY))
      expect(names).toContain(dayName(cutoff))
      expect(names).toContain(dayName(now + 7 * DAY))
      expect(names).toContain("clicks_default")
    }
  })
})
