import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Metrics } from "../../infra/Metrics.ts"
import { RateLimits } from "../../partners/RateLimits.ts"

// The link service's token buckets read Effect's Clock: TestClock drives the
// refill, so the rule is checked without waiting for real time to pass.

const limits = RateLimits.layerSingleProcess.pipe(
  Layer.provide(
    Layer.mergeAll(
      Metrics.layer,
      AppConfig.layerWith({ dataDir: "unused", rateLimitPerKey: { perMinute: 60, burst: 2 } })
    )
  )
)

describe("RateLimits on the Clock", () => {
  it.effect("a drained bucket refills at perMinute/60 per second of Clock time", () =>
    Effect.gen(function* () {
      const limits = yield* RateLimits
      const take = (bucket: string) => limits.take("key", bucket)
      expect(yield* take("key:a")).toEqual({ allowed: true })
      expect(yield* take("key:a")).toEqual({ allowed: true })
      expect(yield* take("key:a")).toEqual({ allowed: false, retryAfterSeconds: 1 })
      // other keys have buckets of their own
      expect(yield* take("key:b")).toEqual({ allowed: true })

      yield* TestClock.adjust("500 millis")
      expect(yield* take("key:a")).toEqual({ allowed: false, retryAfterSeconds: 1 })
      yield* TestClock.adjust("600 millis")
      expect(yield* take("key:a")).toEqual({ allowed: true })
      expect((yield* take("key:a")).allowed).toBe(false)

      // a long idle refills up to the burst, not beyond
      yield* TestClock.adjust("1 hour")
      expect(yield* take("key:a")).toEqual({ allowed: true })
      expect(yield* take("key:a")).toEqual({ allowed: true })
      expect((yield* take("key:a")).allowed).toBe(false)
    }).pipe(Effect.provide(limits))
  )
})
