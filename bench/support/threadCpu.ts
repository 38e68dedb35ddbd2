import { readdirSync, readFileSync } from "node:fs"
import { type PerformanceEntry, PerformanceObserver } from "node:perf_hooks"

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

/** A stretch of this thread's CPU between two timer turns: when it ran (performance.now ms) and its CPU (ms). */
interface Stretch {
  readonly from: number
  readonly to: number
  readonly cpuMs: number
}

/** Stretches shorter than this are not kept for the garbage collector's share: they cannot be the longest. */
const KEPT_STRETCH_MS = 5

/**
 * Starts watching this thread's CPU time between two turns of a 2 ms timer;
 * `stop` returns the longest stretch (ms), the longest once the garbage
 * collector's pauses inside each stretch are taken out of it, and the CPU
 * time since the start. Unlike a timer's lateness, CPU time does not grow
 * when a loaded machine keeps the process off the cores. The collector's
 * share is there for a process that ran other work before (a test file after
 * others): a major collection's pause grows with everything the heap holds,
 * which is not the watched work's doing.
 */
export const watchMainThread = () => {
  const started = process.threadCpuUsage()
  let last = started
  let lastAt = performance.now()
  let longestMs = 0
  const stretches: Array<Stretch> = []
  const pauses: Array<PerformanceEntry> = []
  const collector = new PerformanceObserver((list) => pauses.push(...list.getEntries()))
  collector.observe({ entryTypes: ["gc"] })
  const timer = setInterval(() => {
    const used = process.threadCpuUsage(last)
    const cpuMs = (used.user + used.system) / 1000
    const now = performance.now()
    longestMs = Math.max(longestMs, cpuMs)
    if (cpuMs >= KEPT_STRETCH_MS) stretches.push({ from: lastAt, to: now, cpuMs })
    last = process.threadCpuUsage()
    lastAt = performance.now()
  }, 2)
  return {
    stop: () => {
      clearInterval(timer)
      pauses.push(...collector.takeRecords())
      collector.disconnect()
      const used = process.threadCpuUsage(started)
      const gcMsIn = (stretch: Stretch) =>
        pauses.reduce(
          (sum, pause) =>
            sum +
            Math.max(
              0,
              Math.min(stretch.to, pause.startTime + pause.duration) - Math.max(stretch.from, pause.startTime)
            ),
          0
        )
      const longestOutsideGcMs = stretches.reduce((most, stretch) => Math.max(most, stretch.cpuMs - gcMsIn(stretch)), 0)
      return { longestMs, longestOutsideGcMs, cpuMs: (used.user + used.system) / 1000 }
    }
  }
}
