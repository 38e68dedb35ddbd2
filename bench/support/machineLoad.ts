import { loadavg } from "node:os"

/** The machine's 1/5/15-minute load averages, as `uptime` prints them: every figure is printed with it. */
export const machineLoad = () =>
  `load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`
