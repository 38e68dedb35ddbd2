import { readdirSync, readFileSync } from "node:fs"

/**
 * The CPU time a process has used so far, in clock ticks (utime + stime of
 * /proc/<pid>/stat), or undefined where there is no /proc or no such
 * process. Read only when a request has waited long (a few hundred µs of
 * work), never per request.
 */
export const processCpuTicks = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1")
    // the command name (field 2) may hold spaces and parentheses: count fields after its closing one
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return undefined
  }
}

/**
 * Whether a thread of the process is runnable or waits for the disk (state
 * R or D of /proc/<pid>/task/<tid>/stat): it wants to work, whether or not a
 * core is free for it. A stopped process's threads are all T, a deadlocked
 * one's asleep (S). False where there is no /proc or no such process. Reads
 * one small file per thread (tens of µs each): only for a request already
 * silent for long, never per request.
 */
export const processWantsToRun = (pid: number, proc = "/proc"): boolean => {
  let threads: Array<string>
  try {
    threads = readdirSync(`${proc}/${pid}/task`)
  } catch {
    return false
  }
  for (const tid of threads) {
    try {
      const stat = readFileSync(`${proc}/${pid}/task/${tid}/stat`, "latin1")
      // the command name (field 2) may hold spaces and parentheses: the state follows its closing one
      const state = stat.charAt(stat.lastIndexOf(")") + 2)
      if (state === "R" || state === "D") return true
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return false
}
