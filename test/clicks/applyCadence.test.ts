import { describe, expect, it } from "vitest"
import { restAfterApply } from "../../clicks/ClickRecorder.ts"

// DuckDB applies the click journal at most ~10% of the time: quick applies
// (a quiet service) keep the 100 ms cadence, slow ones (a high click rate,
// bigger groups) space the next apply out, never beyond 2 s.
describe("click journal apply cadence", () => {
  it("keeps 100 ms after quick applies", () => {
    expect(restAfterApply(0)).toBe(100)
    expect(restAfterApply(5)).toBe(100)
    expect(restAfterApply(11)).toBe(100)
  })
  it("rests nine times a slow apply's duration, so applying takes at most a tenth of the time", () => {
    expect(restAfterApply(40)).toBe(360)
    const apply = 150
    expect(apply / (apply + restAfterApply(apply))).toBeCloseTo(0.1, 5)
  })
  it("never rests more than 2 s", () => {
    expect(restAfterApply(900)).toBe(2_000)
    expect(restAfterApply(60_000)).toBe(2_000)
  })
})
