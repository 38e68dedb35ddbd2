import { Effect, Layer, Option } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { inject } from "vitest"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Database } from "../../infra/Database.ts"
import { Metrics } from "../../infra/Metrics.ts"
import { SearchEngine } from "../../infra/SearchEngine.ts"
import { feedDefinition, FeedsConfig } from "../../pipelines/FeedConfig.ts"
import { FeedLoaders, registerLoader } from "../../pipelines/FeedLoaders.ts"
import { FeedSource } from "../../pipelines/FeedSource.ts"
import { PipelineRunner } from "../../pipelines/PipelineRunner.ts"
import { ProductLoader } from "../../pipelines/products/ProductLoader.ts"
import { CronTicker, nextRuns, Scheduler, type Ticker } from "../../pipelines/Scheduler.ts"
import { CatalogEvents } from "../../infra/events/CatalogEvents.ts"
import { SearchFollowsLoads } from "../../pipelines/search/SearchFollowsLoads.ts"
import { SearchSync } from "../../pipelines/search/SearchSync.ts"
import { CatalogPublisher } from "../../pipelines/publish/CatalogPublisher.ts"
import { Staging } from "../../infra/Staging.ts"
import { WorkerLock } from "../../pipelines/WorkerLock.ts"
import { products, tsv } from "./support.ts"
import { tempDir } from "../support/TestService.ts"

// Schedules without the wall clock: the tick source is replaced by one the
// test fires by hand; when each expression fires is checked with Effect's Cron.

const manualTicker = () => {
  const armed = new Map<string, { expression: string; onTick: () => void }>()
  const ticker: Ticker = {
    arm: (name, expression, onTick) => {
      armed.set(name, { expression, onTick })
      return () => armed.delete(name)
    }
  }
  return { ticker, armed, fire: (name: string) => armed.get(name)!.onTick() }
}

const files = tempDir("schedule-")
afterAll(() => files.rm())

const layerWith = (ticker: Ticker, schedulesEnabled: boolean, lock = WorkerLock.held) => {
  const file = join(files.dir, "shop.tsv")
  writeFileSync(file, tsv(products(3000)))
  const feeds = [
    feedDefinition({
      name: "hourly",
      kind: "products",
      format: "gmc-tsv",
      location: file,
      schedule: "0 * * * *",
      options: { store: "S" }
    }),
    feedDefinition({
      name: "unscheduled",
      kind: "products",
      format: "gmc-tsv",
      location: file,
      options: { store: "S" }
    })
  ]
  const config = AppConfig.layerWith({
    dataDir: files.dir,
    schedulesEnabled,
    meiliIndexPrefix: `sched${Math.random().toString(36).slice(2, 8)}_`
  })
  const infra = Layer.mergeAll(
    Database.layerMemory,
    CatalogEvents.layer,
    SearchEngine.layerFor(inject("meiliUrl"), inject("meiliKey"), `sched${Math.random().toString(36).slice(2, 8)}_`),
    Metrics.layer
  )
  const core = PipelineRunner.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(registerLoader(ProductLoader), SearchFollowsLoads)),
    Layer.provideMerge(
      Layer.mergeAll(FeedLoaders.layer, FeedSource.layer, FeedsConfig.layerWith(feeds), CatalogPublisher.layer)
    ),
    Layer.provideMerge(SearchSync.layer),
    Layer.provideMerge(Staging.layer)
  )
  return Scheduler.layer.pipe(
    Layer.provideMerge(core),
    Layer.provide(Layer.succeed(CronTicker, ticker)),
    Layer.provide(Layer.succeed(WorkerLock, lock)),
    Layer.provideMerge(infra),
    Layer.provideMerge(config)
  )
}

const runsOf = Effect.gen(function* () {
  const db = yield* Database
  return yield* db.query<{ feed: string; trigger: string; status: string }>(
    "SELECT feed, trigger, status FROM pipeline_runs ORDER BY started_at"
  )
})

describe("Scheduler", () => {
  it("computes when a cron expression fires, in UTC", () => {
    expect(nextRuns("0 * * * *", new Date("2026-11-22T10:15:00Z"), 2).map((d) => d.toISOString())).toEqual([
      "2026-11-22T11:00:00.000Z",
      "2026-11-22T12:00:00.000Z"
    ])
    expect(nextRuns("15 3 * * *", new Date("2026-11-22T03:15:30Z"))[0].toISOString()).toBe("2026-11-23T03:15:00.000Z")
    expect(nextRuns("30 */6 * * *", new Date("2026-11-22T00:00:00Z"), 3).map((d) => d.getUTCHours())).toEqual([
      0, 6, 12
    ])
  })

  it("arms only scheduled feeds; a tick runs the feed; a tick during a run of that feed does not overlap it", async () => {
    const { ticker, armed, fire } = manualTicker()
    const program = Effect.gen(function* () {
      const scheduler = yield* Scheduler
      expect(scheduler.armed).toEqual([{ feed: "hourly", schedule: "0 * * * *" }])
      expect([...armed.keys()]).toEqual(["hourly"])
      const runner = yield* PipelineRunner
      fire("hourly")
      while (runner.live().length === 0) yield* Effect.sleep("1 millis")
      fire("hourly") // overlapping tick: skipped by the per-feed lock
      while (runner.live().length > 0) yield* Effect.sleep("5 millis")
      fire("hourly") // the next tick after it finished runs again (and skips: the file is unchanged)
      yield* Effect.sleep("20 millis")
      while (runner.live().length > 0) yield* Effect.sleep("5 millis")
      return yield* runsOf
    })
    const runs = await Effect.runPromise(program.pipe(Effect.provide(layerWith(ticker, true))))
    expect(runs).toEqual([
      { feed: "hourly", trigger: "schedule", status: "succeeded" },
      { feed: "hourly", trigger: "schedule", status: "skipped" }
    ])
    // the layer's scope closed: schedules disarmed
    expect(armed.size).toBe(0)
  })

  it("a worker that lost the pipeline lock skips its ticks; once it holds the lock again a tick runs", async () => {
    const { ticker, fire } = manualTicker()
    let held = false
    const lock = WorkerLock.of({ isHeld: () => held, awaitHeld: Effect.void })
    const program = Effect.gen(function* () {
      const runner = yield* PipelineRunner
      fire("hourly") // lost: nothing starts
      yield* Effect.sleep("50 millis")
      expect(runner.live()).toEqual([])
      expect(yield* runsOf).toEqual([])
      held = true
      fire("hourly")
      while (runner.live().length === 0) yield* Effect.sleep("1 millis")
      while (runner.live().length > 0) yield* Effect.sleep("5 millis")
      return yield* runsOf
    })
    const runs = await Effect.runPromise(program.pipe(Effect.provide(layerWith(ticker, true, lock))))
    expect(runs).toEqual([{ feed: "hourly", trigger: "schedule", status: "succeeded" }])
  })

  it("arms nothing with SCHEDULES_ENABLED=false", async () => {
    const { ticker, armed } = manualTicker()
    const scheduler = await Effect.runPromise(
      Effect.gen(function* () {
        return yield* Scheduler
      }).pipe(Effect.provide(layerWith(ticker, false)))
    )
    expect(scheduler.armed).toEqual([])
    expect(armed.size).toBe(0)
  })
})
