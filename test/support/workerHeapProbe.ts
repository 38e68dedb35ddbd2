import { Worker } from "node:worker_threads"

// Runs the garbage worker (garbageWorker.ts) released, then kept, in a process
// of its own, and prints how much more the process maps after each has ended
// (test/infra/workerHeap.test.ts). A process of its own, as what a test
// process's earlier workers left pooled would be reused by these and hide
// their pages.

/** Rounds of 600,000 objects: ~100 MB of heap pages. */
const ROUNDS = 3

const residentAfter = async (release: boolean) => {
  const before = process.memoryUsage.rss()
  const worker = new Worker(new URL("garbageWorker.ts", import.meta.url), {
    workerData: { release, rounds: ROUNDS },
    resourceLimits: { maxOldGenerationSizeMb: 512 }
  })
  await new Promise<void>((resolve, reject) => {
    worker.on("error", reject)
    worker.on("exit", () => resolve())
  })
  return (process.memoryUsage.rss() - before) / 1e6
}

// Released first: a kept worker's pages would be pooled for the next worker to reuse.
const releasedMb = await residentAfter(true)
const keptMb = await residentAfter(false)
process.stdout.write(JSON.stringify({ releasedMb, keptMb }))
