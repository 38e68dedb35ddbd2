import { parentPort, workerData } from "node:worker_threads"
import { releaseWorkerHeap } from "../../infra/workerHeap.ts"

// A worker thread that fills its heap with short-lived objects (`rounds` of
// 600,000: a parsed report's worth of heap pages at 3 to 6) and ends,
// releasing its heap first when `workerData.release` is set
// (test/infra/workerHeap.test.ts).

const { release, rounds } = workerData as { release: boolean; rounds: number }

let kept: Array<{ readonly text: string; readonly at: number; readonly pair: ReadonlyArray<number> }> = []
for (let round = 0; round < rounds; round++) {
  kept = []
  for (let i = 0; i < 600_000; i++) kept.push({ text: `row ${i}`, at: i, pair: [i, i + 1] })
}
parentPort?.postMessage(kept.length)
kept = []
if (release) {
  releaseWorkerHeap()
  parentPort?.postMessage("released")
}
