// How far the click journal lags behind the redirects. The crash bound
// (CRASH_WINDOW_MS: a click answered longer ago than that before a SIGKILL is
// stored) holds only while the worker journals each page within it; under a
// heavy load (the worker waiting for a core, a slow disk) it can fall behind,
// and it was once measured to. So every page handed to the worker is
// remembered with the time of its first (oldest) click, and when the worker
// reports pages journaled (in the order they were handed over, after their
// fdatasync) the wait of each is known: a page that waited longer than the
// bound counts its clicks as late, so an operator sees (metric, log) when the
// bound did not hold, instead of trusting it blindly.

export interface JournalLag {
  /** A page of `count` clicks, the oldest answered at `firstAt` (ms), went to the worker. */
  readonly handedOff: (firstAt: number, count: number) => void
  /** The worker journaled its next `pages` pages at `now`: the clicks among them later than the bound, and the longest wait. */
  readonly journaled: (pages: number, now: number) => { readonly late: number; readonly longestMs: number }
  /** The worker died: the pages it held are counted as lost elsewhere. */
  readonly forget: () => void
}

export const makeJournalLag = (boundMs: number): JournalLag => {
  const pending: Array<{ readonly firstAt: number; readonly count: number }> = []
  return {
    handedOff: (firstAt, count) => {
      pending.push({ firstAt, count })
    },
    journaled: (pages, now) => {
      let late = 0
      let longestMs = 0
      for (let i = 0; i < pages; i++) {
        const page = pending.shift()
        if (page === undefined) break
        const waited = now - page.firstAt
        longestMs = Math.max(longestMs, waited)
        if (waited > boundMs) late += page.count
      }
      return { late, longestMs }
    },
    forget: () => {
      pending.length = 0
    }
  }
}
