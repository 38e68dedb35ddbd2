import { readFileSync } from "node:fs"

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
