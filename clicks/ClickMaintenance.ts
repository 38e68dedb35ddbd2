import { Clock, Context, Effect, Layer, Option } from "effect"
import { UNIQUE_WINDOW_MS } from "../domain/clicks/UniqueWindow.ts"
import { AppConfig } from "../infra/AppConfig.ts"
import { Database, type DatabaseShape } from "../infra/Database.ts"
import { Metrics } from "../infra/Metrics.ts"
import { DAY_MS, dayStart, dropPartitionsBefore, ensurePartitions } from "./clickPartitions.ts"

// Click housekeeping, at start and then hourly (idempotent, so every replica
// may run it; PostgreSQL's partition steps take the migration lock):
// - PostgreSQL: day partitions for the week ahead; unique-click windows that
//   have ended (an hour old: the next click of that visitor is unique anyway);
// - CLICK_RETENTION_DAYS (unset: keep every click; the partner statistics'
//   totals count all of them): clicks from before the start of the UTC day
//   that many days ago go. PostgreSQL drops whole day partitions; DuckDB
//   deletes the rows.
const EVERY = "1 hour"

export interface ClickMaintenanceShape {
  /** One pass now (tests, and the first run at start). */
  readonly run: Effect.Effect<void>
}

/** Start of the oldest UTC day kept. */
export const retentionCutoff = (now: number, days: number) => dayStart(now) - days * DAY_MS

/** Replicas share PostgreSQL: clicks are day partitions, and unique-click windows are rows. */
const partitionedPass = (db: DatabaseShape, retentionDays: Option.Option<number>) =>
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
const singleProcessPass = (db: DatabaseShape, retentionDays: Option.Option<number>) =>
  Effect.gen(function* () {
    if (Option.isNone(retentionDays)) return
    const cutoff = retentionCutoff(yield* Clock.currentTimeMillis, retentionDays.value)
    yield* db.run("DELETE FROM clicks WHERE clicked_at < $1::TIMESTAMPTZ", [new Date(cutoff).toISOString()])
  })

export class ClickMaintenance extends Context.Service<ClickMaintenance, ClickMaintenanceShape>()(
  "app/clicks/ClickMaintenance"
) {
  static readonly layer = Layer.effect(
    ClickMaintenance,
    Effect.gen(function* () {
      const db = yield* Database
      const config = yield* AppConfig
      const metrics = yield* Metrics
      const failures = metrics.counter("click_maintenance_failures_total", "Failed click housekeeping passes")
      // Chosen once, by the store.
      const pass = db.sharedWithReplicas ? partitionedPass : singleProcessPass
      // A failed pass is logged and retried at the next one; clicks keep flowing into DEFAULT meanwhile.
      const run = pass(db, config.clickRetentionDays).pipe(
        Effect.catchCause((cause) =>
          Effect.andThen(
            Effect.sync(() => failures.inc()),
            Effect.logError("click housekeeping failed; will retry", cause)
          )
        )
      )
      yield* run
      yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(EVERY), run)))
      return ClickMaintenance.of({ run })
    })
  )
}
