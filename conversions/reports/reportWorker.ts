import { readFileSync } from "node:fs"
import { type MessagePort, parentPort, workerData } from "node:worker_threads"
import { gunzipSync } from "node:zlib"
import { niceThisThread } from "../../infra/threadPriority.ts"
import { releaseWorkerHeap } from "../../infra/workerHeap.ts"
import { parseReport, type ReportFormat, type ReportOptions } from "./index.ts"
import { ReportError } from "./Report.ts"
import type { ParsedReport } from "./Report.ts"

// A network's conversion report, read and parsed in a worker thread
// (parseInWorker.ts starts one per run). On the event loop a 20,000-transaction
// Awin report held it 0.65-0.95 s in one stretch (the exact JSON
// reader and the row rules): every redirect of a serving process waited.

/** What the worker starts with (its workerData). */
export interface ReportWorkerStart {
  readonly file: string
  readonly gzip: boolean
  readonly format: ReportFormat
  readonly options: ReportOptions
  /** The nice value the worker thread gives itself (BACKGROUND_NICE); 0 leaves it as it is. */
  readonly nice: number
}

/**
 * The parsed report in pieces: records a chunk at a time, then the rejected
 * rows a chunk at a time, then the count; or why the report cannot be read.
 * After each chunk the worker waits for the main thread's NEXT_CHUNK: Node
 * decodes every message queued on a port in one callback, so chunks sent
 * without waiting reached the main thread all at once (a 200,000-transaction
 * report: ~0.3 s in one stretch, every request of the service waiting).
 */
export type ReportWorkerMessage =
  | { readonly records: ParsedReport["records"] }
  | { readonly rejected: ParsedReport["rejected"] }
  | { readonly done: Pick<ParsedReport, "rowsRead"> }
  | { readonly error: string }

/** The main thread's acknowledgement of a chunk: the worker sends the next. */
export const NEXT_CHUNK = "next"

/** The worker thread's name, as /proc shows it. */
export const REPORT_WORKER_NAME = "report-parse"

/** Records (or rejected rows) per message to the main thread. */
const RECORDS_PER_MESSAGE = 2_000

/** Posts `message` and waits for the main thread to acknowledge it. */
const sendChunk = (port: MessagePort, message: ReportWorkerMessage) =>
  new Promise<void>((resolve) => {
    port.once("message", () => resolve())
    port.postMessage(message)
  })

/** Reads, parses and sends the report chunk by chunk; answers its row count. What it read is garbage once it returns. */
const sendReport = async (port: MessagePort, start: ReportWorkerStart) => {
  let content: string
  try {
    const bytes = readFileSync(start.file)
    content = (start.gzip ? gunzipSync(bytes) : bytes).toString("utf8")
  } catch (error) {
    throw new ReportError(`cannot read the report: ${(error as Error).message}`)
  }
  const report = parseReport(start.format, content, start.options)
  for (let from = 0; from < report.records.length; from += RECORDS_PER_MESSAGE)
    await sendChunk(port, { records: report.records.slice(from, from + RECORDS_PER_MESSAGE) })
  for (let from = 0; from < report.rejected.length; from += RECORDS_PER_MESSAGE)
    await sendChunk(port, { rejected: report.rejected.slice(from, from + RECORDS_PER_MESSAGE) })
  return report.rowsRead
}

const start = workerData as ReportWorkerStart | undefined
if (start !== undefined && parentPort !== null) {
  const port = parentPort
  // Below the event loop's priority, as the search sync's worker.
  niceThisThread(start.nice)
  let last: ReportWorkerMessage
  try {
    last = { done: { rowsRead: await sendReport(port, start) } }
  } catch (error) {
    // a report refused as a whole says why; anything else is reported as it was thrown
    last = { error: error instanceof ReportError ? error.message : String(error) }
  }
  // The report's heap is unmapped here, not on the main thread after this worker ends (workerHeap.ts).
  releaseWorkerHeap()
  port.postMessage(last)
}
