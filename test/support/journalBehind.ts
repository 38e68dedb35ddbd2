import { COMMIT_MS, CRASH_WINDOW_MS } from "../../clicks/ClickRecorder.ts"

/**
 * Whether a service's click journal was behind the crash bound when it died,
 * from its log output (JSON lines): the answer time of the oldest late click
 * of the episode still open at the end (a "fell behind" line with no "caught
 * up" line after it), or Infinity when none was open. The bound is stated as
 * holding while the journal keeps up; a service whose journal falls behind (a
 * stalled fdatasync under a loaded disk) says so as it happens, and every
 * click answered before that must still be stored.
 */
export const journalBehindSince = (output: string): number => {
  let since = Infinity
  for (const line of output.split("\n")) {
    if (line.includes("click journal caught up")) since = Infinity
    else if (line.includes("click journal fell behind")) {
      const { annotations } = JSON.parse(line) as { annotations: { oldestLateAnsweredAt: string } }
      since = Date.parse(annotations.oldestLateAnsweredAt)
    }
  }
  return since
}

/**
 * The crash bound as stated, for a service killed at `killedAt` with this log
 * output: a click it answered at `answeredAt` must be stored when that was more
 * than CRASH_WINDOW_MS before the kill and before the oldest late click of an
 * episode still open then. (The service checks for late pages every COMMIT_MS,
 * so a click due by less than that may be lost just before the check says so.)
 */
export const crashBound = (output: string, killedAt: number) => {
  const behindSince = journalBehindSince(output)
  return {
    behindSince,
    covers: (answeredAt: number) => answeredAt < behindSince && answeredAt < killedAt - CRASH_WINDOW_MS - COMMIT_MS
  }
}
