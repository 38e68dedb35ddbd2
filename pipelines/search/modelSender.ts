import { Clock, Effect, Semaphore } from "effect"
import type { DatabaseShape } from "../../infra/Database.ts"
import { type ModelBatch, modelSizesCopySql } from "./modelBatches.ts"
import { productRowsCopySql } from "./productRowsJson.ts"
import type { IndexTasks } from "./indexTasks.ts"
import { removeRowFile, rowFileNames } from "./rowFiles.ts"
import type { SyncPhase } from "./syncPhases.ts"
import type { SyncWorker } from "./syncWorkerPool.ts"
import { CHUNK_TABLE } from "./workTables.ts"

// Turns the models productModels.ts left in the work database into model
// documents and enqueues them, batch by batch, overlapping DuckDB's reads
// with Meilisearch's intake. What to send is the sync policy's choice
// (SearchSync.ts); this file only moves rows to the index.

/** Enqueue requests in flight while the next batch is read from DuckDB. */
const SEND_CONCURRENCY = 2

/**
 * Where sendModels reads: `ranks` has a row (model_rank, and the offer's
 * estimated bytes: modelBatches.ts offerBytesSql) per offer;
 * `chunkRows(from, to)` selects the rows of the models ranked in (from, to]
 * in rank order (model_id, model_rank, hash and the ProductRow columns),
 * stored chunk by chunk; a rebuild also records each chunk's offers into
 * `sentTo` (id, feed, hash, model_rank) for the sync state.
 */
export interface ModelSource {
  readonly ranks: string
  readonly chunkRows: (from: number, to: number) => string
  readonly sentTo?: string
}

/**
 * `db`: staging (DuckDB), with the work database attached; `rowFilesDir`:
 * the folder a sync's batch files go to (rowFiles.ts), there while it runs.
 */
export const makeModelSender = (db: DatabaseShape, indexTasks: IndexTasks, rowFilesDir: string) => {
  const { enqueueBody } = indexTasks
  const nextRowFile = rowFileNames(rowFilesDir, "batch")
  const nextSizesFile = rowFileNames(rowFilesDir, "sizes")

  /**
   * Streams the models of `source` to Meilisearch in batches (modelBatches.ts);
   * returns the enqueued task uids. Chunk by chunk: each chunk's rows are
   * built into a table of their own while the previous chunk is being sent, so Meilisearch gets its first
   * batch after one (small) chunk, not after all of them. The documents
   * and their JSON body are built in the sync's worker thread: on the event
   * loop a 20k-offer batch held it for hundreds of milliseconds. Their rows
   * reach it through a file DuckDB writes on its own threads, never as
   * JS values on the event loop.
   */
  const sendModels = (uid: string, source: ModelSource, phases: Array<SyncPhase>, worker: SyncWorker) =>
    Effect.gen(function* () {
      const started = yield* Clock.currentTimeMillis
      // Summed over batches and chunks, which overlap: where the sending time goes.
      const spent = { chunk: 0, write: 0, build: 0, enqueue: 0 }
      let firstAt: number | undefined

      // At most SEND_CONCURRENCY batches in memory at once, across chunks too.
      const inFlight = yield* Semaphore.make(SEND_CONCURRENCY)
      const sendBatch = (table: string, { from, to }: ModelBatch) =>
        Effect.gen(function* () {
          const t0 = yield* Clock.currentTimeMillis
          const file = nextRowFile()
          return yield* Effect.gen(function* () {
            // The driver answers COPY with a count: the rows are written by
            // DuckDB's threads and read by the worker, none of them by the
            // event loop (read through it, 20k rows cost it ~65 ms of CPU,
            // their garbage and the message copies as much again). Literal
            // bounds (our own integers): DuckDB prunes row groups by zone maps
            // only for constants; a bound parameter made each batch scan the
            // whole table.
            yield* db.query(productRowsCopySql(table, `model_rank > ${from} AND model_rank <= ${to}`, file))
            const t1 = yield* Clock.currentTimeMillis
            const { body } = yield* worker.documents(file, started)
            const t2 = yield* Clock.currentTimeMillis
            const task = yield* enqueueBody(uid, body)
            const t3 = yield* Clock.currentTimeMillis
            spent.write += t1 - t0
            spent.build += t2 - t1
            spent.enqueue += t3 - t2
            firstAt ??= t3 - started
            return task
          }).pipe(
            // The worker deletes the file once read; a COPY that failed part way
            // (a full disk) or a worker that died leaves it to this.
            Effect.ensuring(removeRowFile(file))
          )
        }).pipe(inFlight.withPermits(1))
      const sendBatches = (table: string, batches: ReadonlyArray<ModelBatch>) =>
        Effect.forEach(batches, (batch) => sendBatch(table, batch), { concurrency: SEND_CONCURRENCY })

      const sendChunk =
        ({ chunkRows, sentTo }: ModelSource) =>
        (batches: ReadonlyArray<ModelBatch>, index: number) =>
          Effect.gen(function* () {
            const chunkTable = `${CHUNK_TABLE}_${index}`
            const t0 = yield* Clock.currentTimeMillis
            yield* db.run(
              `CREATE OR REPLACE TABLE ${chunkTable} AS ${chunkRows(batches[0].from, batches[batches.length - 1].to)}`
            )
            if (sentTo !== undefined)
              yield* db.run(`INSERT INTO ${sentTo} SELECT id, feed, hash, model_rank FROM ${chunkTable}`)
            spent.chunk += (yield* Clock.currentTimeMillis) - t0
            return yield* sendBatches(chunkTable, batches).pipe(
              Effect.ensuring(db.run(`DROP TABLE IF EXISTS ${chunkTable}`).pipe(Effect.ignore))
            )
          })

      // The batches are planned in the worker from the models' sizes in a
      // file: one row per model never reaches the event loop.
      const sizesFile = nextSizesFile()
      const chunks = yield* db
        .query(modelSizesCopySql(source.ranks, sizesFile))
        .pipe(Effect.andThen(worker.plan(sizesFile)), Effect.ensuring(removeRowFile(sizesFile)))
      // Two chunks at a time: one is built (the writer) while the other is read and sent.
      const tasks = (yield* Effect.forEach(chunks, sendChunk(source), { concurrency: 2 })).flat()
      phases.push(
        { name: "first batch enqueued (after counts)", ms: firstAt ?? 0 },
        { name: "  chunks: facts into their tables (summed)", ms: spent.chunk },
        { name: "  batches: rows into their files (summed)", ms: spent.write },
        { name: "  batches: build documents and JSON in the worker (summed)", ms: spent.build },
        { name: "  batches: HTTP enqueue (summed)", ms: spent.enqueue }
      )
      return tasks
    })

  return { sendModels }
}
