import { setTimeout as sleep } from "node:timers/promises"
import { Worker } from "node:worker_threads"
import { describe, expect, it } from "vitest"
import { watchMainThread } from "../../bench/support/threadCpu.ts"

// A worker's heap pages outlive it: V8 hands the pages pooled in a worker's
// isolate to another isolate of the process when the worker ends, and that
// isolate unmaps them in one task 8 s later. Here that isolate is this
// thread's, as it is the service's main thread. A worker whose heap grew to
// ~200 MB (a parsed report's) left the main thread 76-87 ms of unmapping in
// one stretch, every request waiting; released by the worker first
// (infra/workerHeap.ts), nothing. Measured as the main thread's CPU between
// two turns of a 2 ms timer, which a loaded machine does not stretch.

/** From the worker's end until after V8's 8 s delay has passed. */
const WATCHED_MS = 9_500

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

const mainThreadAfterWorker = async (release: boolean) => {
  await runGarbageWorker(release, 6)
  const watch = watchMainThread()
  await sleep(WATCHED_MS)
  return watch.stop()
}

describe("a worker thread's heap", () => {
  it("is unmapped by the worker itself once released, not by the main thread after the worker is gone", async () => {
    // Not released: the check can see the stretch it guards against.
    const kept = await mainThreadAfterWorker(false)
    expect(kept.longestMs, "the main thread unmapped the worker's pooled pages").toBeGreaterThan(20)
    const released = await mainThreadAfterWorker(true)
    expect(released.longestMs, "the main thread had nothing left to unmap").toBeLessThan(10)
  }, 60_000)

  it("is released by workers ending at once, each finding V8's collector", async () => {
    // Feed runs start together (the conversion reports at start-up): each worker sets what exposes the collector.
    const said = await Promise.all(Array.from({ length: 6 }, () => runGarbageWorker(true, 0)))
    expect(said).toEqual(Array.from({ length: 6 }, () => [0, "released"]))
  })
})
