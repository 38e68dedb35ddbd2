import { Effect } from "effect"

// Work that runs row by row in JavaScript inside the service that answers
// requests on the same thread (a feed's flagged rows judged by the Schema
// rule, its rejections written) runs in slices: between two, the event loop
// answers what arrived meanwhile. setImmediate rather than Effect's own
// yield, which may resume the fiber before the loop has polled for I/O.

/** Lets the event loop run its pending I/O and timers before the calling fiber goes on. */
export const yieldToEventLoop: Effect.Effect<void> = Effect.callback<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})
