import { existsSync, readdirSync, readFileSync } from "node:fs"
import { getPriority, setPriority } from "node:os"
import { statFields } from "./ProcessInfo.ts"

// Thread priorities on Linux: background work (the embedded Meilisearch's
// indexing, the search sync's worker thread) runs at a higher nice value than
// what serves requests, so on a machine of few cores the scheduler hands the
// CPU to a search or a redirect first and to the indexer with what is left.
//
// Linux keeps a nice value per thread: setpriority(PRIO_PROCESS, tid) (Node's
// os.setPriority(tid, n)) changes one thread, and a thread inherits the nice
// value of the thread that creates it. An unprivileged process may raise the
// nice value of its own threads and of its children's, never lower it again,
// so everything here only ever raises it. Elsewhere (no /proc, or a platform
// where pid 0 means the whole process) nothing is changed.

/** Threads can be told apart and niced one by one: Linux, with /proc mounted. */
export const threadPrioritiesSupported = process.platform === "linux" && existsSync("/proc/self/task")

export interface ThreadInfo {
  readonly tid: number
  /** The kernel's name of the thread (comm: at most 15 characters). */
  readonly name: string
  readonly nice: number
}

/** The nice value in a /proc/<pid>/task/<tid>/stat line: its 19th field. */
export const niceOfStat = (stat: string): number => Number(statFields(stat)[16])

const readText = (path: string) => {
  try {
    return readFileSync(path, "latin1")
  } catch {
    // the thread ended between the listing and the read
    return undefined
  }
}

/** The threads of a process (`self`: this one), with their names; a thread that ends meanwhile is left out. */
export const threadNames = (pid: number | "self"): Array<{ readonly tid: number; readonly name: string }> => {
  let tids: Array<string>
  try {
    tids = readdirSync(`/proc/${pid}/task`)
  } catch {
    return []
  }
  const threads: Array<{ tid: number; name: string }> = []
  for (const tid of tids) {
    const name = readText(`/proc/${pid}/task/${tid}/comm`)
    if (name !== undefined) threads.push({ tid: Number(tid), name: name.trimEnd() })
  }
  return threads
}

/** The nice value of one thread of a process, or undefined once it has ended. */
export const niceOfThread = (pid: number | "self", tid: number): number | undefined => {
  const stat = readText(`/proc/${pid}/task/${tid}/stat`)
  return stat === undefined ? undefined : niceOfStat(stat)
}

/** Every thread of a process with its name and nice value. */
export const threadsOf = (pid: number | "self"): Array<ThreadInfo> =>
  threadNames(pid).flatMap(({ tid, name }) => {
    const nice = niceOfThread(pid, tid)
    return nice === undefined ? [] : [{ tid, name, nice }]
  })

/**
 * Raises one thread's nice value to `nice` (of this process or of a child);
 * never lowers it. False when the thread is gone or the kernel refused.
 */
export const raiseThreadNice = (pid: number, tid: number, nice: number): boolean => {
  const current = niceOfThread(pid, tid)
  if (current === undefined) return false
  if (current >= nice) return true
  try {
    setPriority(tid, nice)
    return true
  } catch {
    // ESRCH: the thread ended meanwhile; EACCES/EPERM: not ours to change
    return false
  }
}

/**
 * Raises the calling thread's nice value to `nice` (a worker thread calls it
 * for itself). On Linux pid 0 is the calling thread only; elsewhere it would
 * be the whole process, so there it does nothing. True when it was applied.
 */
export const niceThisThread = (nice: number): boolean => {
  if (!threadPrioritiesSupported || nice <= 0) return false
  try {
    // getpriority(PRIO_PROCESS, 0) reads the calling thread's value on Linux
    if (getPriority(0) >= nice) return true
    setPriority(0, nice)
    return true
  } catch {
    return false
  }
}
