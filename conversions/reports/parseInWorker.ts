import { Effect } from "effect"
import { workerTask } from "../../infra/workerTask.ts"
import type { ParsedReport } from "./Report.ts"
import { NEXT_CHUNK, REPORT_WORKER_NAME, type ReportWorkerMessage, type ReportWorkerStart } from "./reportWorker.ts"

/**
 * The worker's V8 heap (MB): the report's text and its parsed records (a
 * 20,000-transaction Awin report is 8 MB of JSON). Reports are windows of
 * transactions, not catalogs; a larger one fails the run with the worker's
 * out-of-memory error rather than growing the service.
 */
const WORKER_HEAP_MB = { old: 512, young: 32 } as const

/** The report of `start.file` parsed by a worker thread, or why it cannot be; interrupted, the worker is terminated. */
export const parseReportInWorker = (start: ReportWorkerStart): Effect.Effect<ParsedReport, string> =>
  Effect.suspend(() => {
    // this run's records and rejected rows, as the worker sends them
    const records: Array<ParsedReport["records"][number]> = []
    const rejected: Array<ParsedReport["rejected"][number]> = []
    return workerTask<ReportWorkerMessage, ParsedReport, string>(
      new URL("./reportWorker.ts", import.meta.url),
      { name: REPORT_WORKER_NAME, workerData: start, heapMb: WORKER_HEAP_MB },
      (message, settle) => {
        if ("records" in message) {
          records.push(...message.records)
          settle.reply(NEXT_CHUNK)
        } else if ("rejected" in message) {
          rejected.push(...message.rejected)
          settle.reply(NEXT_CHUNK)
        } else if ("done" in message) settle.succeed({ records, rejected, rowsRead: message.done.rowsRead })
        else settle.fail(message.error)
      },
      (what) => `cannot read the report: ${what}`
    )
  })
