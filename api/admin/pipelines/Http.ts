import { Clock, Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AppConfig } from "../../../infra/AppConfig.ts"
import { Database } from "../../../infra/Database.ts"
import type { FeedBusy, UnknownFeed } from "../../../pipelines/errors.ts"
import { FeedsConfig } from "../../../pipelines/FeedConfig.ts"
import { PipelineRunner } from "../../../pipelines/PipelineRunner.ts"
import { getRun, lastRuns, listRuns, rejectedRows } from "../../../pipelines/RunQueries.ts"
import { nextRuns } from "../../../pipelines/Scheduler.ts"
import { WorkerLock } from "../../../pipelines/WorkerLock.ts"
import { Api } from "../../Api.ts"
import { conflict, notFound, unavailable } from "../../errors.ts"
import { storageUnavailable } from "../../v1/dbUnavailable.ts"
import { AdminAuthLayer } from "../Auth.ts"
import { AdminTokenFile } from "../../../infra/AdminTokenFile.ts"
import { redactLocation } from "../../../pipelines/FeedRequest.ts"

const orUnavailable = storageUnavailable("admin pipelines", "the catalog database")

export const AdminPipelinesHandlers = HttpApiBuilder.group(
  Api,
  "adminPipelines",
  Effect.fn(function* (handlers) {
    const db = yield* Database
    const runner = yield* PipelineRunner
    const config = yield* FeedsConfig
    const { role } = yield* AppConfig
    const lock = yield* WorkerLock
    // Feeds run in the one process that holds the pipeline lock, never beside it.
    const notRunnableHere =
      role === "api"
        ? conflict(
            "runs_on_worker",
            "this process runs ROLE=api: pipelines run on the ROLE=worker process; send this to its /admin"
          )
        : conflict("pipeline_lock_waiting", "another worker holds the pipeline lock; send this to that worker's /admin")
    const unknownFeed = (feed: string) =>
      notFound("feed", `no feed named ${feed}; configured: ${config.feeds.map((f) => f.name).join(", ")}`)
    return handlers
      .handle("feeds", () =>
        Effect.gen(function* () {
          const last = yield* orUnavailable(lastRuns(db))
          const now = new Date(yield* Clock.currentTimeMillis)
          return {
            feeds: config.feeds.map((feed) => ({
              name: feed.name,
              kind: feed.kind,
              format: feed.format,
              location: redactLocation(feed.location), // a key in a configured query string stays out of the admin view
              schedule: feed.schedule ?? null,
              enabled: feed.enabled,
              nextRunAt:
                feed.schedule === undefined || !feed.enabled
                  ? null
                  : (nextRuns(feed.schedule, now)[0]?.toISOString() ?? null),
              lastRun: last.get(feed.name) ?? null
            }))
          }
        })
      )
      .handle("runs", ({ query }) =>
        orUnavailable(listRuns(db, { feed: query.feed, status: query.status, limit: query.limit })).pipe(
          Effect.map((runs) => ({ runs }))
        )
      )
      .handle("run", ({ params, query }) =>
        Effect.gen(function* () {
          const run = yield* orUnavailable(getRun(db, params.id))
          if (run === undefined) return yield* notFound("run", `no run with id ${params.id}`)
          const rejected = yield* orUnavailable(rejectedRows(db, run.id, query.rejected ?? 100))
          const live = runner.live().find((p) => p.runId === run.id)
          const now = yield* Clock.currentTimeMillis
          const progress =
            live === undefined ? null : { phase: live.phase, rowsRead: live.rowsRead, elapsedMs: now - live.startedAt }
          return { run, progress, rejected }
        })
      )
      .handle("ingest", ({ payload }) =>
        // A run's own failures are in its summary; what is left (the run record cannot be written) means storage is down.
        Effect.catchDefect(
          Effect.gen(function* () {
            if (!lock.isHeld()) return yield* notRunnableHere
            const wait = payload.wait ?? true
            if (payload.feed === undefined) {
              if (wait) return { runs: yield* runner.runAll("manual"), started: [] }
              const started: Array<string> = []
              for (const feed of config.feeds.filter((f) => f.enabled)) {
                const id = yield* runner.start(feed.name, "manual").pipe(Effect.option)
                if (id._tag === "Some") started.push(id.value)
              }
              return { runs: [], started }
            }
            const feed = payload.feed
            const handleErrors = <A>(effect: Effect.Effect<A, UnknownFeed | FeedBusy>) =>
              effect.pipe(
                Effect.catchTag("UnknownFeed", () => Effect.fail(unknownFeed(feed))),
                Effect.catchTag("FeedBusy", (busy) => Effect.fail(conflict("feed_busy", busy.message)))
              )
            if (wait) return { runs: [yield* handleErrors(runner.run(feed, "manual"))], started: [] }
            return { runs: [], started: [yield* handleErrors(runner.start(feed, "manual"))] }
          }),
          (defect) =>
            Effect.logError("admin ingest failed", defect).pipe(
              Effect.andThen(
                Effect.fail(
                  unavailable(
                    "pipeline_unavailable",
                    "the pipeline could not run (storage unavailable?); retry shortly"
                  )
                )
              )
            )
        )
      )
  })
).pipe(Layer.provide(AdminAuthLayer), Layer.provide(AdminTokenFile))
