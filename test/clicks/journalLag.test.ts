import { describe, expect, it } from "vitest"
import { makeJournalLag } from "../../clicks/journalLag.ts"

// The crash bound is checked, not trusted: each page handed to the click
// worker is timed from its oldest click to the moment it was journaled, and
// the clicks of a page that waited longer than the bound are counted as late.
describe("click journal lag against the crash bound", () => {
  it("counts the clicks of pages journaled later than the bound, in the order handed over", () => {
    const lag = makeJournalLag(250)
    lag.handedOff(1_000, 40) // journaled at 1,200: within the bound
    lag.handedOff(1_025, 30) // journaled at 1,400: 375 ms, late
    lag.handedOff(1_300, 10)
    expect(lag.journaled(1, 1_200)).toEqual({ late: 0, longestMs: 200 })
    expect(lag.journaled(1, 1_400)).toEqual({ late: 30, longestMs: 375 })
    expect(lag.journaled(1, 1_400)).toEqual({ late: 0, longestMs: 100 })
  })

  it("one report may cover several pages; a dead worker's pages are forgotten", () => {
    const lag = makeJournalLag(250)
    lag.handedOff(0, 5)
    lag.handedOff(100, 7)
    expect(lag.journaled(2, 300)).toEqual({ late: 5, longestMs: 300 })
    lag.handedOff(400, 3)
    lag.forget()
    expect(lag.journaled(1, 10_000)).toEqual({ late: 0, longestMs: 0 })
  })
})
