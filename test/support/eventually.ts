import { Effect } from "effect"
import { expect } from "vitest"

/** Lets forked fibers run until `done` holds (a bounded number of turns). */
export const eventually = (done: () => boolean) =>
  Effect.gen(function* () {
    for (let turn = 0; turn < 10_000 && !done(); turn++) yield* Effect.yieldNow
    expect(done()).toBe(true)
  })
