import { Deferred, Effect, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import { latestLoad } from "../../infra/latestLoad.ts"

// Overlapping reloads of an in-memory copy: the read begun last wins,
// whatever order the reads finish in.

/**
 * Two reloads begun one after the other, each read held until released,
 * the reads released in `finishing` order. Returns what was installed.
 */
const overlapping = (finishing: "first begun finishes first" | "first begun finishes last") =>
  Effect.runPromise(
    Effect.gen(function* () {
      const installed: Array<string> = []
      const held = [yield* Deferred.make<void>(), yield* Deferred.make<void>()] as const
      const values = ["older", "newer"] as const
      let calls = 0
      const read = Effect.suspend(() => {
        const call = calls++
        return Effect.as(Deferred.await(held[call]), values[call])
      })
      const reload = latestLoad(read, (value) => installed.push(value))
      const first = yield* Effect.forkChild(reload)
      yield* Effect.yieldNow
      const second = yield* Effect.forkChild(reload)
      yield* Effect.yieldNow
      const order = finishing === "first begun finishes first" ? [0, 1] : [1, 0]
      for (const call of order) {
        yield* Deferred.succeed(held[call], undefined)
        yield* Fiber.join(call === 0 ? first : second)
      }
      return installed
    })
  )

describe("latestLoad", () => {
  it("a read begun first and finished last does not replace the later one", async () => {
    expect(await overlapping("first begun finishes last")).toEqual(["newer"])
  })

  it("a read begun first and finished first is installed, then replaced by the later one", async () => {
    expect(await overlapping("first begun finishes first")).toEqual(["older", "newer"])
  })

  it("reads that do not overlap are each installed in turn", async () => {
    const installed: Array<string> = []
    let calls = 0
    const reload = latestLoad(
      Effect.sync(() => ["a", "b", "c"][calls++]!),
      (value) => installed.push(value)
    )
    await Effect.runPromise(Effect.all([reload, reload, reload], { concurrency: 1 }))
    expect(installed).toEqual(["a", "b", "c"])
  })

  it("a later read that fails leaves the earlier one free to install", async () => {
    const installed: Array<string> = []
    const exit = await Effect.runPromise(
      Effect.gen(function* () {
        const release = yield* Deferred.make<void>()
        let calls = 0
        const failsSecond = Effect.suspend(() =>
          ++calls === 1 ? Effect.as(Deferred.await(release), "older") : Effect.fail("store down")
        )
        const reload = latestLoad(failsSecond, (value) => installed.push(value))
        const first = yield* Effect.forkChild(reload)
        yield* Effect.yieldNow
        const failed = yield* Effect.exit(reload)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(first)
        return failed
      })
    )
    expect(exit._tag).toBe("Failure")
    expect(installed).toEqual(["older"])
  })
})
