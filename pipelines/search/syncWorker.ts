import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { parentPort, workerData } from "node:worker_threads"
import { niceThisThread } from "../../infra/threadPriority.ts"
import { releaseWorkerHeap } from "../../infra/workerHeap.ts"
import { modelKeyLines } from "./keyFiles.ts"
import { batchPlanOf } from "./modelBatches.ts"
import { modelDocumentsBody } from "./modelBody.ts"
import { productRowsOf } from "./productRowsJson.ts"
import type { SyncWorkerReply, SyncWorkerRequest, SyncWorkerStart } from "./syncWorkerProtocol.ts"

// The search sync's per-row work, in a worker thread (syncWorkerPool.ts
// starts it): keying products, planning the batches and building a batch's model documents into
// the JSON body Meilisearch takes (as UTF-8 bytes, handed over without a copy). On the event loop that work was seconds at
// 1M products, during which a ROLE=all service answered nothing, redirects
// included. The rows come from the files DuckDB writes (rowFiles.ts), never
// through the main thread.

// Below the event loop's priority: on a machine of few cores the scheduler
// runs this thread with the CPU that serving leaves. Only this thread: the
// main thread, the click journal's worker and libuv's pool keep theirs.
niceThisThread((workerData as SyncWorkerStart | undefined)?.nice ?? 0)

/** A file's bytes (a batch's rows, a chunk of key inputs, the models' sizes); the file is deleted once read (or unreadable): the rows are this thread's now. */
const readRowFile = (file: string) => {
  try {
    return readFileSync(file)
  } finally {
    rmSync(file, { force: true })
  }
}

const readRowText = (file: string) => readRowFile(file).toString("utf8")

const answer = (request: SyncWorkerRequest): SyncWorkerReply => {
  try {
    if (request.kind === "keys") {
      const { text, keyed } = modelKeyLines(readRowText(request.inputs))
      // Created here, in the sync's 0700 folder; the main thread removes it once DuckDB has read it.
      writeFileSync(request.keys, text, { mode: 0o600 })
      return { id: request.id, keyed }
    }
    if (request.kind === "plan") return { id: request.id, chunks: batchPlanOf(readRowText(request.file)) }
    if (request.kind === "release") {
      releaseWorkerHeap()
      return { id: request.id, released: true }
    }
    // Line by line from the file's bytes, model by model: neither the batch's
    // text nor an array of its rows, offers or documents is ever held.
    const rows = readRowFile(request.file)
    const { body, documents } = modelDocumentsBody(productRowsOf(rows), new Date(request.now), rows.length)
    return { id: request.id, body, documents }
  } catch (error) {
    return { id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }
  }
}

parentPort?.on("message", (request: SyncWorkerRequest) => {
  const reply = answer(request)
  // The body's bytes move to the main thread rather than being copied.
  parentPort?.postMessage(reply, "body" in reply ? [reply.body.buffer as ArrayBuffer] : [])
})
