import type { ChildProcess } from "node:child_process"
import { raiseThreadNice, threadNames } from "./threadPriority.ts"

// The embedded Meilisearch indexes and answers searches in one process, on
// the same cores as the service. Its indexing threads get a higher nice value
// than its search threads, so a big document batch takes the CPU the searches
// leave instead of making them wait (on 2 cores a search waited seconds and
// the service answered 503 at its deadline).
//
// Meilisearch names its threads; the kernel keeps the first 15 characters.
// Indexing: `indexing-thread` (its indexing thread pool), `scheduler` (the
// task queue's loop and helpers), `batch-operation` and `indexer-extract…`
// (made for a batch while it runs). Searches and HTTP: `actix-rt|system`,
// `actix-server ac`, `tokio-runtime-w` (searches run on tokio's blocking
// threads); those keep the nice value of the process.

const INDEXING_THREAD = /^(indexing-thread|indexer-|batch-operation|scheduler)/

export const isIndexingThread = (name: string) => INDEXING_THREAD.test(name)

/** How often the running child's threads are looked at again: batch threads come and go with the batches. */
export const SWEEP_INTERVAL_MS = 1_000

/**
 * One look at the process's threads: every indexing thread below `nice` is
 * raised to it. Returns how many indexing threads it saw. Costs a directory
 * listing and one small read per thread (0.2-0.7 ms of the event loop for
 * 10-50 threads), each second.
 */
export const niceIndexingThreads = (pid: number, nice: number): number => {
  let seen = 0
  for (const { tid, name } of threadNames(pid)) {
    if (!isIndexingThread(name)) continue
    seen++
    raiseThreadNice(pid, tid, nice)
  }
  return seen
}

/**
 * Keeps the child's indexing threads at `nice` while it runs: a sweep now and
 * then each second, until it exits. Threads a niced thread creates inherit
 * its value, so most batch threads start niced; the sweep catches the rest
 * within a second. Never keeps the process alive.
 */
export const keepIndexingNiced = (child: ChildProcess, nice: number) => {
  const pid = child.pid
  if (pid === undefined || nice <= 0) return
  if (child.exitCode !== null || child.signalCode !== null) return
  const sweep = () => niceIndexingThreads(pid, nice)
  sweep()
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS)
  timer.unref()
  child.once("exit", () => clearInterval(timer))
}
