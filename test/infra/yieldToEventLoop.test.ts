import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { watchMainThread } from "../../bench/support/threadCpu.ts"
import { byCodeUnits, forEachInSlices, SLICE_MS, sortInSlices } from "../../infra/yieldToEventLoop.ts"

/** Holds the thread `ms` milliseconds, as a heavy item (a report's record decided) does. */
const busy = (ms: number) => {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // spinning: the work of one item
  }
}

describe("forEachInSlices", () => {
  it("calls every item once, in order, with its index", async () => {
    const seen: Array<[string, number]> = []
    await Effect.runPromise(forEachInSlices(["a", "b", "c"], (item, index) => void seen.push([item, index])))
    expect(seen).toEqual([
      ["a", 0],
      ["b", 1],
      ["c", 2]
    ])
    await Effect.runPromise(forEachInSlices([], () => seen.push(["never", -1])))
    expect(seen).toHaveLength(3)
  })

  it("lets the event loop turn after each slice of time, however heavy the items", async () => {
    // 40 items of 1 ms: one slice by count (1,000 a slice) would hold the loop 40 ms.
    const ticks: Array<number> = []
    const timer = setInterval(() => ticks.push(performance.now()), 1)
    const stretches: Array<number> = []
    let sliceStart = performance.now()
    let lastTicks = 0
    await Effect.runPromise(
      forEachInSlices(Array.from({ length: 40 }), () => {
        if (ticks.length !== lastTicks) {
          // the timer ran since the last item: a turn of the loop ended the previous slice
          stretches.push(performance.now() - sliceStart)
          sliceStart = performance.now()
          lastTicks = ticks.length
        }
        busy(1)
      })
    )
    clearInterval(timer)
    stretches.push(performance.now() - sliceStart)
    // slices of SLICE_MS (8 ms): about five; a loaded machine makes more of them, never fewer
    expect(SLICE_MS).toBeLessThanOrEqual(10)
    expect(stretches.length).toBeGreaterThanOrEqual(3)
  })
})

/** A fixed sequence of pseudo-random integers below `bound` (the same on every run). */
const draws = (count: number, bound: number, seed = 7) => {
  let state = seed
  return Array.from({ length: count }, () => {
    state = (state * 48_271) % 2_147_483_647
    return state % bound
  })
}

describe("sortInSlices", () => {
  it("sorts as Array.prototype.sort does, stably, across the runs it sorts whole", async () => {
    // sizes around the runs of 4,096 it sorts whole and merges
    for (const size of [0, 1, 2, 4_095, 4_096, 4_097, 9_000, 20_000]) {
      const items = draws(size, 50).map((key, seq) => ({ key, seq }))
      const byKey = (a: { key: number }, b: { key: number }) => a.key - b.key
      expect(await Effect.runPromise(sortInSlices(items, byKey)), `${size} items`).toEqual([...items].sort(byKey))
    }
    const ids = draws(10_000, 1_000_000).map((n) => `awin:${n}`)
    expect(await Effect.runPromise(sortInSlices(ids, byCodeUnits))).toEqual([...ids].sort())
  })

  it("lets the event loop turn while it sorts a report's worth of ids", async () => {
    const ids = draws(200_000, 1_000_000_000).map((n) => `awin:${n}`)
    // this thread's CPU between two turns of a 2 ms timer (a loaded machine does not stretch it)
    const watch = watchMainThread()
    const sorted = await Effect.runPromise(sortInSlices(ids, byCodeUnits))
    const { longestOutsideGcMs } = watch.stop()
    expect(sorted).toHaveLength(200_000)
    // in one call: 95-155 ms; merged with a turn only within each merge (not between small ones): 72-108 ms
    expect(longestOutsideGcMs).toBeLessThan(50)
  })
})
