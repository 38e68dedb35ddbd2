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

/** Items per run sorted whole by sortInSlices: a few ms of the event loop each. */
const SORTED_RUN = 4_096

/** `a` and `b` (each sorted by `compare`) merged, SLICE_MS at a time; on ties `a`'s item first. */
const mergeInSlices = <A>(
  a: ReadonlyArray<A>,
  b: ReadonlyArray<A>,
  compare: (x: A, y: A) => number
): Effect.Effect<Array<A>> =>
  Effect.gen(function* () {
    const out = new Array<A>(a.length + b.length)
    let i = 0
    let j = 0
    let k = 0
    while (k < out.length) {
      if (k > 0) yield* yieldToEventLoop
      const until = performance.now() + SLICE_MS
      do {
        for (let n = 0; n < 256 && k < out.length; n++)
          out[k++] = j >= b.length || (i < a.length && compare(a[i], b[j]) <= 0) ? a[i++] : b[j++]
      } while (k < out.length && performance.now() < until)
    }
    return out
  })

/**
 * `items` sorted by `compare` as Array.prototype.sort sorts them (stably),
 * the event loop turning between slices of the work: runs of SORTED_RUN items
 * are sorted whole, then merged pairwise SLICE_MS at a time. Sorting a
 * report's 200,000 conversion ids in one call held the event loop 100-375 ms
 * when they came in no order.
 */
export const sortInSlices = <A>(items: ReadonlyArray<A>, compare: (x: A, y: A) => number): Effect.Effect<Array<A>> =>
  Effect.gen(function* () {
    let runs: Array<Array<A>> = []
    for (let from = 0; from < items.length; from += SORTED_RUN) {
      if (from > 0) yield* yieldToEventLoop
      runs.push(items.slice(from, from + SORTED_RUN).sort(compare))
    }
    while (runs.length > 1) {
      const merged: Array<Array<A>> = []
      for (let at = 0; at < runs.length; at += 2)
        merged.push(at + 1 < runs.length ? yield* mergeInSlices(runs[at], runs[at + 1], compare) : runs[at])
      runs = merged
    }
    return runs[0] ?? []
  })

/** Strings in the order Array.prototype.sort gives them with no comparator (UTF-16 code units). */
export const byCodeUnits = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0)
