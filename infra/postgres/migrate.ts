import { Effect } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { toError } from "../Store.ts"
import type { Sql } from "./client.ts"

// PostgreSQL migrations: versioned files `migrations/NNNN_snake_name.sql`,
// append-only (change a table with a new file, never by editing an applied
// one). Every process applies them at start; the first to take the advisory
// lock does the work, the others block on it and then find them applied.

/**
 * pg_advisory_lock key of the migration step: 0x41464d31, "AFM1". Any other
 * advisory lock of the service must use another key.
 */
export const MIGRATION_LOCK = 1_095_126_321

/** Days of click partitions made ahead at each start (today + 7). */
export const CLICK_PARTITION_DAYS_AHEAD = 7

const MIGRATIONS_DIR = join(import.meta.dirname, "migrations")
const FILE_NAME = /^(\d{4})_([a-z0-9_]+)\.sql$/

export interface Migration {
  readonly version: number
  readonly name: string
  readonly sql: string
}

export const migrationFiles = (dir = MIGRATIONS_DIR): ReadonlyArray<Migration> =>
  readdirSync(dir)
    .filter((file) => file.endsWith(".sql"))
    .map((file) => {
      const match = FILE_NAME.exec(file)
      if (match === null) throw new Error(`migration file ${file} is not named NNNN_snake_name.sql`)
      return { version: Number(match[1]), name: match[2], sql: readFileSync(join(dir, file), "utf8") }
    })
    .sort((a, b) => a.version - b.version)

/** Applies pending migrations (each file in its own transaction) and makes the coming days' click partitions. */
export const migratePostgres = (sql: Sql, migrations: ReadonlyArray<Migration> = migrationFiles()) =>
  Effect.tryPromise({
    try: async () => {
      const connection = await sql.reserve()
      try {
        await connection.unsafe(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`)
        try {
          await connection.unsafe(
            `CREATE TABLE IF NOT EXISTS schema_migrations (
               version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`
          )
          const applied = new Set(
            (await connection.unsafe<Array<{ version: number }>>("SELECT version FROM schema_migrations")).map(
              (row) => row.version
            )
          )
          for (const migration of migrations) {
            if (applied.has(migration.version)) continue
            await connection.unsafe("BEGIN")
            try {
              await connection.unsafe(migration.sql).simple()
              await connection.unsafe("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
                migration.version,
                migration.name
              ])
              await connection.unsafe("COMMIT")
            } catch (cause) {
              await connection.unsafe("ROLLBACK").catch(() => undefined)
              throw new Error(`migration ${migration.version}_${migration.name} failed: ${String(cause)}`, { cause })
            }
          }
          await connection.unsafe(`SELECT create_click_partitions(current_date, ${CLICK_PARTITION_DAYS_AHEAD})`)
        } finally {
          await connection.unsafe(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`)
        }
      } finally {
        connection.release()
      }
    },
    catch: toError("PostgreSQL migrations")
  })
