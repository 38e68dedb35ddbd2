// Failed journal writes as episodes, for the log. While the disk fails (full,
// read-only, EIO), the click worker retries its commit with every new page and
// on its timer: about ten failures a second. Logged one by one, they bury the
// log and say nothing new after the first; the metric of failures still counts
// every one. So the log gets a line when writes start failing (with the
// error), a reminder every REMIND_MS while they still fail (how many, for how
// long, the latest error), and a line when a commit succeeds again: every
// click the retries held is then on disk.

export const REMIND_MS = 60_000

export interface JournalFailureLine {
  readonly level: "error" | "info"
  readonly message: string
  readonly annotations: Readonly<Record<string, string | number>>
}

export interface JournalFailures {
  /** A commit failed at `now` with `error`: the line to log, if this one deserves one. */
  readonly failed: (now: number, error: string) => JournalFailureLine | undefined
  /** A commit succeeded at `now`: the line that closes an episode, if one was open. */
  readonly succeeded: (now: number) => JournalFailureLine | undefined
}

export const makeJournalFailures = (remindMs = REMIND_MS): JournalFailures => {
  const line = (level: JournalFailureLine["level"], message: string, annotations: JournalFailureLine["annotations"]) =>
    ({ level, message, annotations }) satisfies JournalFailureLine
  let episode: { since: number; failures: number; remindedAt: number } | undefined
  return {
    failed: (now, error) => {
      if (episode === undefined) {
        episode = { since: now, failures: 1, remindedAt: now }
        return line("error", "click journal write failed; retrying until it succeeds", { error })
      }
      episode.failures++
      if (now - episode.remindedAt < remindMs) return undefined
      episode.remindedAt = now
      return line("error", "click journal writes still failing; retrying", {
        error,
        failures: episode.failures,
        failingForMs: now - episode.since
      })
    },
    succeeded: (now) => {
      if (episode === undefined) return undefined
      const { since, failures } = episode
      episode = undefined
      return line("info", "click journal writes succeed again; the clicks they held are on disk", {
        failures,
        failedForMs: now - since
      })
    }
  }
}
