import { closeSync, openSync, writeSync } from "node:fs"
import { parentPort, workerData } from "node:worker_threads"
import { niceThisThread } from "../../infra/threadPriority.ts"
import { releaseWorkerHeap } from "../../infra/workerHeap.ts"
import { STAGED_COLUMNS, type StagedRecord } from "./stagedColumns.ts"
import { sliceXmlItems, XmlFeedError, xmlChunks } from "./xmlSlicer.ts"

// A Google Merchant RSS feed's items, scanned in a worker thread (stageXml.ts
// starts one per run) and written as a CSV file DuckDB reads with read_csv.
// On the event loop, scanning and appending a 50,000-item feed cost a run
// 3.0-3.6 s of the main thread's CPU, up to 160 ms of it in one stretch:
// every redirect and search of a serving process waited behind it. Here the
// main thread only waits for DuckDB's read of the file (docs/pipelines.md).

/** What the worker starts with (its workerData). */
export interface XmlStagingStart {
  readonly file: string
  readonly gzip: boolean
  /** The CSV file to write (created 0600; the main thread removes it). */
  readonly out: string
  /** The feed's custom column naming the store (feed options). */
  readonly storeColumn: string | undefined
  /** The store of items that name none (feed options), or null. */
  readonly store: string | null
  /** The nice value the worker thread gives itself (BACKGROUND_NICE); 0 leaves it as it is. */
  readonly nice: number
}

/** Items written so far (after each batch), the total once the file is complete, or why it stopped. */
export type XmlStagingMessage = { readonly items: number } | { readonly done: number } | { readonly error: string }

/** The worker thread's name, as /proc shows it. */
export const XML_STAGING_WORKER_NAME = "xml-staging"

/** Items per write and per progress message. */
const BATCH = 1_000

/**
 * The longest CSV line DuckDB is told to read (its default is 2,000,000 bytes):
 * a larger item fails the feed with its number here rather than in DuckDB's
 * reader. No product is that large (the product rule allows a 10,000-character description).
 */
export const MAX_ITEM_BYTES = 16 * 1024 * 1024

/** RFC 4180: NULL as an empty field, every value quoted (read_csv keeps a quoted "" as an empty string). */
const csvLine = (record: StagedRecord) => {
  let line = ""
  for (let i = 0; i < STAGED_COLUMNS.length; i++) {
    const value = record[STAGED_COLUMNS[i]]
    if (i > 0) line += ","
    if (value !== null) line += `"${value.indexOf('"') < 0 ? value : value.replaceAll('"', '""')}"`
  }
  return line + "\n"
}

const stage = async (start: XmlStagingStart, report: (message: XmlStagingMessage) => void) => {
  const fd = openSync(start.out, "w", 0o600)
  try {
    let items = 0
    for await (const batch of sliceXmlItems(xmlChunks(start.file, start.gzip), BATCH, start.storeColumn)) {
      let text = ""
      for (const record of batch) {
        items++
        record.store ??= start.store
        const line = csvLine(record)
        if (line.length > MAX_ITEM_BYTES / 3 && Buffer.byteLength(line) > MAX_ITEM_BYTES)
          throw new XmlFeedError(`<item> number ${items} is larger than ${MAX_ITEM_BYTES / 1024 / 1024} MB`)
        text += line
      }
      writeSync(fd, text)
      report({ items })
    }
    return items
  } finally {
    closeSync(fd)
  }
}

const start = workerData as XmlStagingStart | undefined
if (start !== undefined && parentPort !== null) {
  const port = parentPort
  // Below the event loop's priority, as the search sync's worker.
  niceThisThread(start.nice)
  const last: XmlStagingMessage = await stage(start, (message) => port.postMessage(message)).then(
    (items) => ({ done: items }),
    (error: unknown) => ({
      error:
        error instanceof XmlFeedError
          ? error.message
          : `cannot parse XML: ${error instanceof Error ? error.message : String(error)}`
    })
  )
  // The scan's heap is unmapped here, not on the main thread after this worker ends (workerHeap.ts).
  releaseWorkerHeap()
  port.postMessage(last)
}
