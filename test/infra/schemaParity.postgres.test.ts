import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Database } from "../../infra/Database.ts"
import { connectPostgres } from "../../infra/postgres/client.ts"
import { migratePostgres } from "../../infra/postgres/migrate.ts"
import { freshDatabaseUrl } from "../support/postgres.ts"
import { readDuckDbSchema, readPostgresSchema, type StoreSchema } from "./schemaCatalogs.ts"
import { schemaDifferences, sameType, unexplained } from "./schemaDifferences.ts"
import { ALLOWED_DIFFERENCES } from "./schemaParityAllowed.ts"

// One schema on both stores: a fresh DuckDB migrated by infra/schema.ts and a
// fresh PostgreSQL database migrated by infra/postgres/migrate.ts must have
// the same tables, columns (types mapped by TYPE_EQUIVALENTS, nullability,
// order), keys and indexes, except the differences schemaParityAllowed.ts
// lists with their reasons. A migration added to one store only fails here.

const scope = Effect.runSync(Scope.make())
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

/** A fresh in-memory DuckDB, migrated; `change` runs on it before its catalog is read. */
const duckDbSchema = async (change: ReadonlyArray<string> = []): Promise<StoreSchema> => {
  const db = await Effect.runPromise(Database.make(":memory:").pipe(Scope.provide(scope)))
  for (const statement of change) await Effect.runPromise(db.run(statement))
  return Effect.runPromise(readDuckDbSchema(db))
}

/** A fresh PostgreSQL database, migrated; `change` runs on it before its catalog is read. */
const postgresSchema = async (change: ReadonlyArray<string> = []): Promise<StoreSchema> => {
  const sql = connectPostgres(await freshDatabaseUrl(), 1)
  try {
    await Effect.runPromise(migratePostgres(sql))
    for (const statement of change) await sql.unsafe(statement)
    return await readPostgresSchema(sql)
  } finally {
    await sql.end()
  }
}

const unexplainedDifferences = (duckDb: StoreSchema, postgres: StoreSchema) =>
  unexplained(schemaDifferences(duckDb, postgres), ALLOWED_DIFFERENCES).differences.toSorted()

// Both stores as migrated, read once for the whole file.
let duckDb: StoreSchema
let postgres: StoreSchema
beforeAll(async () => {
  ;[duckDb, postgres] = await Promise.all([duckDbSchema(), postgresSchema()])
})

describe("one schema on both stores", () => {
  it("differs only where the allow-list says why", () => {
    expect(unexplainedDifferences(duckDb, postgres)).toEqual([])
  })

  it("keeps no allowance for a difference that is gone", () => {
    expect(unexplained(schemaDifferences(duckDb, postgres), ALLOWED_DIFFERENCES).staleAllowances).toEqual([])
  })

  // The catalogs are really read: keys, expression indexes, views and types come through on both.
  it("reads each store's keys, indexes, views and types from its catalog", () => {
    for (const schema of [duckDb, postgres]) {
      expect(schema.get("tracking_links")?.keys).toEqual([
        "PRIMARY KEY (id)",
        "UNIQUE (coalesce(partner_id,0), tag, normalized_url, coalesce(market,''))"
      ])
      expect(schema.get("partners")?.keys).toEqual(["PRIMARY KEY (id)", "UNIQUE (key_hash)", "UNIQUE (tag)"])
      expect(schema.get("price_observations")?.kind).toBe("view")
    }
    expect(duckDb.get("price_history")?.indexes).toEqual(["(product_id)"])
    expect(duckDb.get("programs")?.columns.find((column) => column.name === "commission_rate")).toEqual({
      name: "commission_rate",
      type: "DECIMAL(18,4)",
      notNull: true
    })
    expect(postgres.get("programs")?.columns.find((column) => column.name === "commission_rate")).toEqual({
      name: "commission_rate",
      type: "numeric(18,4)",
      notNull: true
    })
  })
})

describe("the parity check itself (synthetic differences)", () => {
  // What a change adds to the stores as migrated, so a real difference fails only the tests above.
  const introducedBy = (changedDuckDb: StoreSchema, changedPostgres: StoreSchema) => {
    const before = new Set(unexplainedDifferences(duckDb, postgres))
    return unexplainedDifferences(changedDuckDb, changedPostgres).filter((difference) => !before.has(difference))
  }

  it("fails on a column or index added to DuckDB only", async () => {
    const changed = await duckDbSchema([
      "ALTER TABLE products ADD COLUMN shadow_price DECIMAL(18,4)",
      "CREATE INDEX conversions_status ON conversions (status)"
    ])
    expect(introducedBy(changed, postgres)).toEqual([
      "column products.shadow_price only in DuckDB",
      "index conversions (status) only in DuckDB"
    ])
  })

  it("fails on a PostgreSQL-only column, table or key, and on a type, nullability or column order apart", async () => {
    const changed = await postgresSchema([
      "ALTER TABLE products ADD COLUMN shadow_price numeric(18,4)",
      "CREATE TABLE shadow_table (id text)",
      "ALTER TABLE partners DROP CONSTRAINT partners_key_hash_key",
      "ALTER TABLE programs ALTER COLUMN commission_rate TYPE numeric(18,2)",
      "ALTER TABLE partners ALTER COLUMN app_url SET NOT NULL",
      "ALTER TABLE search_sync_state DROP COLUMN feed",
      "ALTER TABLE search_sync_state ADD COLUMN feed text"
    ])
    expect(introducedBy(duckDb, changed)).toEqual([
      "column partners.app_url: NOT NULL only on PostgreSQL",
      "column products.shadow_price only in PostgreSQL",
      "column programs.commission_rate: DECIMAL(18,4) on DuckDB, numeric(18,2) on PostgreSQL",
      "key partners UNIQUE (key_hash) only in DuckDB",
      "search_sync_state: column order (index_name, id, feed, hash) on DuckDB, (index_name, id, hash, feed) on PostgreSQL",
      "table shadow_table only in PostgreSQL"
    ])
  })

  it("maps types through the equivalence table only", () => {
    expect(sameType("DECIMAL(18,4)", "numeric(18,4)")).toBe(true)
    expect(sameType("DECIMAL(18,4)", "numeric(18,2)")).toBe(false)
    expect(sameType("DECIMAL(18,4)", "numeric")).toBe(false)
    expect(sameType("VARCHAR", "text")).toBe(true)
    expect(sameType("VARCHAR[]", "text[]")).toBe(true)
    expect(sameType("TIMESTAMP WITH TIME ZONE", "timestamp with time zone")).toBe(true)
    expect(sameType("TIMESTAMP WITH TIME ZONE", "timestamp without time zone")).toBe(false)
    expect(sameType("JSON", "jsonb")).toBe(true)
    expect(sameType("INTEGER", "bigint")).toBe(false)
    expect(sameType("HUGEINT", "numeric(38,0)")).toBe(false)
  })
})
