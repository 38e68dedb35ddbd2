import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { parentPort, workerData } from "node:worker_threads"
import { niceThisThread } from "../../infra/threadPriority.ts"
import { productDocument, type ProductDocument } from "../../readModel/documents.ts"
import { modelDocuments } from "../../readModel/modelDocuments.ts"
import { modelKeyLines } from "./keyFiles.ts"
import { batchPlanOf } from "./modelBatches.ts"
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

const encoder = new TextEncoder()

/** A file's text (a batch's rows, a chunk of key inputs, the models' sizes); the file is deleted once read (or unreadable): the rows are this thread's now. */
const readRowFile = (file: string) => {
  try {
    return readFileSync(file, "utf8")
  } finally {
    rmSync(file, { force: true })
  }
}

const answer = (request: SyncWorkerRequest): SyncWorkerReply => {
  try {
    if (request.kind === "keys") {
      const { text, keyed } = modelKeyLines(readRowFile(request.inputs))
      // Created here, in the sync's 0700 folder; the main thread removes it once DuckDB has read it.
      writeFileSync(request.keys, text, { mode: 0o600 })
      return { id: request.id, keyed }
    }
    if (request.kind === "plan") return { id: request.id, chunks: batchPlanOf(readRowFile(request.file)) }
    const now = new Date(request.now)
    // Row by row from the file's text: no array of the batch's rows, parsed or not, is ever held.
    const offers: Array<ProductDocument> = []
    for (const row of productRowsOf(readRowFile(request.file))) offers.push(productDocument(row, now))
    const documents = modelDocuments(offers)
    return { id: request.id, body: encoder.encode(JSON.stringify(documents)), documents: documents.length }
  } catch (error) {
    return { id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }
  }
}

parentPort?.on("message", (request: SyncWorkerRequest) => {
  const reply = answer(request)
  // The body's bytes move to the main thread rather than being copied.
  parentPort?.postMessage(reply, "body" in reply ? [reply.body.buffer as ArrayBuffer] : [])
})
