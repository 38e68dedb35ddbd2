import { readdirSync, readFileSync } from "node:fs"
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks"

// Where a phase's time goes inside this process (the server): CPU per thread
// group read from /proc/self/task (Linux; main thread, click worker,
// libuv-worker = DuckDB's threads and the fs/thread pool, V8 helpers), how
// long the event loop waited for a core while runnable (schedstat: CPU
// contention, ours or other processes'), GC pauses, and the event loop's
// delay. Measured the same way for every server the bench runs.
const TICK_MS = 10 // USER_HZ is 100 on Linux

/** A field of a thread's /proc schedstat: [0] ns it ran on a core, [1] ns it waited runnable; NaN where there is none. */
const schedstatNs = (path: string, field: 0 | 1): number => {
  try {
    return Number(readFileSync(path, "latin1").split(" ")[field])
  } catch {
    return Number.NaN
  }
}

/** Nanoseconds a thread ran on a core so far, from /proc schedstat. */
export const onCpuNs = (path = "/proc/thread-self/schedstat"): number => schedstatNs(path, 0)

/** Nanoseconds a thread waited on the run queue (runnable, no core), from /proc schedstat. */
export const runQueueWaitNs = (path = "/proc/thread-self/schedstat"): number => schedstatNs(path, 1)

/**
 * CPU ticks (utime + stime) per name over the entries of a /proc folder:
 * `/proc` (processes; this one named "(this process)") or `/proc/self/task`
 * (this process's threads). Not Linux: empty.
 */
const ticksByName = (folder: string): Map<string, number> => {
  const byName = new Map<string, number>()
  let entries: Array<string> = []
  try {
    entries = readdirSync(folder).filter((name) => /^\d+$/.test(name))
  } catch {
    return byName
  }
  for (const id of entries) {
    try {
      const stat = readFileSync(`${folder}/${id}/stat`, "latin1")
      // "id (comm) state ...": comm may hold spaces, so split after the last ')'
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      const ticks = Number(fields[11]) + Number(fields[12]) // fields 14 and 15
      const name =
        folder === "/proc" && id === String(process.pid)
          ? "(this process)"
          : stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))
      byName.set(name, (byName.get(name) ?? 0) + ticks)
    } catch {
      // it ended between readdir and read
    }
  }
  return byName
}
const processTicks = () => ticksByName("/proc")
const threadTicks = () => ticksByName("/proc/self/task")

export interface PhaseProfile {
  readonly seconds: number
  /** Share of one core per thread group, e.g. { MainThread: 0.41, WorkerThread: 0.12 } */
  readonly cores: ReadonlyMap<string, number>
  readonly gcCount: number
  readonly gcTotalMs: number
  readonly gcMaxMs: number
  readonly loopP99Ms: number
  readonly loopP999Ms: number
  readonly loopMaxMs: number
  /** Time the event loop was runnable but had no core (ms), and that per second of the phase. */
  readonly loopRunQueueMs: number
  /** The busiest processes of the machine during the phase (share of one core), this one included. */
  readonly machine: ReadonlyArray<readonly [string, number]>
}

export const startProbe = () => {
  const started = performance.now()
  const before = threadTicks()
  const machineBefore = processTicks()
  const waitBefore = runQueueWaitNs()
  const gc: Array<number> = []
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gc.push(entry.duration)
  })
  observer.observe({ entryTypes: ["gc"] })
  const delay = monitorEventLoopDelay({ resolution: 1 })
  delay.enable()
  return {
    stop: (): PhaseProfile => {
      delay.disable()
      observer.disconnect()
      const seconds = (performance.now() - started) / 1000
      const cores = new Map<string, number>()
      for (const [name, ticks] of threadTicks()) {
        const used = ((ticks - (before.get(name) ?? 0)) * TICK_MS) / 1000 / seconds
        if (used > 0) cores.set(name, used)
      }
      const ms = (ns: number) => ns / 1e6
      return {
        seconds,
        cores,
        gcCount: gc.length,
        gcTotalMs: gc.reduce((a, b) => a + b, 0),
        gcMaxMs: Math.max(0, ...gc),
        loopP99Ms: ms(delay.percentile(99)),
        loopP999Ms: ms(delay.percentile(99.9)),
        loopMaxMs: ms(delay.max),
        loopRunQueueMs: ms(runQueueWaitNs() - waitBefore),
        machine: [...processTicks()]
          .map(([name, ticks]): [string, number] => [
            name,
            ((ticks - (machineBefore.get(name) ?? 0)) * TICK_MS) / 1000 / seconds
          ])
          .filter(([, used]) => used >= 0.05)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 6)
      }
    }
  }
}

export const describeProfile = (p: PhaseProfile) =>
  `server threads (cores): ${[...p.cores]
    .sort((a, b) => b[1] - a[1])
    .map(([name, used]) => `${name} ${used.toFixed(2)}`)
    .join(", ")}; GC ${p.gcCount} pauses, ${p.gcTotalMs.toFixed(0)} ms total, max ${p.gcMaxMs.toFixed(1)} ms; ` +
  `event-loop delay p99 ${p.loopP99Ms.toFixed(1)} ms, p99.9 ${p.loopP999Ms.toFixed(1)} ms, max ${p.loopMaxMs.toFixed(1)} ms; ` +
  `event loop waited for a core ${p.loopRunQueueMs.toFixed(0)} ms (${(p.loopRunQueueMs / p.seconds).toFixed(0)} ms/s); ` +
  `busiest processes (cores): ${p.machine.map(([name, used]) => `${name} ${used.toFixed(2)}`).join(", ")}`
