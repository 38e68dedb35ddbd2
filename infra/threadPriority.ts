import { readdirSync, readFileSync } from "node:fs"
import { setPriority } from "node:os"

// Background threads of this process at a lower scheduling priority, so the
// event loop that answers requests wins a contended core. On Linux a thread
// is a task with its own nice value: setpriority() on a thread id changes
// that thread only (raising niceness needs no privilege). Elsewhere, or
// without /proc, nothing changes.

/** Nice value of the threads that apply batches (DuckDB's, the libuv pool's). */
export const BACKGROUND_NICE = 10

/**
 * Renices every thread of this process named `name` (Linux `comm`; DuckDB's
 * threads inherit "libuv-worker" from the pool thread that opened the
 * database). Returns how many threads were changed.
 */
export const lowerThreadsNamed = (name: string, nice: number): number => {
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

/** Lowers the calling thread's priority (call it inside a worker thread: only that thread changes). */
export const lowerThisThread = (nice: number): boolean => {
  try {
    setPriority(nice)
    return true
  } catch {
    return false
  }
}
