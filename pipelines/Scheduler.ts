import { Context, Cron, Effect, FiberSet, Layer, Result } from "effect"
import cron from "node-cron"
import { AppConfig } from "../infra/AppConfig.ts"
import { FeedsConfig } from "./FeedConfig.ts"
import { PipelineRunner } from "./PipelineRunner.ts"
import { WorkerLock } from "./WorkerLock.ts"

// Cron schedules for feeds. node-cron decides *when* (UTC, noOverlap); the
// tick source is a service of its own so tests fire ticks by hand instead of
// waiting on the wall clock. A tick runs the feed through the runner, whose
// per-feed lock also keeps a scheduled run off a manual one. Runs are forked
// into the scheduler's scope, so shutdown interrupts them (their transaction
// rolls back and the run is recorded as interrupted).

export interface Ticker {
  /** Calls `onTick` at each time `expression` matches (UTC); returns a stop function. */
  arm(name: string, expression: string, onTick: () => void): () => void
}

export class CronTicker extends Context.Service<CronTicker, Ticker>()("app/pipelines/CronTicker") {
  static readonly layer = Layer.succeed(CronTicker, {
    arm: (name, expression, onTick) => {
      const task = cron.schedule(expression, onTick, { name, timezone: "UTC", noOverlap: true })
      return () => {
        void task.destroy()
      }
    }
  })
}

/** The next times a cron expression fires after `from`, in UTC (for the admin view and tests). */
export const nextRuns = (expression: string, from: Date, count = 1): Array<Date> => {
  const parsed = Cron.parse(expression, "UTC")
  if (Result.isFailure(parsed)) return []
  const out: Array<Date> = []
  const it = Cron.sequence(parsed.success, from)
  for (let i = 0; i < count; i++) {
    const next = it.next()
    if (next.done === true) break
    out.push(next.value)
  }
  return out
}

export interface ArmedSchedule {
  readonly feed: string
  readonly schedule: string
}

export class Scheduler extends Context.Service<Scheduler, { readonly armed: ReadonlyArray<ArmedSchedule> }>()(
  "app/pipelines/Scheduler"
) {
  /** Arms every enabled feed's schedule unless SCHEDULES_ENABLED=false; disarms on shutdown. */
  static readonly layer = Layer.effect(
    Scheduler,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const feeds = yield* FeedsConfig
      const runner = yield* PipelineRunner
      const ticker = yield* CronTicker
      const lock = yield* WorkerLock
      if (!config.schedulesEnabled) {
        yield* Effect.logDebug("schedules disabled (SCHEDULES_ENABLED=false)")
        return Scheduler.of({ armed: [] })
      }
      const fork = yield* FiberSet.makeRuntime<never>()
      const armed: Array<ArmedSchedule> = []
      for (const feed of feeds.feeds) {
        if (!feed.enabled || feed.schedule === undefined) continue
        const schedule = feed.schedule
        const tick = () => {
          // A worker that lost the pipeline lock starts nothing until it holds it again (WorkerLock.ts).
          if (!lock.isHeld()) {
            fork(
              Effect.logWarning("scheduled run skipped: this worker does not hold the pipeline lock").pipe(
                Effect.annotateLogs({ event: "run_skipped_lock_lost", feed: feed.name })
              )
            )
            return
          }
          fork(
            runner.run(feed.name, "schedule").pipe(
              Effect.catchTag("FeedBusy", (busy) =>
                Effect.logInfo("scheduled run skipped: the feed is already running").pipe(
                  Effect.annotateLogs({ event: "run_overlap", feed: busy.feed })
                )
              ),
              Effect.catchTag("UnknownFeed", () => Effect.void)
            )
          )
        }
        const stop = ticker.arm(feed.name, schedule, tick)
        yield* Effect.addFinalizer(() => Effect.sync(stop))
        armed.push({ feed: feed.name, schedule })
      }
      yield* Effect.logInfo("schedules armed").pipe(
        Effect.annotateLogs({ event: "schedules_armed", count: armed.length })
      )
      return Scheduler.of({ armed })
    })
  )
}
