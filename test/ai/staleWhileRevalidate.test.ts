import { Deferred, Effect, Fiber, type Scope } from "effect"
import { describe, expect, it } from "vitest"
import { makeStaleWhileRevalidate } from "../../ai/deals/StaleWhileRevalidate.ts"
import { eventually } from "../support/eventually.ts"

// The deal lists' memo: fresh values from memory, stale ones served while one
// background computation replaces them, shared misses, failures not kept.

const run = <A, E>(effect: Effect.Effect<A, E, Scope.Scope>) => Effect.runPromise(Effect.scoped(effect))

describe("StaleWhileRevalidate", () => {
  it("serves a fresh value without computing again", () =>
    run(
      Effect.gen(function* () {
        let computed = 0
        const cache = yield* makeStaleWhileRevalidate({
          compute: (key) => Effect.sync(() => `${key}${++computed}`),
          freshMs: 60_000,
          staleMs: 600_000,
          capacity: 10
        })
        expect(yield* cache.get("a")).toBe("a1")
        expect(yield* cache.get("a")).toBe("a1")
        expect(yield* cache.get("b")).toBe("b2")
        expect(computed).toBe(2)
      })
    ))

  it("answers with the stale value at once and replaces it in the background, once", () =>
    run(
      Effect.gen(function* () {
        let computed = 0
        let gate = yield* Deferred.make<void>()
        const cache = yield* makeStaleWhileRevalidate({
          compute: () =>
            Effect.gen(function* () {
              computed++
              if (computed > 1) yield* Deferred.await(gate)
              return computed
            }),
          freshMs: 0, // every stored value is stale at once
          staleMs: 600_000,
          capacity: 10
        })
        expect(yield* cache.get("k")).toBe(1)
        // Stale: answered from memory while the second computation waits on the gate.
        expect(yield* cache.get("k")).toBe(1)
        expect(yield* cache.get("k")).toBe(1)
        yield* eventually(() => computed === 2)
        const secondGate = gate
        gate = yield* Deferred.make<void>()
        yield* Deferred.succeed(secondGate, undefined)
        let seen = 1
        for (let turn = 0; turn < 10_000 && seen === 1; turn++) {
          seen = yield* cache.get("k")
          yield* Effect.yieldNow
        }
        expect(seen).toBe(2)
        yield* eventually(() => computed === 3) // the read that saw 2 (still stale at once) started the next refresh
        expect(yield* cache.get("k")).toBe(2)
        expect(computed).toBe(3)
      })
    ))

  it("callers of a missing key share one computation; a failure reaches them and is not kept", () =>
    run(
      Effect.gen(function* () {
        let computed = 0
        let fail = true
        const gate = yield* Deferred.make<void>()
        const cache = yield* makeStaleWhileRevalidate<number, string>({
          compute: () =>
            Effect.gen(function* () {
              computed++
              yield* Deferred.await(gate)
              if (fail) return yield* Effect.fail("db down")
              return computed
            }),
          freshMs: 60_000,
          staleMs: 600_000,
          capacity: 10
        })
        const waiting = yield* Effect.forkChild(
          Effect.all([cache.get("k"), cache.get("k"), cache.get("k")].map(Effect.flip), { concurrency: "unbounded" })
        )
        yield* Effect.yieldNow
        yield* Deferred.succeed(gate, undefined)
        expect(yield* Fiber.join(waiting)).toEqual(["db down", "db down", "db down"])
        expect(computed).toBe(1)
        fail = false
        expect(yield* cache.get("k")).toBe(2)
      })
    ))

  it("keeps at most `capacity` keys", () =>
    run(
      Effect.gen(function* () {
        let computed = 0
        const cache = yield* makeStaleWhileRevalidate({
          compute: (key) => Effect.sync(() => `${key}${++computed}`),
          freshMs: 60_000,
          staleMs: 600_000,
          capacity: 2
        })
        yield* cache.get("a")
        yield* cache.get("b")
        yield* cache.get("c")
        expect(yield* cache.get("b")).toBe("b2")
        expect(yield* cache.get("a")).toBe("a4") // evicted, computed again
      })
    ))
})
