import { Context, Effect, Layer } from "effect"
import { AppConfig } from "../infra/AppConfig.ts"
import { Metrics } from "../infra/Metrics.ts"
import { ClickStorage } from "./ClickStorage.ts"

export { retentionCutoff } from "./clickHousekeeping.ts"

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

export class ClickMaintenance extends Context.Service<ClickMaintenance, ClickMaintenanceShape>()(
  "app/clicks/ClickMaintenance"
) {
  static readonly layer = Layer.effect(
    ClickMaintenance,
    Effect.gen(function* () {
      const storage = yield* ClickStorage
      const config = yield* AppConfig
      const metrics = yield* Metrics
      const failures = metrics.counter("click_maintenance_failures_total", "Failed click housekeeping passes")
      // A failed pass is logged and retried at the next one; clicks keep flowing into DEFAULT meanwhile.
      const run = storage.housekeeping(config.clickRetentionDays).pipe(
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
