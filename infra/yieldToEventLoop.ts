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
 * event loop turn between two slices.
 */
export const forEachSlice = <A, E, R>(
  items: ReadonlyArray<A>,
  size: number,
  each: (slice: ReadonlyArray<A>) => Effect.Effect<void, E, R>
): Effect.Effect<void, E, R> =>
  Effect.gen(function* () {
    for (let from = 0; from < items.length; from += size) {
      if (from > 0) yield* yieldToEventLoop
      yield* each(items.slice(from, from + size))
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

/** Items per run sorted whole by sortInSlices: a few ms of the event loop each. */
const SORTED_RUN = 4_096

/** Items merged between two readings of the clock. */
const MERGED_PER_READING = 256

/**
 * `items` sorted by `compare` as Array.prototype.sort sorts them (stably),
 * the event loop turning after every SLICE_MS of the work: runs of
 * SORTED_RUN items are sorted whole, then merged pairwise, on ties the
 * earlier run's item first. Sorting a report's 200,000 conversion ids in one
 * call held the event loop 95-155 ms when they came in no order.
 */
export const sortInSlices = <A>(items: ReadonlyArray<A>, compare: (x: A, y: A) => number): Effect.Effect<Array<A>> =>
  Effect.gen(function* () {
    let until = performance.now() + SLICE_MS
    const turn = Effect.andThen(
      yieldToEventLoop,
      Effect.sync(() => void (until = performance.now() + SLICE_MS))
    )
    let runs: Array<Array<A>> = []
    for (let from = 0; from < items.length; from += SORTED_RUN) {
      if (performance.now() >= until) yield* turn
      runs.push(items.slice(from, from + SORTED_RUN).sort(compare))
    }
    while (runs.length > 1) {
      const merged: Array<Array<A>> = []
      for (let at = 0; at < runs.length; at += 2) {
        const a = runs[at]
        const b = runs[at + 1]
        // an odd run out goes to the next level as it is
        if (b === undefined) {
          merged.push(a)
          continue
        }
        const out: Array<A> = []
        let i = 0
        let j = 0
        while (i < a.length || j < b.length) {
          if (performance.now() >= until) yield* turn
          for (let n = 0; n < MERGED_PER_READING && (i < a.length || j < b.length); n++)
            out.push(j >= b.length || (i < a.length && compare(a[i], b[j]) <= 0) ? a[i++] : b[j++])
        }
        merged.push(out)
      }
      runs = merged
    }
    return runs[0] ?? []
  })

/** Strings in the order Array.prototype.sort gives them with no comparator (UTF-16 code units). */
export const byCodeUnits = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0)
