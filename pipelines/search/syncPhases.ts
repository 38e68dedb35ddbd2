import { Clock, Effect } from "effect"

// Where a sync's time went, phase by phase: shared by the sync policy and the
// SQL steps it runs, so one products sync reports one ordered list (the bench
// and the operator's status read it).

export interface SyncPhase {
  readonly name: string
  readonly ms: number
}

/** Runs `effect`, recording how long it took as phase `name`. */
export const timedPhase =
  (phases: Array<SyncPhase>, name: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.gen(function* () {
      const started = yield* Clock.currentTimeMillis
      const value = yield* effect
      phases.push({ name, ms: (yield* Clock.currentTimeMillis) - started })
      return value
    })
