import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { makeStaleWhileRevalidate } from "../../ai/deals/StaleWhileRevalidate.ts"
import { eventually } from "../support/eventually.ts"

// The deal lists' memo measures ages on Effect's Clock: TestClock walks one
// key through fresh, stale (served at once, recomputed behind) and too old.

describe("StaleWhileRevalidate on the Clock", () => {
  it.effect("fresh for freshMs, then stale and revalidated once, then recomputed before answering after staleMs", () =>
    Effect.gen(function* () {
      let computed = 0
      const cache = yield* makeStaleWhileRevalidate({
        compute: (key) => Effect.sync(() => `${key}${++computed}`),
        freshMs: 1_000,
        staleMs: 10_000,
        capacity: 10
      })
      expect(yield* cache.get("a")).toBe("a1")

      yield* TestClock.adjust("999 millis")
      expect(yield* cache.get("a")).toBe("a1")
      expect(computed).toBe(1)

      // age 1000 ms: stale, answered at once while one computation replaces it
      yield* TestClock.adjust("1 millis")
      expect(yield* cache.get("a")).toBe("a1")
      yield* eventually(() => computed === 2)
      expect(yield* cache.get("a")).toBe("a2")
      expect(computed).toBe(2)

      // idle past staleMs: the caller waits for a new value
      yield* TestClock.adjust("10 seconds")
      expect(yield* cache.get("a")).toBe("a3")
      expect(computed).toBe(3)
    }).pipe(Effect.scoped)
  )
})
