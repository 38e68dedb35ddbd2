import { describe, expect, it } from "vitest"
import { makeJournalLag } from "../../clicks/journalLag.ts"

// The crash bound is checked, not trusted: each page handed to the click
// worker is timed from its oldest click, and the clicks of a page that waits
// longer than the bound are late: when the worker reports it journaled, or
// sooner, when a check finds it still waiting past the bound.
describe("click journal lag against the crash bound", () => {
  it("counts the clicks of pages journaled later than the bound, in the order handed over", () => {
    const lag = makeJournalLag(250)
    lag.handedOff(1_000, 40) // journaled at 1,200: within the bound
    lag.handedOff(1_025, 30) // journaled at 1,400: 375 ms, late
    lag.handedOff(1_300, 10)
    expect(lag.journaled(1, 1_200)).toMatchObject({ late: 0, longestMs: 200, opened: undefined })
    expect(lag.journaled(1, 1_400)).toMatchObject({
      late: 30,
      longestMs: 375,
      opened: { since: 1_025, late: 30, longestMs: 375 }
    })
    expect(lag.journaled(1, 1_400)).toMatchObject({ late: 0, longestMs: 100 })
  })

  it("one report may cover several pages; a dead worker's pages are forgotten", () => {
    const lag = makeJournalLag(250)
    lag.handedOff(0, 5)
    lag.handedOff(100, 7)
    expect(lag.journaled(2, 300)).toMatchObject({ late: 5, longestMs: 300 })
    lag.handedOff(400, 3)
    lag.forget()
    expect(lag.journaled(1, 10_000)).toMatchObject({ late: 0, longestMs: 0 })
  })

  it("a page still waiting past the bound is late before the worker reports it, and counted once", () => {
    const lag = makeJournalLag(250)
    lag.handedOff(1_000, 40)
    lag.handedOff(1_100, 30)
    lag.handedOff(1_300, 10)
    expect(lag.overdue(1_200)).toEqual({ late: 0, opened: undefined })
    // the worker is stalled: at 1,260 the first page passed the bound (the episode opens), at 1,400 the second
    expect(lag.overdue(1_260)).toEqual({ late: 40, opened: { since: 1_000, late: 40, longestMs: 260 } })
    expect(lag.overdue(1_400)).toEqual({ late: 30, opened: undefined })
    expect(lag.overdue(1_400)).toEqual({ late: 0, opened: undefined })
    // the worker catches up: the two pages counted already are not counted again, the third is late now
    expect(lag.journaled(2, 1_500)).toMatchObject({ late: 0, longestMs: 500 })
    expect(lag.journaled(1, 1_600)).toMatchObject({ late: 10, longestMs: 300, opened: undefined })
  })

  it("an episode closes once nothing late waits and none was found for a second", () => {
    const lag = makeJournalLag(250)
    lag.handedOff(0, 5)
    lag.handedOff(100, 7)
    expect(lag.overdue(300).opened).toEqual({ since: 0, late: 5, longestMs: 300 })
    expect(lag.settle(2_000), "a late page still waits").toBeUndefined()
    expect(lag.journaled(2, 2_000)).toMatchObject({ late: 7 })
    expect(lag.settle(2_500), "a late page was found 500 ms ago").toBeUndefined()
    expect(lag.settle(3_000)).toEqual({ since: 0, late: 12, longestMs: 1_900 })
    expect(lag.settle(9_000)).toBeUndefined()
    // the next late page opens a new episode
    lag.handedOff(9_000, 2)
    expect(lag.overdue(9_300).opened).toEqual({ since: 9_000, late: 2, longestMs: 300 })
  })

  it("pages journaled in time after an overdue check are never late", () => {
    const lag = makeJournalLag(250)
    lag.handedOff(0, 5)
    expect(lag.overdue(300)).toMatchObject({ late: 5 })
    lag.handedOff(300, 7)
    expect(lag.journaled(1, 310)).toMatchObject({ late: 0, longestMs: 310 })
    expect(lag.overdue(500)).toEqual({ late: 0, opened: undefined })
    expect(lag.journaled(1, 520)).toMatchObject({ late: 0, longestMs: 220 })
  })
})
