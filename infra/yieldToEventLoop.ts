import { Effect } from "effect"

// Work that runs row by row in JavaScript inside the service that answers
// requests on the same thread (a feed's flagged rows judged by the Schema
// rule, its rejections written, a report's records decided) runs in slices:
// between two, the event loop answers what arrived meanwhile. setImmediate rather than Effect's own
// yield, which may resume the fiber before the loop has polled for I/O.

/** Lets the event loop run its pending I/O and timers before the calling fiber goes on. */
export const yieldToEventLoop: Effect.Effect<void> = Effect.callback<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/**
 * Runs `each` over `items` a slice of `size` at a time, in order, letting the
 * event loop turn between two slices; `from` is the slice's first index in `items`.
 */
export const forEachSlice = <A, E, R>(
  items: ReadonlyArray<A>,
  size: number,
  each: (slice: ReadonlyArray<A>, from: number) => Effect.Effect<void, E, R>
): Effect.Effect<void, E, R> =>
  Effect.gen(function* () {
    for (let from = 0; from < items.length; from += size) {
      if (from > 0) yield* yieldToEventLoop
      yield* each(items.slice(from, from + size), from)
    }
  })

/** Calls `f` on every item of `items` with its index, in order, a slice of `size` at a time (forEachSlice). */
export const forEachInSlices = <A>(
  items: ReadonlyArray<A>,
  size: number,
  f: (item: A, index: number) => void
): Effect.Effect<void> =>
  forEachSlice(items, size, (slice, from) =>
    Effect.sync(() => {
      for (let at = 0; at < slice.length; at++) f(slice[at], from + at)
    })
  )
