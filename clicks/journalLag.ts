// How far the click journal lags behind the redirects. The crash bound
// (CRASH_WINDOW_MS: a click answered longer ago than that before a SIGKILL is
// stored) holds only while the worker journals each page within it; under a
// heavy load (the worker waiting for a core, an fdatasync stalled by other
// writers on the disk) it can fall behind, and it was measured to. So every
// page handed to the worker is remembered with the time of its first (oldest)
// click. A page still waiting when it passes the bound is late at that moment
// (`overdue`, checked on a timer), not only once the worker reports it
// journaled: a worker that never reports (stalled, then killed) is the case
// that loses clicks, and it must be seen before the crash, not after.
//
// Late pages make an episode: it opens with the first late page (the answer
// time of its oldest click: every click answered before it is on disk) and
// closes once no late page is waiting and none was found for QUIET_MS. An
// operator sees both (log lines, and the metric of late clicks) instead of
// trusting the bound blindly; the quiet period keeps a journal hovering at the
// bound to about a pair of lines a second.

const QUIET_MS = 1_000

export interface LateEpisode {
  /** The answer time of the episode's oldest late click (ms). */
  readonly since: number
  /** Late clicks found so far, and the longest wait past the bound seen. */
  readonly late: number
  readonly longestMs: number
}

export interface LateFound {
  readonly late: number
  /** The episode this late page opened, if it opened one. */
  readonly opened: LateEpisode | undefined
}

export interface JournalLag {
  /** A page of `count` clicks, the oldest answered at `firstAt` (ms), went to the worker. */
  readonly handedOff: (firstAt: number, count: number) => void
  /** Pages still waiting at `now` that passed the bound since the last check: their clicks. */
  readonly overdue: (now: number) => LateFound
  /** The worker journaled its next `pages` pages at `now`: the clicks among them later than the bound (not counted before), and the longest wait. */
  readonly journaled: (pages: number, now: number) => LateFound & { readonly longestMs: number }
  /** The open episode, closed and returned when nothing late is waiting and none was found for QUIET_MS. */
  readonly settle: (now: number) => LateEpisode | undefined
  /** The worker died: the pages it held are counted as lost elsewhere. */
  readonly forget: () => void
}

interface PendingPage {
  readonly firstAt: number
  readonly count: number
  counted: boolean
}

export const makeJournalLag = (boundMs: number): JournalLag => {
  const pending: Array<PendingPage> = []
  // pending[0..checked) are known late already: `overdue` resumes after them
  let checked = 0
  let episode: { since: number; late: number; longestMs: number; lastLateAt: number } | undefined

  /** `late` clicks found at `now`, the oldest answered at `oldestAt`. */
  const found = (late: number, oldestAt: number, now: number): LateFound => {
    if (late === 0) return { late, opened: undefined }
    const waitedMs = now - oldestAt
    if (episode !== undefined) {
      episode.late += late
      episode.longestMs = Math.max(episode.longestMs, waitedMs)
      episode.lastLateAt = now
      return { late, opened: undefined }
    }
    episode = { since: oldestAt, late, longestMs: waitedMs, lastLateAt: now }
    return { late, opened: { since: oldestAt, late, longestMs: waitedMs } }
  }

  return {
    handedOff: (firstAt, count) => {
      pending.push({ firstAt, count, counted: false })
    },
    overdue: (now) => {
      let late = 0
      let oldestAt = now
      // pages are in hand-off order, so oldest first: stop at the first one within the bound
      for (; checked < pending.length && now - pending[checked].firstAt > boundMs; checked++) {
        const page = pending[checked]
        page.counted = true
        late += page.count
        oldestAt = Math.min(oldestAt, page.firstAt)
      }
      return found(late, oldestAt, now)
    },
    journaled: (pages, now) => {
      let late = 0
      let longestMs = 0
      let oldestLateAt = now
      for (let i = 0; i < pages; i++) {
        const page = pending.shift()
        if (page === undefined) break
        if (checked > 0) checked--
        const waited = now - page.firstAt
        longestMs = Math.max(longestMs, waited)
        if (waited > boundMs && !page.counted) {
          late += page.count
          oldestLateAt = Math.min(oldestLateAt, page.firstAt)
        }
      }
      return { ...found(late, oldestLateAt, now), longestMs }
    },
    settle: (now) => {
      if (episode === undefined || checked > 0 || now - episode.lastLateAt < QUIET_MS) return undefined
      const { since, late, longestMs } = episode
      episode = undefined
      return { since, late, longestMs }
    },
    forget: () => {
      pending.length = 0
      checked = 0
    }
  }
}
