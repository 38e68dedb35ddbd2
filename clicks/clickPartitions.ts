import { Effect, Schema } from "effect"
import { Text } from "../infra/columns.ts"
import { quoteIdent, type Tx } from "../infra/Database.ts"
import { CLICK_PARTITION_DAYS_AHEAD, MIGRATION_LOCK } from "../infra/postgres/migrate.ts"

// PostgreSQL keeps clicks in one partition per UTC day (plus a DEFAULT one,
// so no click is ever refused). Every replica runs this maintenance; the
// migration lock, taken for the transaction, makes them take turns with each
// other and with a replica starting up (migrations make partitions too).
// - ahead: the coming days get their partition before their first
//   click (start-up makes them too, but a replica may run for weeks).
// - retention: partitions wholly older than the cutoff are dropped (instant,
//   no row-by-row DELETE, no bloat); DEFAULT's old rows are deleted.
export const DAY_MS = 86_400_000

const PartitionRow = Schema.Struct({ name: Text, bound: Text })

export interface Partition {
  readonly name: string
  /** Epoch ms of FROM and TO; undefined for the DEFAULT partition. */
  readonly range: { readonly from: number; readonly to: number } | undefined
}

const BOUND = /FROM \('([^']+)'\) TO \('([^']+)'\)/
// pg_get_expr prints bounds in the session time zone; the transaction sets UTC, giving "2026-11-24 00:00:00+00".
const boundMs = (text: string) => Date.parse(text.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00"))

export const parseBound = (bound: string): Partition["range"] => {
  const match = BOUND.exec(bound)
  return match === null ? undefined : { from: boundMs(match[1]), to: boundMs(match[2]) }
}

const literalUtc = (ms: number) => `'${new Date(ms).toISOString()}'`
export const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS

export const listPartitions = (tx: Tx) =>
  Effect.gen(function* () {
    yield* tx.run("SET LOCAL TIME ZONE 'UTC'")
    const rows = yield* tx.queryAs(
      PartitionRow,
      `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'clicks'::regclass ORDER BY c.relname`
    )
    return rows.map((row): Partition => ({ name: row.name, range: parseBound(row.bound) }))
  })

/**
 * Makes the day partitions of `today` .. `today + CLICK_PARTITION_DAYS_AHEAD` that are
 * missing (create_click_partitions, migration 0001, which also moves a day's
 * clicks out of DEFAULT first); returns the names it created.
 */
export const ensurePartitions = (tx: Tx, now: number) =>
  Effect.gen(function* () {
    yield* tx.run(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`)
    const before = new Set((yield* listPartitions(tx)).map((p) => p.name))
    yield* tx.run(`SELECT create_click_partitions(CAST($1 AS DATE), ${CLICK_PARTITION_DAYS_AHEAD})`, [
      new Date(dayStart(now)).toISOString().slice(0, 10)
    ])
    return (yield* listPartitions(tx)).map((p) => p.name).filter((name) => !before.has(name))
  })

/** Drops the day partitions wholly before `cutoff` and deletes DEFAULT's rows before it; returns the dropped names. */
export const dropPartitionsBefore = (tx: Tx, cutoff: number) =>
  Effect.gen(function* () {
    yield* tx.run(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`)
    const dropped: Array<string> = []
    for (const partition of yield* listPartitions(tx)) {
      if (partition.range === undefined) {
        yield* tx.run(`DELETE FROM ${quoteIdent(partition.name)} WHERE clicked_at < ${literalUtc(cutoff)}`)
      } else if (partition.range.to <= cutoff) {
        yield* tx.run(`DROP TABLE ${quoteIdent(partition.name)}`)
        dropped.push(partition.name)
      }
    }
    return dropped
  })
