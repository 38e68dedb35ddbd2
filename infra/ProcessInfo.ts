import { readdirSync, readFileSync } from "node:fs"

// What Linux's /proc says about a process. A pid alone can be reused by an
// unrelated process after a crash, so lock and pid files also record the
// process's start time (field 22 of /proc/<pid>/stat, clock ticks since boot):
// the same pid with another start time is another process.

/**
 * The fields of a /proc stat line (a process's or a thread's) from the 3rd,
 * the state, on: [0] state, [11] utime, [12] stime, [16] nice, [19] start
 * time. The 2nd field is the command name in parentheses and may hold spaces
 * and parentheses itself ("actix-server ac"), so they are counted after its last ")".
 */
export const statFields = (stat: string): Array<string> => stat.slice(stat.lastIndexOf(")") + 2).split(" ")

/** The start time of `pid`, or undefined when no such process exists (or /proc is unavailable). */
export const processStartTime = (pid: number): string | undefined => {
  try {
    return statFields(readFileSync(`/proc/${pid}/stat`, "utf8"))[19]
  } catch {
    return undefined
  }
}

/**
 * A memory field of /proc/<pid>/status in bytes ("VmRSS" the resident memory
 * now, "VmHWM" its peak), or undefined where there is no /proc or no such process.
 */
export const statusBytes = (pid: number | "self", field: "VmRSS" | "VmHWM"): number | undefined => {
  try {
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "latin1"))?.[1]
    return kb === undefined ? undefined : Number(kb) * 1024
  } catch {
    return undefined
  }
}

/** The argument vector of `pid` ([] when it is gone or unreadable). */
export const processArgs = (pid: number): Array<string> => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8")
      .split("\0")
      .filter((arg) => arg.length > 0)
  } catch {
    return []
  }
}

/** True while `pid` runs (a zombie counts as gone). */
export const isRunning = (pid: number): boolean => {
  try {
    return statFields(readFileSync(`/proc/${pid}/stat`, "utf8"))[0] !== "Z"
  } catch {
    try {
      process.kill(pid, 0)
      return true
    } catch {
      return false
    }
  }
}

/** Every pid whose argument vector satisfies `test` (Linux only; [] elsewhere). */
export const findProcesses = (test: (args: ReadonlyArray<string>) => boolean): Array<number> => {
  let entries: Array<string>
  try {
    entries = readdirSync("/proc")
  } catch {
    return []
  }
  return entries
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => test(processArgs(pid)))
}

/**
 * The CPU time a process has used so far, in clock ticks (utime + stime), or
 * undefined where there is no /proc or no such process. Read only when a
 * request has waited long (a few hundred µs of work), never per request.
 */
export const processCpuTicks = (pid: number): number | undefined => {
  try {
    const fields = statFields(readFileSync(`/proc/${pid}/stat`, "latin1"))
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return undefined
  }
}

/**
 * Whether a thread of the process is runnable or waits for the disk (state
 * R or D): it wants to work, whether or not a core is free for it. A stopped
 * process's threads are all T, a deadlocked one's asleep (S). False where
 * there is no /proc or no such process (`proc`: another root, for tests).
 * Reads one small file per thread (tens of µs each): only for a request
 * already silent for long, never per request.
 */
export const processWantsToRun = (pid: number, proc = "/proc"): boolean => {
  let threads: Array<string>
  try {
    threads = readdirSync(`${proc}/${pid}/task`)
  } catch {
    return false
  }
  return threads.some((tid) => {
    try {
      const state = statFields(readFileSync(`${proc}/${pid}/task/${tid}/stat`, "latin1"))[0]
      return state === "R" || state === "D"
    } catch {
      // the thread ended between the listing and the read
      return false
    }
  })
}
