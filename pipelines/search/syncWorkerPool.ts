import { Effect, Exit } from "effect"
import { Worker } from "node:worker_threads"
import { SearchError } from "../../infra/SearchEngine.ts"
import type { ModelBatch } from "./modelBatches.ts"
import {
  SYNC_WORKER_NAME,
  type SyncWorkerReply,
  type SyncWorkerRequest,
  type SyncWorkerStart
} from "./syncWorkerProtocol.ts"

// The main thread's side of the sync's worker thread (syncWorker.ts): one
// worker per products sync, started with it and terminated after it, so an
// idle service holds no thread and no copy of the document code. Requests
// are answered in order; several may be in flight (DuckDB writes the next
// batch's rows to their file while the worker builds the previous one).

export interface SyncWorker {
  /**
   * Keys the numbered inputs DuckDB wrote to `inputs` (keyFiles.ts) into
   * (n, model_key) lines in `keys`; answers how many. The worker deletes `inputs` once read.
   */
  readonly keys: (inputs: string, keys: string) => Effect.Effect<number, SearchError>
  /**
   * The chunks of batches over the model sizes DuckDB wrote to `file`
   * (modelBatches.ts modelSizesCopySql). The worker deletes the file once read.
   */
  readonly plan: (file: string) => Effect.Effect<ReadonlyArray<ReadonlyArray<ModelBatch>>, SearchError>
  /**
   * The model documents of the batch whose rows DuckDB wrote to `file`
   * (productRowsJson.ts productRowsCopySql), as the UTF-8 JSON body of an
   * addDocuments call, and how many there are. The worker deletes the file once read.
   */
  readonly documents: (
    file: string,
    now: number
  ) => Effect.Effect<{ readonly body: Uint8Array; readonly documents: number }, SearchError>
}

const failure = (message: string) => new SearchError({ message: `search sync worker: ${message}`, unavailable: false })

type Pending = (reply: SyncWorkerReply | Error) => void

/**
 * The worker's V8 heap (MB). It builds a batch model by model
 * (modelBody.ts): its heap holds one model's offers, the batch file and its
 * body are bytes outside it. Batches of 10,000-character descriptions (the
 * longest a feed may carry) peaked at 17 MB of used heap, sampled
 * (test/pipelines/search/syncMemory.test.ts); 106 MB while every offer,
 * document and the batch's JSON were held at once. Unbounded, V8 let the
 * heap grow to 300-450 MB at 1M products before collecting (a worker's
 * default limit is ~4 GB, its young generation alone up to 192 MB), all of
 * it in the service's RSS. The bound is not lower for one model of many long
 * offers: 20,000 offers of one model with 10,000-character descriptions
 * build within 256 MB and run out of heap at 128 MB (measured in one
 * process). Through a 1M sync of the bench feed's short offers the heap was
 * sampled at 60-131 MB used either way: what V8 leaves uncollected within
 * the bound, not what the worker holds.
 */
export const SYNC_WORKER_HEAP_MB = { old: 256, young: 32 } as const

/** A worker for the length of the scope, running at nice value `nice` (0: the process's own). */
export const syncWorker = (nice: number) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const worker = new Worker(new URL("./syncWorker.ts", import.meta.url), {
        name: SYNC_WORKER_NAME,
        workerData: { nice } satisfies SyncWorkerStart,
        resourceLimits: {
          maxOldGenerationSizeMb: SYNC_WORKER_HEAP_MB.old,
          maxYoungGenerationSizeMb: SYNC_WORKER_HEAP_MB.young
        }
      })
      // Never what keeps the process alive: a shutdown mid-sync must not wait for it.
      worker.unref()
      const pending = new Map<number, Pending>()
      let next = 0
      let broken: Error | undefined
      const failAll = (error: Error) => {
        broken ??= error
        for (const settle of pending.values()) settle(error)
        pending.clear()
      }
      worker.on("message", (reply: SyncWorkerReply) => {
        const settle = pending.get(reply.id)
        pending.delete(reply.id)
        settle?.(reply)
      })
      worker.on("error", failAll)
      worker.on("exit", (code) => failAll(new Error(`exited with code ${code}`)))

      const ask = <A>(
        id: number,
        request: (id: number) => SyncWorkerRequest,
        read: (reply: SyncWorkerReply) => A | undefined
      ) =>
        Effect.callback<A, SearchError>((resume) => {
          if (broken !== undefined) return resume(Effect.fail(failure(broken.message)))
          pending.set(id, (reply) => {
            if (reply instanceof Error) return resume(Effect.fail(failure(reply.message)))
            if ("error" in reply) return resume(Effect.fail(failure(reply.error)))
            const value = read(reply)
            resume(value === undefined ? Effect.fail(failure("unexpected reply")) : Effect.succeed(value))
          })
          worker.postMessage(request(id))
          return Effect.sync(() => pending.delete(id))
        })

      const shape: SyncWorker = {
        keys: (inputs, keys) =>
          ask(
            next++,
            (id) => ({ kind: "keys", id, inputs, keys }),
            (reply) => ("keyed" in reply ? reply.keyed : undefined)
          ),
        plan: (file) =>
          ask(
            next++,
            (id) => ({ kind: "plan", id, file }),
            (reply) => ("chunks" in reply ? reply.chunks : undefined)
          ),
        documents: (file, now) =>
          ask(
            next++,
            (id) => ({ kind: "documents", id, file, now }),
            (reply) => ("body" in reply ? { body: reply.body, documents: reply.documents } : undefined)
          )
      }
      // After a sync that ran to its end: the worker's heap is unmapped on its
      // own thread, not on the main thread 8 s after it ends (infra/workerHeap.ts).
      const release = Effect.suspend(() =>
        ask(
          next++,
          (id) => ({ kind: "release", id }),
          (reply) => ("released" in reply ? true : undefined)
        )
      ).pipe(Effect.ignore)
      return { shape, worker, release }
    }),
    ({ worker, release }, exit) =>
      (Exit.isSuccess(exit) ? release : Effect.void).pipe(Effect.andThen(Effect.promise(() => worker.terminate())))
  ).pipe(Effect.map(({ shape }) => shape))
