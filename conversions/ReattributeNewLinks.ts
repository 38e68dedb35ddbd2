import { Effect, Layer } from "effect"
import { LinkEvents } from "../infra/events/LinkEvents.ts"
import { ConversionLedger } from "./ConversionLedger.ts"

// A conversion can name a link before the link exists here (made on another
// replica, restored from a backup): when links are created, conversions
// that named them are attributed now, by tracking id only (one query per
// batch of new links). In this subscriber's fiber, so creating a link never
// waits on the ledger; a failure is logged, and ReattributionSchedule retries.
export const ReattributeNewLinks = Layer.effectDiscard(
  Effect.gen(function* () {
    const ledger = yield* ConversionLedger
    yield* (yield* LinkEvents).onCreated(({ trackingIds }) =>
      ledger.reattributeLinks(trackingIds).pipe(
        Effect.tap((count) =>
          count === 0
            ? Effect.void
            : Effect.logInfo("late conversions attributed").pipe(
                Effect.annotateLogs({ event: "conversions_reattributed", trigger: "link_created", count })
              )
        ),
        Effect.catchCause((cause) =>
          Effect.logWarning("re-attribution for new links failed; the schedule retries", cause)
        )
      )
    )
  })
)
