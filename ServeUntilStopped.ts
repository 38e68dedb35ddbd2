import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import { defaultTeardown, type Teardown } from "effect/Runtime"
import type { PipelineRunner } from "./pipelines/PipelineRunner.ts"
import type { Metrics } from "./infra/Metrics.ts"
import { AppConfig } from "./infra/AppConfig.ts"
import { listeningLine } from "./infra/StartupLines.ts"

// Runs the service until SIGINT/SIGTERM and brackets its shutdown with two
// log lines, so an operator's last lines say that it stopped, what was
// drained and how long it took (instead of whatever ran before).
// The service's code is loaded after the first log line (`load`, a dynamic
// import): this module imports only what that line needs, so a terminal shows
// the process started before the few hundred modules of the service are read.

let signal: string | undefined
for (const name of ["SIGINT", "SIGTERM"] as const) process.once(name, () => (signal ??= name))

interface Stopping {
  readonly began: number
  readonly clicksWrittenBefore: number
  readonly runsInFlight: ReadonlyArray<string>
}

/** The service's layer and the two services read from it here, as the dynamically imported module gives them. */
export interface LoadedService<E> {
  readonly service: Layer.Layer<AppConfig | Metrics | PipelineRunner, E>
  readonly Metrics: typeof Metrics
  readonly PipelineRunner: typeof PipelineRunner
}

export const serveUntilStopped = <E>(load: () => Promise<LoadedService<E>>) =>
  Effect.scoped(
    Effect.gen(function* () {
      let stopping: Stopping | undefined
      let metrics: Metrics["Service"] | undefined
      // Added before the service is built, so it runs after every one of its
      // finalizers: clicks flushed, runs rolled back, Meilisearch stopped, DuckDB closed.
      yield* Effect.addFinalizer(() =>
        stopping === undefined || metrics === undefined
          ? Effect.void
          : Effect.logInfo("shutdown finished").pipe(
              Effect.annotateLogs({
                clicksWritten: metrics.value("clicks_written_total") - stopping.clicksWrittenBefore,
                clicksDropped: metrics.value("clicks_dropped_total"),
                runsInterrupted: stopping.runsInFlight,
                tookMs: Date.now() - stopping.began
              })
            )
      )
      // The first line, before the service is built (DuckDB, Meilisearch, the
      // feeds): a terminal shows at once that the process started, and how
      // long loading its code took (start-up benches read it).
      const cpu = process.cpuUsage()
      yield* Effect.logInfo("starting").pipe(
        Effect.annotateLogs({
          event: "starting",
          moduleLoadMs: Math.round(performance.now()),
          moduleLoadCpuMs: Math.round((cpu.user + cpu.system) / 1000)
        })
      )
      const loading = performance.now()
      const loaded = yield* Effect.promise(load)
      const cpuLoaded = process.cpuUsage(cpu)
      yield* Effect.logInfo("service code loaded").pipe(
        Effect.annotateLogs({
          event: "service_code_loaded",
          ms: Math.round(performance.now() - loading),
          cpuMs: Math.round((cpuLoaded.user + cpuLoaded.system) / 1000)
        })
      )
      const context = yield* Layer.build(loaded.service)
      const runner = Context.get(context, loaded.PipelineRunner)
      const live = (metrics = Context.get(context, loaded.Metrics))
      // One line an operator reads first: where to open it, where the admin token is, which store.
      const listening = listeningLine(Context.get(context, AppConfig))
      yield* Effect.logInfo(listening.message).pipe(Effect.annotateLogs(listening.annotations))
      yield* Effect.never.pipe(
        Effect.onInterrupt(() => {
          stopping = {
            began: Date.now(),
            clicksWrittenBefore: live.value("clicks_written_total"),
            runsInFlight: runner.live().map((run) => run.feed)
          }
          return Effect.logInfo("shutdown started").pipe(
            Effect.annotateLogs({
              signal: signal ?? null,
              clicksQueued: live.value("click_queue_depth"),
              runsInFlight: stopping.runsInFlight
            })
          )
        })
      )
    })
  )

/** A stop asked for by a signal is a clean exit (0): supervisors such as systemd count 130 as a failure. */
export const stopIsSuccess: Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : defaultTeardown(exit, onExit)
