import { describe, expect, it } from "vitest"
import { makeJournalFailures, REMIND_MS } from "../../clicks/journalFailures.ts"

// A failing disk makes the click worker retry its commit about ten times a
// second: the log gets the episode (its start, a reminder a minute, its end),
// not a line per retry. Times are fixed numbers, not the clock.

const T0 = 1_700_000_000_000

describe("journal failure episodes", () => {
  it("logs the first failure of an episode with its error, and nothing for the retries within a minute", () => {
    const failures = makeJournalFailures()
    expect(failures.failed(T0, "ENOSPC: no space left on device")).toEqual({
      level: "error",
      message: "click journal write failed; retrying until it succeeds",
      annotations: { error: "ENOSPC: no space left on device" }
    })
    // ten a second for just under a minute
    const lines = Array.from({ length: 599 }, (_, i) => failures.failed(T0 + (i + 1) * 100, "ENOSPC"))
    expect(lines.filter((line) => line !== undefined)).toEqual([])
  })

  it("reminds once a minute while commits still fail, with the count, the duration and the latest error", () => {
    const failures = makeJournalFailures()
    failures.failed(T0, "EIO")
    const lines = Array.from({ length: 1_500 }, (_, i) => failures.failed(T0 + (i + 1) * 100, `EIO ${i + 2}`)).filter(
      (line) => line !== undefined
    )
    // 150 s of failures: reminders at 60 s and 120 s
    expect(lines).toEqual([
      {
        level: "error",
        message: "click journal writes still failing; retrying",
        annotations: { error: "EIO 601", failures: 601, failingForMs: REMIND_MS }
      },
      {
        level: "error",
        message: "click journal writes still failing; retrying",
        annotations: { error: "EIO 1201", failures: 1_201, failingForMs: 2 * REMIND_MS }
      }
    ])
  })

  it("closes the episode on the first commit that succeeds, and the next failure opens a new one", () => {
    const failures = makeJournalFailures()
    expect(failures.succeeded(T0)).toBeUndefined() // nothing was failing: nothing to say
    failures.failed(T0, "EIO")
    failures.failed(T0 + 100, "EIO")
    failures.failed(T0 + 200, "EIO")
    expect(failures.succeeded(T0 + 2_500)).toEqual({
      level: "info",
      message: "click journal writes succeed again; the clicks they held are on disk",
      annotations: { failures: 3, failedForMs: 2_500 }
    })
    expect(failures.succeeded(T0 + 2_600)).toBeUndefined()
    expect(failures.failed(T0 + 3_000, "EROFS")?.message).toBe("click journal write failed; retrying until it succeeds")
  })
})
