import { Worker } from "node:worker_threads"
import { describe, expect, it } from "vitest"
import { superviseWorker } from "../../clicks/workerSupervisor.ts"

// A worker that dies right after posting: as the click worker that seals a
// segment ("sealed", seq) and then meets a defect. Its successor must start
// after every message it posted was delivered, so it opens the next segment,
// not the sealed one. Real worker threads; the parent's event loop is held
// busy while the first one posts and dies, the case where Node delivers the
// worker's 'error' before its earlier messages (restarting on 'error', the
// successor started at the sealed segment in every run).

type Posted = { readonly kind: "journaled" } | { readonly kind: "sealed"; readonly seq: number }

const DYING = `
  const { parentPort, workerData } = require("node:worker_threads")
  for (let i = 0; i < 500; i++) parentPort.postMessage({ kind: "journaled" })
  parentPort.postMessage({ kind: "sealed", seq: workerData.firstSeq })
  setImmediate(() => { throw new Error("defect after sealing") })
`
const STAYING = `setInterval(() => undefined, 1_000)`
const EXITING = `process.exit(3)`

const holdEventLoop = (ms: number) => {
  const until = performance.now() + ms
  while (performance.now() < until);
}

describe("click worker supervision", () => {
  it("starts the successor after the dead worker's messages: at the segment after the one it sealed", async () => {
    for (let run = 0; run < 5; run++) {
      let nextSeq = 7
      let journaled = 0
      const starts: Array<number> = []
      const deaths: Array<{ error: string; journaled: number; nextSeq: number }> = []
      const supervised = superviseWorker<Posted>(
        () => {
          starts.push(nextSeq)
          const worker = new Worker(starts.length === 1 ? DYING : STAYING, {
            eval: true,
            workerData: { firstSeq: nextSeq }
          })
          // the first one posts and dies while this thread is busy
          if (starts.length === 1) worker.once("online", () => holdEventLoop(150))
          return worker
        },
        (message) => {
          if (message.kind === "journaled") journaled++
          else nextSeq = message.seq + 1
        },
        (error) => deaths.push({ error: String(error), journaled, nextSeq })
      )
      while (starts.length < 2) await new Promise((resolve) => setTimeout(resolve, 10))
      await supervised.stop()

      expect(deaths).toEqual([{ error: "Error: defect after sealing", journaled: 500, nextSeq: 8 }])
      expect(starts).toEqual([7, 8])
    }
  })

  it("restarts a worker that exits by itself, naming its exit code, and starts none after stop", async () => {
    const deaths: Array<string> = []
    let started = 0
    const supervised = superviseWorker<never>(
      () => new Worker(started++ === 0 ? EXITING : STAYING, { eval: true }),
      () => undefined,
      (error) => deaths.push(String(error))
    )
    while (started < 2) await new Promise((resolve) => setTimeout(resolve, 10))
    await supervised.stop()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(deaths).toEqual(["Error: worker exited with code 3"])
    expect(started).toBe(2)
  })
})
