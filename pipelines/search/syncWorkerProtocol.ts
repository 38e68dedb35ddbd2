// What the main thread and the sync's worker (syncWorker.ts) say to each other.

/** What the worker starts with (its workerData). */
export interface SyncWorkerStart {
  /** The nice value the worker thread gives itself (BACKGROUND_NICE); 0 leaves it as it is. */
  readonly nice: number
}

/** The worker thread's name, as /proc shows it. */
export const SYNC_WORKER_NAME = "search-sync"

/** The fields a model key is built from: title, GTIN, colour, size, condition. */
export type KeyInput = readonly [string, string | null, string | null, string | null, string | null]

export type SyncWorkerRequest =
  | { readonly kind: "keys"; readonly id: number; readonly inputs: ReadonlyArray<KeyInput> }
  /**
   * The documents of the batch whose rows DuckDB wrote to `file` (productRowsJson.ts
   * productRowsCopySql: one ProductRow JSON object a line, in model order); the
   * worker deletes the file once read. `now`: epoch ms the documents are built at.
   */
  | { readonly kind: "documents"; readonly id: number; readonly file: string; readonly now: number }

export type SyncWorkerReply =
  | { readonly id: number; readonly keys: ReadonlyArray<string> }
  /** `body`: the documents as a UTF-8 JSON array, transferred (not copied). */
  | { readonly id: number; readonly body: Uint8Array; readonly documents: number }
  | { readonly id: number; readonly error: string }
