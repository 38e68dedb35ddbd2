import { Effect } from "effect"
import { Worker } from "node:worker_threads"
import type { ParsedReport } from "./Report.ts"
import { REPORT_WORKER_NAME, type ReportWorkerMessage, type ReportWorkerStart } from "./reportWorker.ts"

/**
 * The worker's V8 heap (MB): the report's text and its parsed records (a
 * 20,000-transaction Awin report is ~9 MB of JSON). Reports are windows of
 * transactions, not catalogs; a larger one fails the run with the worker's
 * out-of-memory error rather than growing the service.
 */
const WORKER_HEAP_MB = { old: 512, young: 32 } as const

/** The report of `start.file` parsed by a worker thread, or why it cannot be; interrupted, the worker is terminated. */
export const parseReportInWorker = (start: ReportWorkerStart): Effect.Effect<ParsedReport, string> =>
  Effect.callback<ParsedReport, string>((resume) => {
    const worker = new Worker(new URL("./reportWorker.ts", import.meta.url), {
      name: REPORT_WORKER_NAME,
      workerData: start,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB.old, maxYoungGenerationSizeMb: WORKER_HEAP_MB.young }
    })
    // Never what keeps the process alive: a shutdown mid-run must not wait for it.
    worker.unref()
    const records: Array<ParsedReport["records"][number]> = []
    let settled = false
    const settle = (result: Effect.Effect<ParsedReport, string>) => {
      if (settled) return
      settled = true
      resume(result)
    }
    worker.on("message", (message: ReportWorkerMessage) => {
      if ("records" in message) records.push(...message.records)
      else if ("done" in message) settle(Effect.succeed({ records, ...message.done }))
      else settle(Effect.fail(message.error))
    })
    worker.on("error", (error) => settle(Effect.fail(String(error))))
    worker.on("exit", (code) => settle(Effect.fail(`the report reader stopped (exit code ${code})`)))
    return Effect.promise(() => worker.terminate())
  })
