import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { API_KEY_PATTERN, Partners } from "../../partners/Partners.ts"
import * as PartnersFeature from "../../partners/layer.ts"
import { testDatabaseLayer } from "../support/testDatabase.ts"

// Partners.layerTest stands in for the store-backed Partners in handler
// tests; the same scenario runs on both so the stand-in cannot drift (on
// DuckDB, and in the postgres project on a PostgreSQL database of its own).

const scenario = Effect.gen(function* () {
  const partners = yield* Partners
  const register = (name: string) =>
    partners.register({ name, email: `${name.length}@x.example`, appUrl: null, description: null })
  const first = yield* register("Deal Hunter")
  const second = yield* register("Deal  Hunter!")
  const third = yield* register("Zoë's Shop")
  const found = yield* partners.authenticate(second.apiKey)
  const unknown = yield* partners.authenticate(`ak_${"x".repeat(43)}`)
  return {
    keysWellFormed: [first, second, third].every(({ apiKey }) => API_KEY_PATTERN.test(apiKey)),
    tags: [first, second, third].map(({ partner }) => partner.tag),
    shares: [first, second, third].map(({ partner }) => partner.revenueShare),
    found: found === undefined ? undefined : { tag: found.tag, name: found.name, email: found.email },
    unknown
  }
})

describe("Partners.layerTest", () => {
  it.effect("behaves as Partners.layer: tags deduplicated, keys found by hash, unknown keys not", () =>
    Effect.gen(function* () {
      const real = yield* scenario.pipe(Effect.provide(Partners.layer.pipe(Layer.provide(testDatabaseLayer()))))
      const fake = yield* scenario.pipe(Effect.provide(PartnersFeature.layerTest))
      expect(fake).toEqual(real)
      expect(fake.tags).toEqual(["deal-hunter", "deal-hunter-2", "zoe-s-shop"])
      expect(fake.keysWellFormed).toBe(true)
      expect(fake.unknown).toBeUndefined()
    })
  )

  it.effect("stamps createdAt from the Clock", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.UTC(2026, 0, 2, 3, 4, 5))
      const { partner } = yield* (yield* Partners).register({
        name: "Clocked",
        email: "c@x.example",
        appUrl: null,
        description: null
      })
      expect(partner.createdAt.toISOString()).toBe("2026-01-02T03:04:05.000Z")
    }).pipe(Effect.provide(PartnersFeature.layerTest))
  )
})
