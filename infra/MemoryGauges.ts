import { Effect, Layer } from "effect"
import type { Worker } from "node:worker_threads"
import { Metrics } from "./Metrics.ts"
import { statusBytes } from "./ProcessInfo.ts"
import { Staging } from "./Staging.ts"

// What the process's memory is made of, on /metrics: its RSS and the peak of
// it, DuckDB's own accounting by tag (its buffer pool and what its queries
// hold: the staging and scratch tables, hash tables, sorts), and the V8 heap
// of each worker thread (the click journal's, a search sync's). The main
// thread's heap is there already (Metrics.ts). What none of them names is the
// allocators' kept pages and the code mapped in. DuckDB and the workers are
// asked every SAMPLE_SECONDS (a query, a message to each thread), not at
// scrape time, which is synchronous: their gauges are at most that old.

export const SAMPLE_SECONDS = 5

export const MemoryGaugesLayer = Layer.effectDiscard(
  Effect.gen(function* () {
    const metrics = yield* Metrics
    const duckdb = yield* Staging
    metrics.gauge("process_resident_memory_bytes", "Resident memory of this process", () => process.memoryUsage.rss())
    if (statusBytes("self", "VmHWM") !== undefined)
      metrics.gauge(
        "process_resident_memory_peak_bytes",
        "Largest resident memory of this process since it started",
        () => statusBytes("self", "VmHWM") ?? 0
      )

    const duckdbTags = new Map<string, number>()
    let duckdbSpilled = 0
    metrics.gauge(
      "duckdb_spilled_bytes",
      "What DuckDB spilled to its temporary folder (on disk, not in memory)",
      () => duckdbSpilled
    )
    const sampleDuckDb = duckdb
      .query<{ tag: string; bytes: number; spilled: number }>(
        "SELECT tag, memory_usage_bytes::DOUBLE AS bytes, temporary_storage_bytes::DOUBLE AS spilled FROM duckdb_memory()"
      )
      .pipe(
        Effect.map((rows) => {
          duckdbSpilled = 0
          for (const { tag, bytes, spilled } of rows) {
            if (!duckdbTags.has(tag))
              metrics.gauge(
                "duckdb_memory_bytes",
                "Memory DuckDB accounts to this use (its buffer pool and what queries hold), by tag",
                () => duckdbTags.get(tag) ?? 0,
                { tag }
              )
            duckdbTags.set(tag, bytes)
            duckdbSpilled += spilled
          }
        }),
        // a sample missed (the store closing, a query refused) leaves the last one
        Effect.ignore
      )

    // Every worker thread the process starts, by its name, while it runs: the
    // heap it uses, and what it holds from the system (its part of the RSS).
    const workerHeaps = new Map<string, { used: number; committed: number }>()
    const running = new Map<Worker, string>()
    const NONE = { used: 0, committed: 0 }
    const started = (worker: Worker) => {
      const name = worker.threadName ?? "worker"
      running.set(worker, name)
      if (!workerHeaps.has(name)) {
        const labels = { worker: name }
        metrics.gauge(
          "nodejs_worker_heap_used_bytes",
          "V8 heap in use on a worker thread (0 while none of that name runs)",
          () => (workerHeaps.get(name) ?? NONE).used,
          labels
        )
        metrics.gauge(
          "nodejs_worker_heap_committed_bytes",
          "V8 heap a worker thread holds from the system, in use or not (0 while none of that name runs)",
          () => (workerHeaps.get(name) ?? NONE).committed,
          labels
        )
      }
      workerHeaps.set(name, NONE)
      worker.once("exit", () => {
        running.delete(worker)
        workerHeaps.set(name, NONE)
      })
    }
    yield* Effect.acquireRelease(
      Effect.sync(() => process.on("worker", started)),
      () => Effect.sync(() => process.off("worker", started))
    )
    const sampleWorkers = Effect.promise(() =>
      Promise.all(
        [...running].map(([worker, name]) =>
          worker
            .getHeapStatistics()
            .then((heap) => {
              if (running.has(worker))
                workerHeaps.set(name, { used: heap.used_heap_size, committed: heap.total_heap_size })
            })
            // it exited between the listing and the answer
            .catch(() => undefined)
        )
      )
    )

    yield* Effect.forkScoped(
      Effect.forever(
        Effect.andThen(Effect.all([sampleDuckDb, sampleWorkers]), Effect.sleep(`${SAMPLE_SECONDS} seconds`))
      )
    )
  })
)
