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

/** How long one slice of forEachInSlices runs before the event loop turns (ms). */
export const SLICE_MS = 8

/**
 * Items called between two readings of the clock: a reading (~90 ns) costs
 * more than a light item, and a slice overruns by at most this many heavy ones.
 */
const ITEMS_PER_READING = 8

/**
 * Calls `f` on every item of `items` with its index, in order, letting the
 * event loop turn after every SLICE_MS of it. A slice is bounded by time, not
 * by a count: the same 1,000 records took 1 ms in one pass and 50 ms in
 * another (a report's decisions on a loaded machine), and a count that suits
 * the heaviest pass makes the light ones turn the loop for nothing.
 */
export const forEachInSlices = <A>(items: ReadonlyArray<A>, f: (item: A, index: number) => void): Effect.Effect<void> =>
  Effect.gen(function* () {
    let at = 0
    while (at < items.length) {
      if (at > 0) yield* yieldToEventLoop
      const until = performance.now() + SLICE_MS
      do {
        f(items[at], at)
        at++
      } while (at < items.length && (at % ITEMS_PER_READING !== 0 || performance.now() < until))
    }
  })
