import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { ReattributionSchedule } from "../../conversions/ReattributionSchedule.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Database } from "../../infra/Database.ts"
import { conversionBeforeItsLink, ledgerLayer } from "./fixtures.ts"

// The safety net: a link that appears without passing through TrackingLinks
// (another replica wrote it, a backup was restored) is found by the schedule:
// at start-up, then every 15 minutes.
const env = ledgerLayer.pipe(Layer.provideMerge(AppConfig.layerWith({ dataDir: "unused", schedulesEnabled: true })))

/** Real time passes (the store works on promises) while the test clock stands still. */
const realPause = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))

const trackingIdOf = (id: string) =>
  Effect.gen(function* () {
    const db = yield* Database
    const rows = yield* db.query<{ tracking_id: string | null }>("SELECT tracking_id FROM conversions WHERE id = $1", [
      id
    ])
    return rows[0]?.tracking_id ?? null
  })

const eventuallyTrackingIdOf = (id: string) =>
  Effect.gen(function* () {
    let attributed: string | null = null
    for (let i = 0; i < 250 && attributed === null; i++) {
      yield* realPause
      attributed = yield* trackingIdOf(id)
    }
    return attributed
  })

const conversionThenLink = (txId: string, linkId: string) =>
  Effect.gen(function* () {
    yield* conversionBeforeItsLink(txId, linkId)
    assert.strictEqual(yield* trackingIdOf(`dev:${txId}`), null)
  })

describe("ReattributionSchedule", () => {
  it.effect("attributes conversions whose link appeared by other means at start-up, then every 15 minutes", () =>
    Effect.gen(function* () {
      yield* conversionThenLink("R-1", "ReplicaLink1")
      yield* Layer.build(ReattributionSchedule)
      // The first pass at start-up catches links that appeared while the process was down.
      assert.strictEqual(yield* eventuallyTrackingIdOf("dev:R-1"), "ReplicaLink1")

      yield* conversionThenLink("R-2", "ReplicaLink2")
      yield* TestClock.adjust("14 minutes")
      for (let i = 0; i < 5; i++) yield* realPause
      assert.strictEqual(yield* trackingIdOf("dev:R-2"), null)
      yield* TestClock.adjust("1 minute")
      assert.strictEqual(yield* eventuallyTrackingIdOf("dev:R-2"), "ReplicaLink2")
    }).pipe(Effect.scoped, Effect.provide(env))
  )
})
