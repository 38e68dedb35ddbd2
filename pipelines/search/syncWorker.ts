import { parentPort, workerData } from "node:worker_threads"
import { groupKey } from "../../domain/catalog/modelKey.ts"
import { niceThisThread } from "../../infra/threadPriority.ts"
import { productDocument } from "../../readModel/documents.ts"
import { modelDocuments } from "../../readModel/modelDocuments.ts"
import { productRowOf } from "./productRowsJson.ts"
import type { SyncWorkerReply, SyncWorkerRequest, SyncWorkerStart } from "./syncWorkerProtocol.ts"

// The search sync's per-row work, in a worker thread (syncWorkerPool.ts
// starts it): keying products and building a batch's model documents into
// the JSON body Meilisearch takes (as UTF-8 bytes, handed over without a copy). On the event loop that work was seconds at
// 1M products, during which a ROLE=all service answered nothing, redirects
// included. Pure functions of the rows the main thread reads from DuckDB.

// Below the event loop's priority: on a machine of few cores the scheduler
// runs this thread with the CPU that serving leaves. Only this thread: the
// main thread, the click journal's worker and libuv's pool keep theirs.
niceThisThread((workerData as SyncWorkerStart | undefined)?.nice ?? 0)

/** Rows of the batches being gathered, by batch id. */
const gathering = new Map<number, Array<string>>()
const encoder = new TextEncoder()

const answer = (request: SyncWorkerRequest): SyncWorkerReply | undefined => {
  try {
    if (request.kind === "rows") {
      const rows = gathering.get(request.id)
      if (rows === undefined) gathering.set(request.id, [...request.rows])
      else for (const row of request.rows) rows.push(row)
      return undefined
    }
    if (request.kind === "keys") {
      const keys = request.inputs.map(([title, gtin, color, size, condition]) =>
        groupKey(gtin, title, { color, size, condition })
      )
      return { id: request.id, keys }
    }
    const rows = gathering.get(request.id) ?? []
    gathering.delete(request.id)
    const now = new Date(request.now)
    const documents = modelDocuments(rows.map((row) => productDocument(productRowOf(row), now)))
    return { id: request.id, body: encoder.encode(JSON.stringify(documents)), documents: documents.length }
  } catch (error) {
    return { id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }
  }
}

parentPort?.on("message", (request: SyncWorkerRequest) => {
  const reply = answer(request)
  if (reply === undefined) return
  // The body's bytes move to the main thread rather than being copied.
  parentPort?.postMessage(reply, "body" in reply ? [reply.body.buffer as ArrayBuffer] : [])
})
