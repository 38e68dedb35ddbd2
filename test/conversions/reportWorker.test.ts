import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Worker } from "node:worker_threads"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { parseReportInWorker } from "../../conversions/reports/parseInWorker.ts"
import { NEXT_CHUNK, type ReportWorkerMessage, type ReportWorkerStart } from "../../conversions/reports/reportWorker.ts"
import { tempDir } from "../support/TestService.ts"

// A report is parsed in a worker thread that sends its records in chunks, and
// waits for the main thread's acknowledgement of each before the next: Node
// decodes every message queued on a port in one callback, so chunks sent
// without waiting reached the serving thread all at once.

const files = tempDir("report-worker-")
afterAll(() => files.rm())

/** An Awin report of `count` transactions: the sample's, repeated under other ids. */
const awinReport = (count: number) => {
  const sample = JSON.parse(readFileSync("data/samples/reports/awin-transactions.json", "utf8")) as Array<
    Record<string, unknown>
  >
  const file = join(files.dir, `awin-${count}.json`)
  writeFileSync(
    file,
    JSON.stringify(Array.from({ length: count }, (_, i) => ({ ...sample[i % sample.length], id: 700_000_000 + i })))
  )
  return file
}

const startOf = (file: string): ReportWorkerStart => ({
  file,
  gzip: false,
  format: "awin",
  options: { network: "awin" },
  nice: 0
})

describe("the report worker", () => {
  it("sends the next chunk only once the last one is acknowledged", async () => {
    const start = startOf(awinReport(9_000))
    const worker = new Worker(new URL("../../conversions/reports/reportWorker.ts", import.meta.url), {
      workerData: start
    })
    const received: Array<ReportWorkerMessage> = []
    const arrived = () => new Promise<void>((resolve) => worker.once("message", () => resolve()))
    worker.on("message", (message: ReportWorkerMessage) => received.push(message))
    try {
      await arrived()
      // unacknowledged, the worker sends nothing more (without the wait it had sent them all at once)
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(received.map((message) => Object.keys(message)[0])).toEqual(["records"])
      // acknowledged chunk by chunk: the records, the rejected rows, then the count
      while (!received.some((message) => "done" in message || "error" in message)) {
        const next = arrived()
        worker.postMessage(NEXT_CHUNK)
        await next
      }
      const records = received.flatMap((message) => ("records" in message ? message.records : []))
      // several chunks of 2,000, so the wait above was a wait between chunks
      expect(records.length).toBeGreaterThan(4_000)
      expect(received.filter((message) => "records" in message)).toHaveLength(Math.ceil(records.length / 2_000))
      expect(received.at(-1)).toEqual({ done: { rowsRead: 9_000 } })
      const rejected = received.flatMap((message) => ("rejected" in message ? message.rejected : []))
      expect(records.length + rejected.length).toBe(9_000)
    } finally {
      await worker.terminate()
    }
  })

  it("parses a report whole through the acknowledgements", async () => {
    const file = awinReport(5_000)
    const report = await Effect.runPromise(parseReportInWorker(startOf(file)))
    expect(report.rowsRead).toBe(5_000)
    expect(report.records.length + report.rejected.length).toBe(5_000)
    expect(new Set(report.records.map(({ record }) => record.networkTxId)).size).toBe(report.records.length)
  })
})
