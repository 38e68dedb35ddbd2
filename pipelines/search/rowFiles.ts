import { Effect } from "effect"
import { mkdir, rm } from "node:fs/promises"
import { join } from "node:path"
import { SearchError } from "../../infra/SearchEngine.ts"

// Where a products sync's rows wait between DuckDB and the sync's worker
// thread: DuckDB writes each batch's rows (and each chunk of key inputs, and
// the models' sizes) into a file of their own (COPY ..., on its own threads)
// and the worker reads them from there; the worker's model keys come back
// the same way (a file DuckDB reads with read_json). Read
// through the driver, every row became a JS string on the event loop and was
// copied into a message to the worker: in a CPU profile of the main thread
// while a 1M-product sync sent, ~27 % went to the rows' strings, ~22 % to
// collecting their garbage, ~11 % to the copies. The files are scratch: the folder is emptied when
// the service starts, before and after each sync, and each file is deleted
// once its batch is built or has failed.

/** The folder's name under DATA_DIR, beside the DuckDB file (and its spill folder). */
export const ROW_FILES_FOLDER = "search-sync-rows"

export const rowFilesDir = (dataDir: string) => join(dataDir, ROW_FILES_FOLDER)

const failure = (doing: string, error: unknown) =>
  new SearchError({
    message: `search sync: could not ${doing}: ${error instanceof Error ? error.message : String(error)}`,
    unavailable: false
  })

/** The folder gone, with whatever a killed process left in it. */
export const removeRowFiles = (dir: string) =>
  Effect.tryPromise({
    try: () => rm(dir, { recursive: true, force: true }),
    catch: (error) => failure(`remove its row files folder ${dir}`, error)
  })

/** The folder emptied and ready for a sync's files. */
export const prepareRowFiles = (dir: string) =>
  removeRowFiles(dir).pipe(
    Effect.andThen(
      Effect.tryPromise({
        // The catalog's rows: readable by the service's user only, as the rest of DATA_DIR.
        try: () => mkdir(dir, { recursive: true, mode: 0o700 }),
        catch: (error) => failure(`create its row files folder ${dir}`, error)
      })
    )
  )

/** One file, deleted however its step ends (the worker deletes what it read; a failure may leave it). */
export const removeRowFile = (file: string) => Effect.promise(() => rm(file, { force: true }).catch(() => undefined))

/**
 * What a file carries: a batch's rows, a chunk of key inputs, their model
 * keys (the worker's), the models' sizes (CSV).
 */
export type RowFileKind = "batch" | "inputs" | "keys" | "sizes"

/** Names of the files of `dir` of one kind, never reused by this process. */
export const rowFileNames = (dir: string, kind: RowFileKind) => {
  let next = 0
  return () => join(dir, `${kind}-${next++}.${kind === "sizes" ? "csv" : "ndjson"}`)
}
