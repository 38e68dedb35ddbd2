import { parentPort, workerData } from "node:worker_threads"
import { ClickEncoder } from "./ClickEncoder.ts"
import { removeSegment, segmentPath } from "./segmentFiles.ts"
import { SegmentWriter } from "./SegmentWriter.ts"
import type { FromWorker, ToWorker, WorkerStart } from "./workerMessages.ts"

// The click worker: everything a click costs beyond appending its raw facts
// happens here, off the event loop that answers redirects. For each page of
// raw clicks: hash, judge and encode them (ClickEncoder) and append the lines
// to the open journal segment. Group commit: pages that arrived
// together share one fdatasync, after which their memory goes back to the
// redirect. A segment is sealed (handed to the DuckDB writer) every SEAL_MS.
const SEAL_MS = 100

const port = parentPort!
const { dir, firstSeq, uniqueInMemory, salts } = workerData as WorkerStart
const encoder = new ClickEncoder(uniqueInMemory)
encoder.hasher.share(salts)

let seq = firstSeq
const segment = new SegmentWriter(dir)
let rows = 0
let openedAt = 0
let unsaved = "" // encoded lines not yet written (kept across a failed write)
let unsavedRows = 0
let pages: Array<ArrayBuffer> = []
let pageClicks = 0
let commitScheduled = false

const post = (message: FromWorker, transfer: Array<ArrayBuffer> = []) => port.postMessage(message, transfer)

const commit = () => {
  commitScheduled = false
  try {
    if (unsaved.length > 0) {
      if (!segment.isOpen) openedAt = Date.now() // a worker thread outside Effect: plain time, no per-click fiber
      segment.append(seq, unsaved)
      rows += unsavedRows
      unsaved = ""
      unsavedRows = 0
    }
  } catch (error) {
    // The lines stay in memory and are written again with the next commit,
    // over whatever this one left in the segment (SegmentWriter).
    post({ kind: "journalError", message: String(error) })
    return
  }
  if (pages.length > 0) {
    post({ kind: "journaled", clicks: pageClicks, pages }, pages)
    pages = []
    pageClicks = 0
  }
  if (rows > 0 && Date.now() - openedAt >= SEAL_MS) seal()
}

const seal = () => {
  segment.close()
  post({ kind: "sealed", seq, path: segmentPath(dir, seq), rows })
  seq++
  rows = 0
}

port.on("message", (message: ToWorker) => {
  if (message.kind === "page") {
    const { lines, rows: encoded } = encoder.encode(message.bytes, message.used)
    unsaved += lines
    unsavedRows += encoded
    pages.push(message.bytes)
    pageClicks += message.count
    // Pages already queued behind this one are encoded before the commit
    // runs, so a burst shares one fdatasync.
    if (!commitScheduled) {
      commitScheduled = true
      setImmediate(commit)
    }
  } else if (message.kind === "stored") {
    for (const path of message.paths) removeSegment(path)
  } else if (message.kind === "salts") {
    encoder.hasher.share(message.salts)
  } else {
    commit()
    if (unsaved.length === 0 && rows > 0) seal()
    post({ kind: "flushed", id: message.id, ok: unsaved.length === 0 })
  }
})

// A quiet period still seals what was journaled, so DuckDB catches up, and
// retries a failed commit (no new page may come to retry it); a segment is
// never sealed while lines of a failed commit wait, so the next commit
// retries them in the segment they were written to.
setInterval(() => {
  if (commitScheduled) return
  if (unsaved.length > 0) commit()
  else if (rows > 0 && Date.now() - openedAt >= SEAL_MS) seal()
}, SEAL_MS)

post({ kind: "ready" })
