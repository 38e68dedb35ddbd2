import { describe, expect, it } from "vitest"
import { restAfterApply } from "../../clicks/ClickRecorder.ts"

// DuckDB applies the click journal at most ~10% of the time: a quiet service
// keeps the 100 ms cadence; a busy one gathers at least a quarter second of
// clicks per apply (each apply has a fixed CPU cost); slow applies space the next one
// out, never beyond 2 s.
describe("click journal apply cadence", () => {
  it("keeps 100 ms after quick applies of a few clicks", () => {
    expect(restAfterApply(0, 0)).toBe(100)
    expect(restAfterApply(5, 10)).toBe(100)
    expect(restAfterApply(11, 999)).toBe(100)
  })
  it("rests a quarter second after an apply of a busy service", () => {
    expect(restAfterApply(5, 1_000)).toBe(250)
    expect(restAfterApply(20, 20_000)).toBe(250)
  })
  it("keeps 100 ms when the batch is parsed on the event loop (PostgreSQL)", () => {
    expect(restAfterApply(5, 20_000, 100)).toBe(100)
  })
  it("rests nine times a slow apply's duration, so applying takes at most a tenth of the time", () => {
    expect(restAfterApply(40, 10)).toBe(360)
    const apply = 150
    expect(restAfterApply(apply, 50_000)).toBe(1_350)
    expect(apply / (apply + restAfterApply(apply, 50_000))).toBeCloseTo(0.1, 5)
  })
  it("never rests more than 2 s", () => {
    expect(restAfterApply(900, 10)).toBe(2_000)
    expect(restAfterApply(60_000, 100_000)).toBe(2_000)
  })
})
