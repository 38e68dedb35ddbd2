import { Effect } from "effect"
import { Worker } from "node:worker_threads"

// One task in a worker thread of its own, started for it and gone after it:
// the feed work that would otherwise hold the event loop of a serving process
// (an XML feed's items, a conversion report). The worker speaks in messages;
// `onMessage` reads each and settles the task with the one that ends it.

export interface WorkerTaskOptions {
  /** The thread's name, as /proc shows it. */
  readonly name: string
  readonly workerData: unknown
  /** The worker's V8 heap bounds (MB): what it holds is its own, and counts in the service's RSS. */
  readonly heapMb: { readonly old: number; readonly young: number }
}

export interface Settle<A, E> {
  readonly succeed: (value: A) => void
  readonly fail: (error: E) => void
  /** Sends the worker a message (e.g. the acknowledgement a worker that paces its messages waits for). */
  readonly reply: (message: unknown) => void
}

/**
 * Runs the worker at `script` to the message that settles it. An error in
 * the worker, or its exit before a settling message, fails with `failure` of
 * what happened. Interrupted, the worker is terminated; it never keeps the
 * process alive (a shutdown mid-task does not wait for it).
 */
export const workerTask = <M, A, E>(
  script: URL,
  options: WorkerTaskOptions,
  onMessage: (message: M, settle: Settle<A, E>) => void,
  failure: (what: string) => E
): Effect.Effect<A, E> =>
  Effect.callback<A, E>((resume) => {
    const worker = new Worker(script, {
      name: options.name,
      workerData: options.workerData,
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb.old, maxYoungGenerationSizeMb: options.heapMb.young }
    })
    worker.unref()
    let settled = false
    const settleWith = (result: Effect.Effect<A, E>) => {
      if (settled) return
      settled = true
      resume(result)
    }
    const settle: Settle<A, E> = {
      succeed: (value) => settleWith(Effect.succeed(value)),
      fail: (error) => settleWith(Effect.fail(error)),
      reply: (message) => worker.postMessage(message)
    }
    worker.on("message", (message: M) => onMessage(message, settle))
    worker.on("error", (error) => settle.fail(failure(String(error))))
    worker.on("exit", (code) => settle.fail(failure(`the worker stopped (exit code ${code})`)))
    return Effect.promise(() => worker.terminate())
  })
