import { Effect, Exit, Redacted, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database, type DatabaseShape } from "../../infra/Database.ts"
import { makePgDatabase } from "../../infra/PgDatabase.ts"
import { followSystemOfRecord } from "../../pipelines/publish/followSystemOfRecord.ts"
import { freshDatabaseUrl } from "../support/postgres.ts"

// Staging (DuckDB) follows PostgreSQL at a worker's start: PostgreSQL's
// catalog is copied in when their row counts differ (lists, JSON, decimals and
// timestamps intact), an empty PostgreSQL empties staging, equal counts leave
// staging alone.
describe("staging follows PostgreSQL", () => {
  const scope = Effect.runSync(Scope.make())
  let pg: DatabaseShape
  let staging: DatabaseShape
  const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.runPromise(effect)
  const NETWORKS = "SELECT * FROM networks ORDER BY id"
  const PROGRAMS =
    "SELECT id, domains, CAST(commission_rate AS VARCHAR) AS rate, cookie_days, deep_link_allowed, link_params, updated_at FROM programs ORDER BY id"
  const HISTORY =
    "SELECT product_id, observed_at, CAST(price AS VARCHAR) AS price, currency, run_id FROM price_history ORDER BY observed_at"
  const both = async (sql: string) => ({ recorded: await run(pg.query(sql)), staged: await run(staging.query(sql)) })

  beforeAll(async () => {
    pg = await run(
      makePgDatabase({ url: Redacted.make(await freshDatabaseUrl()), poolSize: 2 }).pipe(Scope.provide(scope))
    )
    staging = await run(Database.make(":memory:").pipe(Scope.provide(scope)))
  })
  afterAll(() => run(Scope.close(scope, Exit.void)))

  it("copies PostgreSQL's catalog into an empty staging, every value type intact", async () => {
    await run(
      pg.run(`INSERT INTO networks VALUES ('awin', 'Awin', 'active', 'https://awin.com', ARRAY['www.awin1.com', 'a"b,c'],
        'https://www.awin1.com/cread.php?awinmid={mid}', 'clickref', ARRAY['ued'], 'H', NULL, ARRAY['uk', 'de'],
        '{"pubId":"123"}', 'networks', '2026-11-24T10:00:00.123Z')`)
    )
    await run(
      pg.run(`INSERT INTO programs VALUES ('awin:1', 'awin', '1', 'Shop', ARRAY['shop.example'], 'GB', 'Fashion', 'CPS',
        7.5, NULL, 30, 'active', true, NULL, '{"mid":"1"}', 'programs', '2026-11-24T10:00:00Z')`)
    )
    await run(pg.run("INSERT INTO program_domains VALUES ('shop.example', 'awin:1', 'programs')"))
    await run(
      pg.run(`INSERT INTO price_history VALUES ('shop:A', '2026-10-01T00:00:00Z', 9.99, 'USD', 'r1'),
        ('shop:A', '2026-11-01T12:30:00.5Z', 8.5, 'USD', NULL)`)
    )

    await run(followSystemOfRecord(pg, staging))

    for (const sql of [NETWORKS, PROGRAMS, HISTORY, "SELECT * FROM program_domains"]) {
      const rows = await both(sql)
      expect(rows.staged.length).toBeGreaterThan(0)
      expect(rows.staged).toEqual(rows.recorded)
    }
    expect((await both(NETWORKS)).staged[0]).toMatchObject({
      click_hosts: ["www.awin1.com", 'a"b,c'],
      account_params: '{"pubId":"123"}',
      successor_id: null
    })
  })

  it("leaves staging alone when the counts agree, and empties it when PostgreSQL is empty", async () => {
    // A staging-only change that keeps the counts: not PostgreSQL's business.
    await run(staging.run("UPDATE networks SET name = 'Renamed in staging'"))
    await run(followSystemOfRecord(pg, staging))
    expect((await both(NETWORKS)).staged[0]).toMatchObject({ name: "Renamed in staging" })

    for (const table of ["networks", "programs", "program_domains", "price_history"]) {
      await run(pg.run(`DELETE FROM ${table}`))
    }
    await run(followSystemOfRecord(pg, staging))
    for (const table of ["networks", "programs", "program_domains", "products", "price_history"]) {
      expect(await run(staging.query(`SELECT * FROM ${table}`))).toEqual([])
    }
  })
})
