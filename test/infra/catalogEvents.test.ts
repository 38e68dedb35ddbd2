import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Scope } from "effect"
import { type CatalogChanged, CatalogEvents, failuresOf, FollowUpFailed } from "../../infra/events/CatalogEvents.ts"

// The stream's contract: a publish reaches every subscriber and waits for
// each one's outcome (a load's follow-ups are part of its run); an announce
// waits for none (a follower's poll must not stall behind a long sync).
const loaded = (feed: string): CatalogChanged => ({
  change: { _tag: "Loaded", feed, kind: "networks", runId: `run-${feed}` },
  version: "7"
})

describe("CatalogEvents", () => {
  it.effect("a publish reaches every subscriber and returns each one's outcome, failures included", () =>
    Effect.gen(function* () {
      const events = yield* CatalogEvents
      const seen: Array<string> = []
      yield* events.subscribe("counts", (event) =>
        Effect.sync(() => {
          seen.push(`a:${event.change._tag === "Loaded" ? event.change.feed : "?"}`)
          return { documentsUpserted: 3 }
        })
      )
      yield* events.subscribe("fails", () => Effect.fail(new FollowUpFailed({ stage: "sync", message: "index down" })))
      yield* events.subscribe("ignores", () => Effect.void)

      const outcomes = yield* events.publish(loaded("networks"))
      assert.strictEqual(outcomes.length, 3)
      assert.deepStrictEqual(seen, ["a:networks"])
      assert.deepStrictEqual(
        failuresOf(outcomes).map((failure) => [failure.stage, failure.message]),
        [["sync", "index down"]]
      )
      assert.deepStrictEqual(
        outcomes.filter(Exit.isSuccess).map((outcome) => outcome.value),
        [{ documentsUpserted: 3 }, {}]
      )
    }).pipe(Effect.scoped, Effect.provide(CatalogEvents.layer))
  )

  it.effect("a publish waits for a slow subscriber; an announce does not", () =>
    Effect.gen(function* () {
      const events = yield* CatalogEvents
      const release = yield* Deferred.make<void>()
      const handled: Array<string> = []
      yield* events.subscribe("slow", (event) =>
        Deferred.await(release).pipe(
          Effect.andThen(
            Effect.sync(() => {
              handled.push(event.change._tag === "Loaded" ? event.change.feed : "follow")
            })
          )
        )
      )

      yield* events.announce({ change: { _tag: "Followed", catalogMoved: true, linksMoved: false }, version: "8" })
      const publishing = yield* Effect.forkChild(events.publish(loaded("programs")))
      for (let turn = 0; turn < 50; turn++) yield* Effect.yieldNow
      assert.isUndefined(publishing.pollUnsafe(), "the publish waits for the held subscriber")
      assert.deepStrictEqual(handled, [])

      yield* Deferred.succeed(release, undefined)
      const outcomes = yield* Fiber.join(publishing)
      assert.strictEqual(outcomes.length, 1)
      assert.deepStrictEqual(handled, ["follow", "programs"])
    }).pipe(Effect.scoped, Effect.provide(CatalogEvents.layer))
  )

  it.effect("a subscriber's defect is a failed follow-up, not a publisher waiting forever", () =>
    Effect.gen(function* () {
      const events = yield* CatalogEvents
      yield* events.subscribe("broken", () => Effect.die("boom"))
      const outcomes = yield* events.publish(loaded("networks"))
      assert.deepStrictEqual(
        failuresOf(outcomes).map((failure) => failure.message),
        ["broken failed: boom"]
      )
      // And it still answers the next event.
      assert.strictEqual((yield* events.publish(loaded("programs"))).length, 1)
    }).pipe(Effect.scoped, Effect.provide(CatalogEvents.layer))
  )

  it.effect("a subscriber that goes away while an event waits for it does not leave the publisher waiting", () =>
    Effect.gen(function* () {
      const events = yield* CatalogEvents
      const leaving = yield* Scope.make()
      const held = yield* Deferred.make<void>()
      yield* events.subscribe("leaving", () => Deferred.await(held)).pipe(Scope.provide(leaving))
      yield* events.subscribe("staying", () => Effect.void)
      const first = yield* Effect.forkChild(events.publish(loaded("networks")))
      const second = yield* Effect.forkChild(events.publish(loaded("programs")))
      for (let turn = 0; turn < 50; turn++) yield* Effect.yieldNow
      yield* Scope.close(leaving, Exit.void)
      assert.strictEqual((yield* Fiber.join(first)).length, 2)
      assert.strictEqual((yield* Fiber.join(second)).length, 2)
      assert.strictEqual((yield* events.publish(loaded("prices"))).length, 1)
    }).pipe(Effect.scoped, Effect.provide(CatalogEvents.layer))
  )
})
