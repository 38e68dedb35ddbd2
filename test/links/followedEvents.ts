import { Effect } from "effect"
import { type CatalogChanged, CatalogEvents } from "../../infra/events/CatalogEvents.ts"

/** Subscribes, runs `act`, and collects the followed events for `ms`. */
/** Anything that runs effects against a process's CatalogEvents: the whole service, or a feature layer. */
interface Runs {
  run<A, E>(effect: Effect.Effect<A, E, CatalogEvents>): Promise<A>
}

export const followedDuring = (target: Runs, act: Effect.Effect<unknown, unknown, any>, ms: number) =>
  target.run(
    Effect.scoped(
      Effect.gen(function* () {
        const seen: Array<CatalogChanged> = []
        yield* (yield* CatalogEvents).subscribe("test", (event) =>
          Effect.sync(() => {
            if (event.change._tag === "Followed") seen.push(event)
          })
        )
        yield* act
        yield* Effect.sleep(ms)
        return seen
      })
    ) as Effect.Effect<Array<CatalogChanged>>
  )
