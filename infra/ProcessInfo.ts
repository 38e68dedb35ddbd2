import { readdirSync, readFileSync } from "node:fs"

// What Linux's /proc says about a process. A pid alone can be reused by an
// unrelated process after a crash, so lock and pid files also record the
// process's start time (field 22 of /proc/<pid>/stat, clock ticks since boot):
// the same pid with another start time is another process.

/** The start time of `pid`, or undefined when no such process exists (or /proc is unavailable). */
export const processStartTime = (pid: number): string | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return fields[19]
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
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z"
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
