import { Effect } from "effect"
import { appendTextOrNull, type DatabaseShape } from "../../infra/Database.ts"
import { PipelineError } from "../errors.ts"
import type { FeedDefinition } from "../FeedConfig.ts"
import { STAGED_COLUMNS, type StagedRecord } from "./ProductRecord.ts"
import type { Staged } from "./stageDelimited.ts"
import { sliceXmlItems, XmlFeedError, xmlChunks } from "./xmlItems.ts"

// Google Merchant RSS 2.0: items are read by the streaming slicer in
// xmlItems.ts, a batch at a time, and appended to a TEMP table; it then
// becomes the same staging table as the delimited formats', so validation
// and loading are shared.

const BATCH = 5_000

export const stageXml = (
  db: DatabaseShape,
  feed: FeedDefinition,
  file: string,
  gzip: boolean,
  table: string,
  precheck: string,
  progress: (rows: number) => void
): Effect.Effect<Staged, PipelineError> => {
  // The Appender fills a TEMP table of the writer connection (appending to a table in the
  // database file cost ~4x the CPU: every row went through the WAL); it then becomes the
  // same staging table as the delimited formats', with the pre-check.
  const appended = `${table}_xml`
  const parseError = (message: string) => new PipelineError({ feed: feed.name, stage: "parse", message })
  const append = (batch: ReadonlyArray<StagedRecord>) =>
    db.append(
      appended,
      (appender) => {
        for (const record of batch) {
          record.store ??= feed.options.store ?? null
          for (const column of STAGED_COLUMNS) {
            appendTextOrNull(appender, record[column])
          }
          appender.endRow()
        }
      },
      { temp: true }
    )
  // The reader is pulled one batch at a time from this fiber (each append runs
  // in it, and an interruption stops between batches); closing it closes the file.
  const readBatches = Effect.acquireUseRelease(
    Effect.sync(() => sliceXmlItems(xmlChunks(file, gzip), BATCH, feed.options.storeColumn)),
    (batches) =>
      Effect.gen(function* () {
        let items = 0
        for (;;) {
          const next = yield* Effect.tryPromise({
            try: () => batches.next(),
            catch: (cause) =>
              parseError(
                cause instanceof XmlFeedError ? cause.message : `cannot parse XML: ${(cause as Error).message}`
              )
          })
          if (next.done === true) return items
          yield* append(next.value)
          items += next.value.length
          progress(items)
        }
      }),
    (batches) => Effect.promise(() => batches.return(undefined)).pipe(Effect.ignore)
  )
  return Effect.gen(function* () {
    yield* db.run(`CREATE OR REPLACE TEMP TABLE ${appended} (${STAGED_COLUMNS.map((c) => `${c} VARCHAR`).join(", ")})`)
    const count = yield* readBatches
    yield* db.transaction((tx) =>
      Effect.gen(function* () {
        yield* tx.run(
          `CREATE OR REPLACE TEMP TABLE ${table} AS SELECT *, coalesce(${precheck}, false) AS ok FROM ${appended} ORDER BY rowid`
        )
        yield* tx.run(`DROP TABLE ${appended}`)
      })
    )
    return { rowsRead: count, structural: [], lineOf: (k: number) => k + 1 }
  }).pipe(
    Effect.onError(() => db.run(`DROP TABLE IF EXISTS ${appended}`).pipe(Effect.ignore)),
    Effect.mapError((error) => (error._tag === "PipelineError" ? error : parseError(error.message)))
  )
}
