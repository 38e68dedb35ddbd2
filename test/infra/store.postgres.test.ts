import { Effect, Exit, Redacted, Schema, Scope } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { Count, Text } from "../../infra/columns.ts"
import { Database } from "../../infra/Database.ts"
import { makePgDatabase } from "../../infra/PgDatabase.ts"
import { connectPostgres } from "../../infra/postgres/client.ts"
import { migratePostgres, migrationFiles } from "../../infra/postgres/migrate.ts"
import { freshDatabaseUrl } from "../support/postgres.ts"

// What only the PostgreSQL store has: DuckDB-equal row values, the refusals,
// migrations under the advisory lock, click partitions. Runs in the postgres
// project only (files named *.postgres.test.ts); the shared contract is database.test.ts.
const openPostgres = async (url: string, scope: Scope.Closeable) =>
  Effect.runPromise(makePgDatabase({ url: Redacted.make(url), poolSize: 4 }).pipe(Scope.provide(scope)))

const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.runPromise(effect)

describe("PostgreSQL store", () => {
  const scope = Effect.runSync(Scope.make())
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

  // One SELECT, both stores: the rows must be equal value for value, so row Schemas decode either.
  it("gives the same JS values as DuckDB for the same column types", async () => {
    const sql = `SELECT CAST(1.5 AS DECIMAL(18,4)) AS dec, CAST(12345678901234.5678 AS DECIMAL(18,4)) AS big_dec,
        CAST(0.12345678 AS DECIMAL(18,8)) AS fx, CAST(5 AS BIGINT) AS big, count(*) AS n, CAST(7 AS INTEGER) AS int,
        CAST('2026-01-02T03:04:05.123Z' AS TIMESTAMPTZ) AS ts, CAST('2026-01-02 03:04:05' AS TIMESTAMP) AS plain_ts,
        CAST('2026-01-02' AS DATE) AS day, CAST('{"a":1,"b":[true,null]}' AS JSON) AS doc,
        CAST(ARRAY['a', 'b,c', 'd"e'] AS VARCHAR[]) AS list, CAST(NULL AS VARCHAR[]) AS no_list,
        true AS yes, CAST(2.5 AS DOUBLE PRECISION) AS dbl, CAST('x' AS VARCHAR) AS text, CAST(NULL AS VARCHAR) AS nothing`
    const pg = await openPostgres(await freshDatabaseUrl(), scope)
    const duck = await Effect.runPromise(Database.make(":memory:").pipe(Scope.provide(scope)))
    const [pgRows, duckRows] = await Promise.all([run(pg.query(sql)), run(duck.query(sql))])
    expect(pgRows).toEqual(duckRows)
    expect(duckRows[0]).toMatchObject({
      dec: 1.5,
      big: 5n,
      n: 1n,
      doc: '{"a":1,"b":[true,null]}',
      list: ["a", "b,c", 'd"e']
    })
  })

  it("named parameters do not compile on the shared store; an untyped caller is refused with a clear error", async () => {
    const pg = await openPostgres(await freshDatabaseUrl(), scope)
    // @ts-expect-error named parameters are DuckDB's alone (DuckDbParams, the staging side's type)
    const error = await Effect.runPromise(Effect.flip(pg.query("SELECT $feed AS feed", { feed: "x" })))
    expect(error.message).toMatch(/named parameters are DuckDB-only; this SQL belongs to the staging side/)
  })

  it("refuses a TEMP append outside a transaction", async () => {
    const pg = await openPostgres(await freshDatabaseUrl(), scope)
    const error = await Effect.runPromise(Effect.flip(pg.append("x", () => undefined, { temp: true })))
    expect(error.message).toMatch(/TEMP table/)
  })

  it("applies the migrations once when two processes race for them", async () => {
    const url = await freshDatabaseUrl()
    const pools = [connectPostgres(url, 2), connectPostgres(url, 2)]
    try {
      await Promise.all(pools.map((sql) => Effect.runPromise(migratePostgres(sql))))
      const [sql] = pools
      const applied = await sql.unsafe<Array<{ version: number; name: string }>>(
        "SELECT version, name FROM schema_migrations ORDER BY version"
      )
      expect(applied.map((row) => ({ version: row.version, name: row.name }))).toEqual(
        migrationFiles().map((m) => ({ version: m.version, name: m.name }))
      )
      // Applying again is a no-op.
      await Effect.runPromise(migratePostgres(pools[1]))
      const again = await sql.unsafe("SELECT count(*) AS n FROM schema_migrations")
      expect(again[0].n).toBe(BigInt(applied.length))
    } finally {
      await Promise.all(pools.map((sql) => sql.end()))
    }
  })

  it("partitions clicks by UTC day, today + 7 made ahead, and never refuses a click", async () => {
    const url = await freshDatabaseUrl()
    const pg = await openPostgres(url, scope)
    const partitions = await run(
      pg.queryAs(
        Schema.Struct({ name: Text }),
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'clicks'::regclass ORDER BY 1`
      )
    )
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
    const expected = Array.from({ length: 8 }, (_, i) => `clicks_${day(i).replaceAll("-", "")}`)
    expect(partitions.map((p) => p.name)).toEqual([...expected, "clicks_default"].sort())

    // A click 30 days ahead lands in the default partition, then moves into its day's partition when made.
    const later = `${day(30)}T12:00:00.000Z`
    const insert = `INSERT INTO clicks (clicked_at, tracking_id, tag, ip_hash, is_bot, is_unique) VALUES ($1::TIMESTAMPTZ, 't', 'x', 'h', false, true)`
    await run(pg.run(insert, [later]))
    await run(pg.run(insert, [`${day(0)}T00:00:00.000Z`]))
    const where = (table: string) =>
      Effect.map(pg.queryAs(Schema.Struct({ n: Count }), `SELECT count(*) AS n FROM ${table}`), (rows) => rows[0].n)
    expect(await run(where("clicks_default"))).toBe(1)
    await run(pg.run("SELECT create_click_partitions($1::DATE, 0)", [day(30)]))
    expect(await run(where("clicks_default"))).toBe(0)
    expect(await run(where(`clicks_${day(30).replaceAll("-", "")}`))).toBe(1)
    expect(await run(where("clicks"))).toBe(2)
  })
})
