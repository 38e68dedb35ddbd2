import { Effect } from "effect"
import { mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { CountRow } from "../../infra/columns.ts"
import type { DatabaseShape } from "../../infra/Database.ts"
import { workerTask } from "../../infra/workerTask.ts"
import { PipelineError } from "../errors.ts"
import type { FeedDefinition } from "../FeedConfig.ts"
import { sqlString } from "./ProductRecord.ts"
import { STAGED_COLUMNS } from "./stagedColumns.ts"
import type { Staged } from "./stageDelimited.ts"
import {
  MAX_ITEM_BYTES,
  XML_STAGING_WORKER_NAME,
  type XmlStagingMessage,
  type XmlStagingStart
} from "./xmlStagingWorker.ts"

// Google Merchant RSS 2.0: a worker thread (xmlStagingWorker.ts) scans the
// items and writes them as CSV; DuckDB reads that file into the same staging
// table as the delimited formats', with the pre-check, so validation and
// loading are shared. The event loop only waits.

/** Where the worker's CSV goes, and the nice value it runs at. */
export interface XmlScratch {
  /** A folder of the service's own (DATA_DIR/tmp/feeds, beside downloads). */
  readonly dir: string
  readonly nice: number
}

/**
 * The worker's V8 heap (MB): it holds a 1 MB chunk of text and a batch of
 * 1,000 items, their CSV text with them (tens of MB at the product rule's
 * longest descriptions).
 */
const WORKER_HEAP_MB = { old: 128, young: 16 } as const

/** The feed's items written to `out` by a worker; its count of items. Interrupted, the worker is terminated. */
const writeItemsCsv = (
  start: XmlStagingStart,
  progress: (rows: number) => void,
  parseError: (message: string) => PipelineError
) =>
  workerTask<XmlStagingMessage, number, PipelineError>(
    new URL("./xmlStagingWorker.ts", import.meta.url),
    { name: XML_STAGING_WORKER_NAME, workerData: start, heapMb: WORKER_HEAP_MB },
    (message, settle) => {
      if ("items" in message) progress(message.items)
      else if ("done" in message) settle.succeed(message.done)
      else settle.fail(parseError(message.error))
    },
    (what) => parseError(`cannot parse XML: ${what}`)
  )

/** DuckDB's reading of the worker's CSV: every column as text, an unquoted empty field as NULL. */
const readItemsCsv = (file: string) =>
  `read_csv(${sqlString(file)}, columns={${STAGED_COLUMNS.map((c) => `'${c}': 'VARCHAR'`).join(", ")}},
    header=false, delim=',', quote='"', escape='"', new_line='\\n', nullstr='', allow_quoted_nulls=false,
    auto_detect=false, max_line_size=${MAX_ITEM_BYTES})`

export const stageXml = (
  db: DatabaseShape,
  feed: FeedDefinition,
  input: { readonly file: string; readonly gzip: boolean; readonly runId: string },
  table: string,
  precheck: string,
  progress: (rows: number) => void,
  scratch: XmlScratch
): Effect.Effect<Staged, PipelineError> => {
  const parseError = (message: string) => new PipelineError({ feed: feed.name, stage: "parse", message })
  const csv = join(scratch.dir, `${feed.name}-${input.runId}.items.csv`)
  return Effect.gen(function* () {
    yield* Effect.sync(() => mkdirSync(scratch.dir, { recursive: true, mode: 0o700 }))
    const items = yield* writeItemsCsv(
      {
        file: input.file,
        gzip: input.gzip,
        out: csv,
        storeColumn: feed.options.storeColumn,
        store: feed.options.store ?? null,
        nice: scratch.nice
      },
      progress,
      parseError
    )
    // Read in file order, so a row's rowid is its item's number less one (preserve_insertion_order);
    // TEMP, so the writer connection's: created and counted in one transaction.
    const staged = yield* db.transaction((tx) =>
      Effect.gen(function* () {
        yield* tx.run(
          `CREATE OR REPLACE TEMP TABLE ${table} AS SELECT *, coalesce(${precheck}, false) AS ok FROM ${readItemsCsv(csv)}`
        )
        return (yield* tx.queryAs(CountRow, `SELECT count(*)::INTEGER AS n FROM ${table}`))[0].n
      })
    )
    // Our own file: a difference is a defect of ours, never left to pass as a smaller feed.
    if (staged !== items) return yield* parseError(`staged ${staged} of the feed's ${items} items`)
    return { rowsRead: items, structural: [], lineOf: (k: number) => k + 1 }
  }).pipe(
    Effect.mapError((error) => (error._tag === "PipelineError" ? error : parseError(error.message))),
    Effect.ensuring(Effect.sync(() => rmSync(csv, { force: true })))
  )
}
