import { Duration, Effect, Layer, Schedule } from "effect"
import { AppConfig } from "../infra/AppConfig.ts"
import { ConversionLedger } from "./ConversionLedger.ts"

// The safety net behind attribution: conversions are attributed when they
// arrive, when a report changes, and when a link they name is created here.
// A link can still appear another way (written by another replica or a
// restored backup, inserted by an operator), so every INTERVAL the whole set
// of unattributed conversions is matched against the links again. It runs
// only in the process holding the WorkerLock (conversions/layer.ts). One
// query when nothing is pending (a scan of unattributed rows).
export const REATTRIBUTION_INTERVAL = Duration.minutes(15)

export const ReattributionSchedule = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (!config.schedulesEnabled) return
    const ledger = yield* ConversionLedger
    const pass = ledger.reattribute().pipe(
      Effect.tap((count) =>
        count === 0
          ? Effect.void
          : Effect.logInfo("late conversions attributed").pipe(
              Effect.annotateLogs({ event: "conversions_reattributed", trigger: "schedule", count })
            )
      ),
      Effect.catch((error) => Effect.logWarning("scheduled re-attribution failed; the next pass retries", error))
    )
    // The first pass at start-up catches links restored while the process was down.
    yield* Effect.forkScoped(Effect.repeat(pass, Schedule.spaced(REATTRIBUTION_INTERVAL)))
  })
)
