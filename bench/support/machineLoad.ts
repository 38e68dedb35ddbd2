import { readFileSync } from "node:fs"
import { loadavg } from "node:os"

/** The machine's 1/5/15-minute load averages, as `uptime` prints them: every figure is printed with it. */
export const machineLoad = () =>
  `load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`

/**
 * A warning when this bench's session runs at another CPU priority than the
 * processes it starts in their own session (Linux autogroups: the kernel
 * shares a busy CPU between sessions first, by the session's nice value, and
 * only then between threads by theirs). The embedded Meilisearch runs in a
 * session of its own: with the bench's session at nice -15 it got a few
 * percent of a busy CPU, and searches waited seconds for it. Empty when
 * equal, or without autogroups.
 */
export const sessionPriorityWarning = (): string => {
  let line: string
  try {
    line = readFileSync("/proc/self/autogroup", "latin1")
  } catch {
    return ""
  }
  const nice = Number(/nice (-?\d+)/.exec(line)?.[1] ?? 0)
  return nice === 0
    ? ""
    : `WARNING: this session's CPU priority is autogroup nice ${nice}, Meilisearch's (a session of its own) 0: ` +
        `on a busy CPU the kernel favours one of them, and the figures are not those of a user's machine`
}
