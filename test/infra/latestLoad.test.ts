import { Deferred, Effect, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import { latestLoad } from "../../infra/latestLoad.ts"

// Overlapping reloads of an in-memory copy: the read begun last wins,
// whatever order the reads finish in.

/** A load answering `values` in turn; the first waits for `release` when given. */
const loads = (values: ReadonlyArray<string>, release?: Deferred.Deferred<void>) => {
  let calls = 0
  return Effect.suspend(() => {
    const value = values[calls++]!
    return calls === 1 && release !== undefined ? Effect.as(Deferred.await(release), value) : Effect.succeed(value)
  })
}

describe("latestLoad", () => {
  it("a read begun first and finished last does not replace the later one", async () => {
    const installed: Array<string> = []
    await Effect.runPromise(
      Effect.gen(function* () {
        const release = yield* Deferred.make<void>()
        const reload = latestLoad(loads(["older", "newer"], release), (value) => installed.push(value))
        const first = yield* Effect.forkChild(reload)
        yield* Effect.yieldNow
        yield* reload
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(first)
      })
    )
    expect(installed).toEqual(["newer"])
  })

  it("reads that do not overlap are each installed in turn", async () => {
    const installed: Array<string> = []
    const reload = latestLoad(loads(["a", "b", "c"]), (value) => installed.push(value))
    await Effect.runPromise(Effect.all([reload, reload, reload], { concurrency: 1 }))
    expect(installed).toEqual(["a", "b", "c"])
  })

  it("an earlier read finishing first is installed, then replaced by the later one", async () => {
    const installed: Array<string> = []
    await Effect.runPromise(
      Effect.gen(function* () {
        const release = yield* Deferred.make<void>()
        const reload = latestLoad(loads(["older", "newer"], release), (value) => installed.push(value))
        const first = yield* Effect.forkChild(reload)
        yield* Effect.yieldNow
        const second = yield* Effect.forkChild(Effect.andThen(Deferred.succeed(release, undefined), reload))
        yield* Fiber.join(first)
        yield* Fiber.join(second)
      })
    )
    expect(installed).toEqual(["older", "newer"])
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
