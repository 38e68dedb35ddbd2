import { readFileSync } from "node:fs"
import { loadavg } from "node:os"

/** The machine's 1/5/15-minute load averages, as `uptime` prints them: every figure is printed with it. */
export const machineLoad = () =>
  `load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`

/**
 * A warning when the embedded Meilisearch (pid `meiliPid`) runs in another
 * session than this bench at another CPU priority (Linux autogroups: the
 * kernel shares a busy CPU between sessions first, by the session's nice
 * value, and only then between threads by theirs). The service starts it in
 * its own session, the bench's, unless perl is missing; in a session of its
 * own, with the bench's session at nice -15, it got a few percent of a busy
 * CPU, and searches waited seconds for it. Empty when they share a session,
 * when the values are equal, or without autogroups.
 */
export const sessionPriorityWarning = (meiliPid: number | undefined): string => {
  const autogroup = (pid: number | "self") => {
    try {
      const line = readFileSync(`/proc/${pid}/autogroup`, "latin1")
      return { id: line.split(" ")[0], nice: Number(/nice (-?\d+)/.exec(line)?.[1] ?? 0) }
    } catch {
      return undefined
    }
  }
  const ours = autogroup("self")
  const meili = meiliPid === undefined ? undefined : autogroup(meiliPid)
  return ours === undefined || meili === undefined || ours.id === meili.id || ours.nice === meili.nice
    ? ""
    : `WARNING: this session's CPU priority is autogroup nice ${ours.nice}, Meilisearch's (a session of its own) ` +
        `${meili.nice}: on a busy CPU the kernel favours one of them, and the figures are not those of a user's machine`
}

/**
 * CPU time the hypervisor gave to other guests while this machine's CPUs had
 * work (`steal`, the 8th value of /proc/stat's `cpu` line), in ms summed over
 * the CPUs; undefined without /proc. Steal stalls every process at once, the
 * bench's clients too: a window's latency can hold it without any fault of
 * the service's. The kernel counts it in USER_HZ ticks, 100 a second on Linux.
 */
export const stealMs = (): number | undefined => {
  try {
    const cpu = readFileSync("/proc/stat", "latin1").split("\n", 1)[0].trim().split(/\s+/)
    const ticks = Number(cpu[8])
    return Number.isFinite(ticks) ? ticks * 10 : undefined
  } catch {
    return undefined
  }
}

/** The steal (stealMs) since an earlier reading of it; undefined when either is. */
export const stealSince = (from: number | undefined): number | undefined => {
  const now = stealMs()
  return from === undefined || now === undefined ? undefined : now - from
}
