import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { forEachInSlices, SLICE_MS } from "../../infra/yieldToEventLoop.ts"

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
