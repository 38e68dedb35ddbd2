import type { ModelBatch } from "./modelBatches.ts"

// What the main thread and the sync's worker (syncWorker.ts) say to each other.

/** What the worker starts with (its workerData). */
export interface SyncWorkerStart {
  /** The nice value the worker thread gives itself (BACKGROUND_NICE); 0 leaves it as it is. */
  readonly nice: number
}

/** The worker thread's name, as /proc shows it. */
export const SYNC_WORKER_NAME = "search-sync"

export type SyncWorkerRequest =
  /**
   * The model keys of the numbered inputs DuckDB wrote to `inputs`
   * (keyFiles.ts keyInputsCopySql), written to `keys` as (n, model_key)
   * lines; the worker deletes `inputs` once read.
   */
  | { readonly kind: "keys"; readonly id: number; readonly inputs: string; readonly keys: string }
  /** The chunks of batches over the model sizes DuckDB wrote to `file` (modelBatches.ts modelSizesCopySql). */
  | { readonly kind: "plan"; readonly id: number; readonly file: string }
  /**
   * The documents of the batch whose rows DuckDB wrote to `file` (productRowsJson.ts
   * productRowsCopySql: one ProductRow JSON object a line, in model order); the
   * worker deletes the file once read. `now`: epoch ms the documents are built at.
   */
  | { readonly kind: "documents"; readonly id: number; readonly file: string; readonly now: number }
  /** The sync is over: the worker unmaps its heap on its own thread before it is terminated (infra/workerHeap.ts). */
  | { readonly kind: "release"; readonly id: number }

export type SyncWorkerReply =
  | { readonly id: number; readonly keyed: number }
  | { readonly id: number; readonly chunks: ReadonlyArray<ReadonlyArray<ModelBatch>> }
  /** `body`: the documents as a UTF-8 JSON array, transferred (not copied). */
  | { readonly id: number; readonly body: Uint8Array; readonly documents: number }
  | { readonly id: number; readonly released: true }
  | { readonly id: number; readonly error: string }
