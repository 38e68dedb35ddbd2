import { readdirSync, readFileSync } from "node:fs"

/**
 * CPU seconds per thread name of a live process (Linux /proc/PID/task): the
 * event loop ("node"), the click worker, DuckDB's and libuv's pools. Threads
 * of one name are summed; a thread gone since is missing from the map.
 */
export const threadCpuSeconds = (pid: number): Map<string, number> => {
  const byName = new Map<string, number>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "latin1")
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100)
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return byName
}

/** Per thread name, the CPU µs per request between two readings. */
export const perRequestUs = (before: Map<string, number>, after: Map<string, number>, requests: number) =>
  [...after]
    .map(([name, seconds]) => [name, ((seconds - (before.get(name) ?? 0)) * 1e6) / Math.max(1, requests)] as const)
    .filter(([, us]) => us >= 0.5)
    .sort((a, b) => b[1] - a[1])
    .map(([name, us]) => `${name} ${us.toFixed(1)}`)
    .join(", ")

/**
 * Starts watching this thread's CPU time between two turns of a 2 ms timer;
 * `stop` returns the longest stretch (ms) and the CPU time since the start.
 * Unlike a timer's lateness, CPU time does not grow when a loaded machine
 * keeps the process off the cores.
 */
export const watchMainThread = () => {
  const started = process.threadCpuUsage()
  let last = started
  let longestMs = 0
  const timer = setInterval(() => {
    const used = process.threadCpuUsage(last)
    longestMs = Math.max(longestMs, (used.user + used.system) / 1000)
    last = process.threadCpuUsage()
  }, 2)
  return {
    stop: () => {
      clearInterval(timer)
      const used = process.threadCpuUsage(started)
      return { longestMs, cpuMs: (used.user + used.system) / 1000 }
    }
  }
}
