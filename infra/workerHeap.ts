import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

// A worker thread's heap, given back to the system by the worker itself
// before it ends. V8 keeps the pages a garbage collection frees in a pool for
// reuse; when a worker's isolate is torn down, its pooled pages pass to
// another isolate of the process (the main thread's) and are unmapped there,
// in one task 8 s later (V8's PagePool::ReleaseOnTearDown). After a
// conversion report of 200,000 transactions the main thread spent 75-115 ms
// unmapping its worker's pages in one stretch, every request of the service
// waiting (test/infra/workerHeap.test.ts). A memory-reducing collection in
// the worker unmaps them on the worker's own thread instead.

type Collect = (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void

let collect: Collect | undefined

/**
 * V8's collector function, without the process having been started with
 * --expose-gc: the flag is set, and a context created here to read it. The
 * flag stays set for the process (contexts created later, workers' among
 * them, get a global `gc` too): workers of two runs at once would otherwise
 * race, one unsetting it while the other reads it.
 */
const collector = (): Collect => {
  if (collect !== undefined) return collect
  const exposed = (globalThis as { gc?: Collect }).gc
  if (typeof exposed === "function") return (collect = exposed)
  setFlagsFromString("--expose-gc")
  collect = runInNewContext("gc") as Collect
  return collect
}

/**
 * Collects the calling worker's garbage with V8's last-resort (memory-reducing)
 * collection, which unmaps the pooled pages on this thread. Call it where the
 * worker holds nothing more it needs, before its last message: the main
 * thread may end the worker on that message. Tens of ms, or ~100 ms after a
 * heap of hundreds of MB, on the worker's (niced) thread.
 */
export const releaseWorkerHeap = (): void => collector()({ type: "major", execution: "sync", flavor: "last-resort" })
