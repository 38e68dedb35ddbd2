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
