import { Clock, Effect, Option } from "effect"
import { UNIQUE_WINDOW_MS } from "../domain/clicks/UniqueWindow.ts"
import type { DatabaseShape } from "../infra/Database.ts"
import { DAY_MS, dayStart, dropPartitionsBefore, ensurePartitions } from "./clickPartitions.ts"

// The two housekeeping passes (ClickMaintenance.ts runs one of them hourly;
// ClickStorage.ts says which).

/** Start of the oldest UTC day kept. */
export const retentionCutoff = (now: number, days: number) => dayStart(now) - days * DAY_MS

/** Replicas share PostgreSQL: clicks are day partitions, and unique-click windows are rows. */
export const partitionedPass = (db: DatabaseShape, retentionDays: Option.Option<number>) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const created = yield* db.transaction((tx) => ensurePartitions(tx, now))
    if (created.length > 0) yield* Effect.logInfo("click partitions created", { partitions: created })
    yield* db.run("DELETE FROM click_windows WHERE window_start_ms <= $1", [now - UNIQUE_WINDOW_MS])
    if (Option.isSome(retentionDays)) {
      const cutoff = retentionCutoff(now, retentionDays.value)
      const dropped = yield* db.transaction((tx) => dropPartitionsBefore(tx, cutoff))
      if (dropped.length > 0) yield* Effect.logInfo("click partitions dropped (retention)", { partitions: dropped })
    }
  })

/** One process owns the store: its unique windows live in memory, and old clicks go row by row. */
export const singleProcessPass = (db: DatabaseShape, retentionDays: Option.Option<number>) =>
  Effect.gen(function* () {
    if (Option.isNone(retentionDays)) return
    const cutoff = retentionCutoff(yield* Clock.currentTimeMillis, retentionDays.value)
    yield* db.run("DELETE FROM clicks WHERE clicked_at < $1::TIMESTAMPTZ", [new Date(cutoff).toISOString()])
  })
