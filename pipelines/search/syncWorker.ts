import { parentPort } from "node:worker_threads"
import { groupKey } from "../../domain/catalog/modelKey.ts"
import { productDocument } from "../../readModel/documents.ts"
import { modelDocuments } from "../../readModel/modelDocuments.ts"
import { productRowOf } from "./productRowsJson.ts"
import type { SyncWorkerReply, SyncWorkerRequest } from "./syncWorkerProtocol.ts"

// The search sync's per-row work, in a worker thread (syncWorkerPool.ts
// starts it): keying products and building a batch's model documents into
// the JSON body Meilisearch takes. On the event loop that work was seconds at
// 1M products, during which a ROLE=all service answered nothing, redirects
// included. Pure functions of the rows the main thread reads from DuckDB.

const answer = (request: SyncWorkerRequest): SyncWorkerReply => {
  try {
    if (request.kind === "keys") {
      const keys = request.inputs.map(([title, gtin, color, size, condition]) =>
        groupKey(gtin, title, { color, size, condition })
      )
      return { id: request.id, keys }
    }
    const now = new Date(request.now)
    const documents = modelDocuments(request.rows.map((row) => productDocument(productRowOf(row), now)))
    return { id: request.id, body: JSON.stringify(documents), documents: documents.length }
  } catch (error) {
    return { id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }
  }
}

parentPort?.on("message", (request: SyncWorkerRequest) => parentPort?.postMessage(answer(request)))
