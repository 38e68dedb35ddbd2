import type { DaySalt } from "../domain/clicks/VisitorHasher.ts"

// What the recorder (event loop) and the click worker say to each other.
export interface WorkerStart {
  /** The journal folder. */
  readonly dir: string
  /** Number of the first segment this worker opens. */
  readonly firstSeq: number
  /**
   * Decide unique clicks here (one process owns the store: DuckDB). False when
   * the database decides them as it stores the clicks (PostgreSQL, replicas).
   */
  readonly uniqueInMemory: boolean
  /** Visitor-hash salts shared with other replicas (empty: this process's own). */
  readonly salts: ReadonlyArray<DaySalt>
}

export type ToWorker =
  | { readonly kind: "page"; readonly bytes: ArrayBuffer; readonly used: number; readonly count: number }
  /** Commit and seal everything received so far, then answer "flushed". */
  | { readonly kind: "flush"; readonly id: number }
  /** Segments now in DuckDB: their files can go (unlink is slow on a busy disk: not on the event loop). */
  | { readonly kind: "stored"; readonly paths: ReadonlyArray<string> }
  /** The shared salts were refreshed (a new day is coming). */
  | { readonly kind: "salts"; readonly salts: ReadonlyArray<DaySalt> }

export type FromWorker =
  /** Loaded and listening (the layer waits for it, so the first clicks do not wait for a booting thread). */
  | { readonly kind: "ready" }
  /** Pages whose clicks are now in the journal (fdatasync done); their memory comes back. */
  | { readonly kind: "journaled"; readonly clicks: number; readonly pages: ReadonlyArray<ArrayBuffer> }
  | { readonly kind: "sealed"; readonly seq: number; readonly path: string; readonly rows: number }
  | { readonly kind: "flushed"; readonly id: number; readonly ok: boolean }
  | { readonly kind: "journalError"; readonly message: string }
