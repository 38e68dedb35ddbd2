import { setTimeout as sleep } from "node:timers/promises"
import { Worker } from "node:worker_threads"
import { describe, expect, it } from "vitest"

// A worker's heap pages outlive it: V8 hands the pages pooled in a worker's
// isolate to another isolate of the process when the worker ends, and that
// isolate unmaps them in one task 8 s later. Here that isolate is this
// thread's, as it is the service's main thread. A worker that went through
// 100-200 MB of heap (a parsed report's worth) left the main thread 67-87 ms
// of unmapping in one stretch, every request waiting; released by the worker
// first (infra/workerHeap.ts), 0-3 ms. Measured as the main thread's CPU between
// two turns of a 2 ms timer, which a loaded machine does not stretch.

/** V8's delay, from a worker's end to the task that unmaps its pooled pages. */
const RELEASE_DELAY_MS = 8_000
/** Each worker's window around that task: from 1 s before it to 1.5 s after. */
const WINDOW = { before: 1_000, after: 1_500 }
/** Rounds of 600,000 objects: ~100 MB of heap pages. */
const ROUNDS = 3

/** Runs the garbage worker to its end; answers what it said. */
const runGarbageWorker = async (release: boolean, rounds: number) => {
  const worker = new Worker(new URL("../support/garbageWorker.ts", import.meta.url), {
    workerData: { release, rounds },
    resourceLimits: { maxOldGenerationSizeMb: 512 }
  })
  const said: Array<unknown> = []
  worker.on("message", (message) => said.push(message))
  await new Promise<void>((resolve, reject) => {
    worker.on("error", reject)
    worker.on("exit", () => resolve())
  })
  return said
}

/** This thread's CPU between two turns of a 2 ms timer, each stretch kept with its end (performance.now). */
const watchStretches = () => {
  const stretches: Array<{ readonly at: number; readonly cpuMs: number }> = []
  let last = process.threadCpuUsage()
  const timer = setInterval(() => {
    const used = process.threadCpuUsage(last)
    stretches.push({ at: performance.now(), cpuMs: (used.user + used.system) / 1000 })
    last = process.threadCpuUsage()
  }, 2)
  return {
    stop: () => clearInterval(timer),
    /** The longest stretch in the window around V8's task for a worker that ended at `end`. */
    longestAfter: (end: number) =>
      Math.max(
        0,
        ...stretches
          .filter(
            ({ at }) => at >= end + RELEASE_DELAY_MS - WINDOW.before && at <= end + RELEASE_DELAY_MS + WINDOW.after
          )
          .map(({ cpuMs }) => cpuMs)
      )
  }
}

describe("a worker thread's heap", () => {
  it("is unmapped by the worker itself once released, not by the main thread after the worker is gone", async () => {
    const watch = watchStretches()
    await runGarbageWorker(true, ROUNDS)
    const releasedEnd = performance.now()
    // apart by more than the windows' width, so each window sees only its own worker's task
    await sleep(WINDOW.before + WINDOW.after)
    // Not released: the check can see the stretch it guards against.
    await runGarbageWorker(false, ROUNDS)
    const keptEnd = performance.now()
    await sleep(RELEASE_DELAY_MS + WINDOW.after)
    watch.stop()
    expect(watch.longestAfter(keptEnd), "the main thread unmapped the worker's pooled pages").toBeGreaterThan(20)
    expect(watch.longestAfter(releasedEnd), "the main thread had nothing left to unmap").toBeLessThan(10)
  }, 60_000)

  it("is released by workers ending at once, each finding V8's collector", async () => {
    // Feed runs start together (the conversion reports at start-up): each worker sets what exposes the collector.
    const said = await Promise.all(Array.from({ length: 6 }, () => runGarbageWorker(true, 0)))
    expect(said).toEqual(Array.from({ length: 6 }, () => [0, "released"]))
  })
})
