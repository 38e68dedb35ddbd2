import { readdirSync, readFileSync } from "node:fs"
import { getPriority, setPriority } from "node:os"

// Background threads of this process at a lower scheduling priority, so the
// event loop that answers requests wins a contended core. On Linux a thread
// is a task with its own nice value: setpriority() on a thread id changes
// that thread only (raising niceness needs no privilege). Elsewhere, or
// without /proc, nothing changes.

/** How much nicer than the event loop the threads that apply batches run (DuckDB's, the libuv pool's). */
export const BACKGROUND_NICE = 10
/**
 * The click worker: below the event loop, so a redirect never waits for a
 * click batch on a contended core, but above BACKGROUND_NICE: the crash
 * window needs the journal written within CRASH_WINDOW_MS even at peak.
 */
export const CLICK_WORKER_NICE = 5

// Relative to the main thread (its id is the process id), so a service
// started under `nice` keeps the same order, and calling twice changes nothing.
const niceAbove = (by: number): number => {
  try {
    return Math.min(19, getPriority(process.pid) + by)
  } catch {
    return by
  }
}

/**
 * Makes every thread of this process named `name` `by` nicer than the main
 * thread (Linux `comm`; DuckDB's
 * threads inherit "libuv-worker" from the pool thread that opened the
 * database). Returns how many threads were changed.
 */
export const lowerThreadsNamed = (name: string, by: number): number => {
  const nice = niceAbove(by)
  let tasks: Array<string>
  try {
    tasks = readdirSync("/proc/self/task")
  } catch {
    return 0
  }
  let changed = 0
  for (const task of tasks) {
    try {
      if (readFileSync(`/proc/self/task/${task}/comm`, "latin1").trim() !== name) continue
      setPriority(Number(task), nice)
      changed++
    } catch {
      // the thread ended meanwhile, or the platform refuses: it keeps its priority
    }
  }
  return changed
}

/** Makes the calling thread `by` nicer than the main thread (call it inside a worker thread: only that thread changes). */
export const lowerThisThread = (by: number): boolean => {
  try {
    setPriority(niceAbove(by))
    return true
  } catch {
    return false
  }
}
