import { Effect, Schema } from "effect"
import { Count, Text } from "../infra/columns.ts"
import type { Tx } from "../infra/Database.ts"

// PostgreSQL keeps clicks in one partition per UTC day (plus a DEFAULT one,
// so no click is ever refused). Every replica runs this maintenance; an
// advisory lock taken for the transaction makes them take turns.
// - ahead: the next DAYS_AHEAD days get their partition before their first
//   click. A day whose clicks already landed in DEFAULT (the service was down
//   longer than that) moves them into its new partition in the same
//   transaction, since PostgreSQL refuses a partition whose rows sit in DEFAULT.
// - retention: partitions wholly older than the cutoff are dropped (instant,
//   no row-by-row DELETE, no bloat); DEFAULT's old rows are deleted.
export const DAYS_AHEAD = 7
export const DAY_MS = 86_400_000
/** pg_advisory_xact_lock key of click-partition maintenance ("clickprt" in ASCII). */
export const PARTITION_LOCK = 0x636c69636b707274n

const PartitionRow = Schema.Struct({ name: Text, bound: Text })
const CountRow = Schema.Struct({ n: Count })

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

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`
const literalUtc = (ms: number) => `'${new Date(ms).toISOString()}'`
export const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS
const partitionName = (from: number) => `clicks_${new Date(from).toISOString().slice(0, 10).replaceAll("-", "")}`

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

/** Creates the missing day partitions from `today` to `today + DAYS_AHEAD`; returns their names. */
export const ensurePartitions = (tx: Tx, now: number) =>
  Effect.gen(function* () {
    yield* tx.run(`SELECT pg_advisory_xact_lock(${PARTITION_LOCK})`)
    const partitions = yield* listPartitions(tx)
    const fallback = partitions.find((p) => p.range === undefined)
    const created: Array<string> = []
    for (let day = 0; day <= DAYS_AHEAD; day++) {
      const from = dayStart(now) + day * DAY_MS
      const to = from + DAY_MS
      if (partitions.some((p) => p.range !== undefined && p.range.from < to && p.range.to > from)) continue
      const name = partitionName(from)
      const between = `clicked_at >= ${literalUtc(from)} AND clicked_at < ${literalUtc(to)}`
      const stranded =
        fallback === undefined
          ? 0
          : (yield* tx.queryAs(CountRow, `SELECT count(*) AS n FROM ${quoteIdent(fallback.name)} WHERE ${between}`))[0]
              .n
      if (fallback !== undefined && stranded > 0) {
        yield* tx.run(
          `CREATE TEMP TABLE clicks_stranded ON COMMIT DROP AS
           WITH moved AS (DELETE FROM ${quoteIdent(fallback.name)} WHERE ${between} RETURNING *) SELECT * FROM moved`
        )
      }
      yield* tx.run(
        `CREATE TABLE ${quoteIdent(name)} PARTITION OF clicks FOR VALUES FROM (${literalUtc(from)}) TO (${literalUtc(to)})`
      )
      if (stranded > 0) {
        yield* tx.run("INSERT INTO clicks SELECT * FROM clicks_stranded")
        yield* tx.run("DROP TABLE clicks_stranded")
      }
      created.push(name)
    }
    return created
  })

/** Drops the day partitions wholly before `cutoff` and deletes DEFAULT's rows before it; returns the dropped names. */
export const dropPartitionsBefore = (tx: Tx, cutoff: number) =>
  Effect.gen(function* () {
    yield* tx.run(`SELECT pg_advisory_xact_lock(${PARTITION_LOCK})`)
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
