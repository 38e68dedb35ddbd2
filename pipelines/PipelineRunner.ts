import { Cause, Clock, Context, Effect, Exit, Layer, Option } from "effect"
import { randomBytes } from "node:crypto"
import { Database, type DatabaseShape } from "../infra/Database.ts"
import { CatalogEvents, failuresOf } from "../infra/events/CatalogEvents.ts"
import { readCatalogVersion } from "../infra/CatalogVersion.ts"
import { Metrics } from "../infra/Metrics.ts"
import { FeedBusy, PipelineError, UnknownFeed } from "./errors.ts"
import { FEED_KINDS, type FeedDefinition, FeedsConfig } from "./FeedConfig.ts"
import { FeedLoaders } from "./FeedLoaders.ts"
import { FeedSource } from "./FeedSource.ts"
import { RunFence, unfenced, WorkerFence } from "./publish/PublishFence.ts"
import { followUpBatch, runInStages } from "./runInStages.ts"

// Runs feeds: one run = fetch -> (skip if unchanged) -> load (the kind's
// loader) -> the CatalogEvents follow-ups (search sync, link re-resolution,
// each deciding by the feed's kind; the runner names none) -> record. The runner owns the run record in
// pipeline_runs, the per-feed lock, the feed_state bookkeeping and one JSON
// log line at the start and end of each run.
//
// The system of record (DuckDB, or PostgreSQL with DuckDB as staging) is the
// source of truth: when the search sync fails, the run fails but the newly
// loaded data stays, and feed_state is not advanced, so the next run of the
// feed does not skip and resyncs the index (the same for any follow-up). Run records, rejected rows and
// feed_state live in the system of record (the API reads them); with
// PostgreSQL, staging follows it before any run (StagingFollows).

export type Trigger = "startup" | "schedule" | "manual"
export type RunStatus = "running" | "succeeded" | "failed" | "skipped" | "interrupted"

export interface RunSummary {
  readonly id: string
  readonly feed: string
  readonly kind: string
  readonly trigger: Trigger
  readonly status: RunStatus
  readonly startedAt: string
  readonly finishedAt: string | null
  readonly rowsRead: number
  readonly rowsLoaded: number
  readonly rowsRejected: number
  readonly documentsUpserted: number
  readonly documentsDeleted: number
  readonly error: string | null
  /** What the fetch had to do beyond asking, e.g. wait out a network's rate limit (this process only; not stored). */
  readonly notes?: ReadonlyArray<string>
  /** Where the time went (this process only; not stored): fetch, load, search sync. */
  readonly timings?: { readonly fetchMs: number; readonly loadMs: number; readonly syncMs: number }
}

/** What a run is doing right now, for progress bars. */
export interface RunProgress {
  readonly runId: string
  readonly feed: string
  readonly phase: "fetch" | "load" | "sync"
  readonly rowsRead: number
  readonly startedAt: number
}

export interface PipelineRunnerShape {
  /** Runs one feed to completion; a failed run is a summary with status "failed", not an error. */
  run(feed: string, trigger: Trigger): Effect.Effect<RunSummary, UnknownFeed | FeedBusy>
  /** Starts one feed in the background and returns its run id at once. */
  start(feed: string, trigger: Trigger): Effect.Effect<string, UnknownFeed | FeedBusy>
  /**
   * Every enabled feed, in stages (networks, then programmes, then the rest side by side) and one search sync
   * at the end; busy feeds are left out.
   */
  runAll(trigger: Trigger): Effect.Effect<ReadonlyArray<RunSummary>>
  /** Runs in progress in this process. */
  readonly live: () => ReadonlyArray<RunProgress>
  readonly feeds: ReadonlyArray<FeedDefinition>
}

const newRunId = (now: Date) =>
  `${now.toISOString().replace(/[-:]/g, "").slice(0, 15)}-${randomBytes(4).toString("hex")}`

export const isCatalogEmpty = (db: DatabaseShape) =>
  db
    .query<{ n: number }>(
      "SELECT (SELECT count(*) FROM networks) + (SELECT count(*) FROM programs) + (SELECT count(*) FROM products) AS n"
    )
    .pipe(Effect.map((rows) => Number(rows[0].n) === 0))

export class PipelineRunner extends Context.Service<PipelineRunner, PipelineRunnerShape>()(
  "app/pipelines/PipelineRunner"
) {
  static readonly layer = Layer.effect(
    PipelineRunner,
    Effect.gen(function* () {
      const db = yield* Database
      const config = yield* FeedsConfig
      const loaders = yield* FeedLoaders
      const source = yield* FeedSource
      const events = yield* CatalogEvents
      const metrics = yield* Metrics
      // Where a WorkerLock runs (the server on PostgreSQL), each run is fenced
      // by the lock's session at its start; elsewhere (DuckDB, the CLI) unfenced.
      const workerFence = yield* Effect.serviceOption(WorkerFence)
      const fenceNow = () => (Option.isSome(workerFence) ? workerFence.value.current() : unfenced)
      // Run times from the layer's Clock (TestClock in tests), read synchronously
      // where a busy check and its claim must not be split by a yield.
      const clock = yield* Clock.Clock
      const now = () => new Date(clock.currentTimeMillisUnsafe())
      const scope = yield* Effect.scope

      for (const feed of config.feeds) {
        if (loaders.get(feed.kind) === undefined) {
          yield* Effect.logWarning("no loader registered for this feed kind; its runs will fail").pipe(
            Effect.annotateLogs({ feed: feed.name, kind: feed.kind })
          )
        }
      }
      const busy = new Map<string, RunProgress>()
      const runsTotal = (feed: string, status: RunStatus) =>
        metrics.counter("pipeline_runs_total", "Pipeline runs by feed and final status", { feed, status })
      const rowsTotal = metrics.counter("pipeline_rows_loaded_total", "Rows loaded by pipeline runs")

      const record = (summary: RunSummary) =>
        db.run(
          `UPDATE pipeline_runs SET status = $2, finished_at = $3::TIMESTAMPTZ, rows_read = $4, rows_loaded = $5,
             rows_rejected = $6, documents_upserted = $7, documents_deleted = $8, error = $9 WHERE id = $1`,
          [
            summary.id,
            summary.status,
            summary.finishedAt,
            summary.rowsRead,
            summary.rowsLoaded,
            summary.rowsRejected,
            summary.documentsUpserted,
            summary.documentsDeleted,
            summary.error
          ]
        )

      const execute = (
        feed: FeedDefinition,
        runId: string,
        trigger: Trigger,
        startedAt: string,
        batched = false
      ): Effect.Effect<RunSummary> => {
        let summary: RunSummary = {
          id: runId,
          feed: feed.name,
          kind: feed.kind,
          trigger,
          status: "running",
          startedAt,
          finishedAt: null,
          rowsRead: 0,
          rowsLoaded: 0,
          rowsRejected: 0,
          documentsUpserted: 0,
          documentsDeleted: 0,
          error: null
        }
        const setProgress = (update: Partial<RunProgress>) => {
          const current = busy.get(feed.name)
          if (current !== undefined && current.runId === runId) busy.set(feed.name, { ...current, ...update })
        }
        const work = Effect.gen(function* () {
          const loader = loaders.get(feed.kind)
          if (loader === undefined) {
            return yield* new PipelineError({
              feed: feed.name,
              stage: "load",
              message: `no loader registered for kind ${feed.kind}`
            })
          }
          const clock = { at: performance.now() }
          const lap = () => {
            const now = performance.now()
            const ms = Math.round(now - clock.at)
            clock.at = now
            return ms
          }
          const fetched = yield* source.fetch(feed, runId)
          summary = {
            ...summary,
            ...(fetched.notes !== undefined && fetched.notes.length > 0 ? { notes: fetched.notes } : {}),
            timings: { fetchMs: lap(), loadMs: 0, syncMs: 0 }
          }
          if (fetched.unchanged) {
            yield* fetched.cleanup
            summary = { ...summary, status: "skipped", error: null }
            return
          }
          setProgress({ phase: "load" })
          const loaded = yield* loader
            .load({
              feed,
              runId,
              file: fetched.file,
              gzip: fetched.gzip,
              progress: (rowsRead) => setProgress({ rowsRead })
            })
            .pipe(Effect.ensuring(fetched.cleanup))
          summary = { ...summary, ...loaded, timings: { ...summary.timings!, loadMs: lap() } }
          // The load is committed: one event, and the run waits for its follow-ups.
          setProgress({ phase: "sync" })
          const failAt = (stage: "load" | "sync", message: string) =>
            new PipelineError({ feed: feed.name, stage, message })
          const version = yield* readCatalogVersion(db).pipe(Effect.mapError((error) => failAt("load", error.message)))
          const outcomes = yield* events.publish({
            change: { _tag: "Loaded", feed: feed.name, kind: feed.kind, runId, ...(batched ? { batched } : {}) },
            version
          })
          const failed = failuresOf(outcomes)
          if (failed.length > 0) {
            return yield* failAt(failed[0]!.stage, failed.map((failure) => failure.message).join("; "))
          }
          let upserted = 0
          let deleted = 0
          for (const outcome of outcomes) {
            if (outcome._tag !== "Success") continue
            upserted += outcome.value.documentsUpserted ?? 0
            deleted += outcome.value.documentsDeleted ?? 0
          }
          summary = {
            ...summary,
            documentsUpserted: upserted,
            documentsDeleted: deleted,
            timings: { ...summary.timings!, syncMs: lap() }
          }
          yield* db
            .run(
              // the service's clock, not the database's: the next run's window reaches back from this on that clock
              `INSERT INTO feed_state VALUES ($1, $2, $3, $4, $5, $6::TIMESTAMPTZ)
             ON CONFLICT (feed) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
               content_sha256 = excluded.content_sha256, last_success_run_id = excluded.last_success_run_id,
               last_success_at = excluded.last_success_at`,
              [
                feed.name,
                fetched.etag ?? null,
                fetched.lastModified ?? null,
                fetched.sha256,
                runId,
                now().toISOString()
              ]
            )
            .pipe(
              Effect.mapError((error) => new PipelineError({ feed: feed.name, stage: "load", message: error.message }))
            )
          summary = { ...summary, status: "succeeded" }
        })

        const finish = (exit: Exit.Exit<void, PipelineError>) => {
          const finishedAt = now().toISOString()
          if (Exit.isSuccess(exit)) return { ...summary, finishedAt }
          const interrupted = Cause.hasInterruptsOnly(exit.cause)
          const failure = Cause.findErrorOption(exit.cause)
          const error = interrupted
            ? // An interruption can land just after the load's COMMIT: the load is
              // all-or-nothing either way, and feed_state only advances on success,
              // so the next run loads the source again.
              "interrupted (shutdown or cancelled); the load is all-or-nothing, so the feed holds its previous data " +
              "(or this run's complete data if the interruption came after its commit); the next run reloads it"
            : failure._tag === "Some"
              ? `${failure.value.stage}: ${failure.value.message}`
              : Cause.pretty(exit.cause).split("\n")[0]
          const counts =
            failure._tag === "Some"
              ? {
                  rowsRead: failure.value.rowsRead ?? summary.rowsRead,
                  rowsRejected: failure.value.rowsRejected ?? summary.rowsRejected
                }
              : {}
          return {
            ...summary,
            ...counts,
            status: interrupted ? ("interrupted" as const) : ("failed" as const),
            finishedAt,
            error
          }
        }

        return Effect.gen(function* () {
          yield* Effect.logInfo("pipeline run started").pipe(
            Effect.annotateLogs({ event: "run_start", runId, feed: feed.name, kind: feed.kind, trigger })
          )
          let final: RunSummary = summary
          // onExit runs even when the run is interrupted (shutdown): the record must not stay "running".
          const exit = yield* Effect.exit(
            work.pipe(
              Effect.provideService(RunFence, fenceNow()),
              Effect.onExit((exit) =>
                Effect.gen(function* () {
                  final = finish(exit)
                  yield* record(final).pipe(Effect.ignore)
                  runsTotal(feed.name, final.status).inc()
                  rowsTotal.inc(final.status === "succeeded" ? final.rowsLoaded : 0)
                  const log = final.status === "failed" ? Effect.logWarning : Effect.logInfo
                  yield* log("pipeline run finished").pipe(Effect.annotateLogs({ event: "run_end", ...final }))
                })
              )
            )
          )
          if (Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause)) return yield* Effect.interrupt
          return final
        }).pipe(Effect.ensuring(Effect.sync(() => busy.delete(feed.name))))
      }

      // Takes the feed's lock and records the run as "running" before anything
      // else, so its id can be handed out (POST /admin/ingest wait=false) and looked up at once.
      type Claimed = { feed: FeedDefinition; runId: string; startedAt: string }
      const claim = (name: string, trigger: Trigger): Effect.Effect<Claimed, UnknownFeed | FeedBusy> =>
        Effect.suspend((): Effect.Effect<Claimed, UnknownFeed | FeedBusy> => {
          const feed = config.get(name)
          if (feed === undefined) {
            return Effect.fail(
              new UnknownFeed({
                feed: name,
                message: `no feed named ${name} (known: ${config.feeds.map((f) => f.name).join(", ")})`
              })
            )
          }
          const current = busy.get(name)
          if (current !== undefined) {
            return Effect.fail(
              new FeedBusy({ feed: name, message: `feed ${name} is already running (run ${current.runId})` })
            )
          }
          const started = now()
          const runId = newRunId(started)
          busy.set(name, { runId, feed: name, phase: "fetch", rowsRead: 0, startedAt: started.getTime() })
          const startedAt = started.toISOString()
          return db
            .run(
              "INSERT INTO pipeline_runs (id, feed, kind, trigger, started_at, status) VALUES ($1, $2, $3, $4, $5::TIMESTAMPTZ, 'running')",
              [runId, feed.name, feed.kind, trigger, startedAt]
            )
            .pipe(
              Effect.onError(() => Effect.sync(() => busy.delete(name))),
              Effect.orDie,
              Effect.as({ feed, runId, startedAt })
            )
        })

      const run = (name: string, trigger: Trigger) =>
        claim(name, trigger).pipe(
          Effect.flatMap(({ feed, runId, startedAt }) => execute(feed, runId, trigger, startedAt))
        )

      const start = (name: string, trigger: Trigger) =>
        claim(name, trigger).pipe(
          Effect.flatMap(({ feed, runId, startedAt }) =>
            Effect.forkIn(execute(feed, runId, trigger, startedAt), scope).pipe(Effect.as(runId))
          )
        )

      const ordered = [...config.feeds]
        .filter((feed) => feed.enabled)
        .sort((a, b) => FEED_KINDS.indexOf(a.kind) - FEED_KINDS.indexOf(b.kind))

      // Every feed, stage by stage (runInStages.ts); the follow-ups that read
      // the whole catalog (the search sync) run once, after the last stage. If
      // they fail, the batch's loads stay committed but their runs are recorded
      // as failed and their feed_state cleared: the next run of each loads and follows up again.
      const runAll = (trigger: Trigger) =>
        Effect.gen(function* () {
          const results = yield* runInStages(ordered, (feed) =>
            claim(feed.name, trigger).pipe(
              Effect.flatMap((claimed) => execute(claimed.feed, claimed.runId, trigger, claimed.startedAt, true)),
              Effect.option
            )
          )
          return yield* followUpBatch({ db, events, record }, results)
        })

      return PipelineRunner.of({ run, start, runAll, live: () => [...busy.values()], feeds: config.feeds })
    })
  )
}

/**
 * Runs left "running" by a process that died cannot still be running: marked
 * interrupted by the process that now runs pipelines (the WorkerLock holder,
 * or the CLI's in-process mode), never by an API replica beside a live worker.
 */
export const StaleRunsInterrupted = Layer.effectDiscard(
  Effect.flatMap(Database, (db) =>
    db
      .run(
        "UPDATE pipeline_runs SET status = 'interrupted', finished_at = now(), error = coalesce(error, 'the process stopped during the run') WHERE status = 'running'"
      )
      .pipe(Effect.orDie)
  )
)
