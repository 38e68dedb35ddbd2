import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BadRequest, Conflict, NotFound, ServiceUnavailable, Unauthorized } from "../../errors.ts"
import { AdminAuth } from "../Api.ts"

const FeedName = Schema.String.check(
  Schema.isPattern(/^[a-z0-9][a-z0-9_-]{0,63}$/, { message: "must be a feed name from the feed configuration" })
)
const RunStatus = Schema.Literals(["running", "succeeded", "failed", "skipped", "interrupted"])

export const Run = Schema.Struct({
  id: Schema.String,
  feed: Schema.String,
  kind: Schema.String,
  trigger: Schema.String.annotate({ description: "startup | schedule | manual" }),
  status: RunStatus,
  startedAt: Schema.String,
  finishedAt: Schema.NullOr(Schema.String),
  rowsRead: Schema.Number,
  rowsLoaded: Schema.Number,
  rowsRejected: Schema.Number,
  documentsUpserted: Schema.Number,
  documentsDeleted: Schema.Number,
  error: Schema.NullOr(Schema.String)
})

export const Progress = Schema.Struct({
  phase: Schema.Literals(["fetch", "load", "sync"]),
  rowsRead: Schema.Number,
  elapsedMs: Schema.Number
})

export const RejectedRow = Schema.Struct({
  line: Schema.Number,
  reason: Schema.String,
  raw: Schema.NullOr(Schema.String)
})

export const FeedView = Schema.Struct({
  name: Schema.String,
  kind: Schema.String,
  format: Schema.String,
  location: Schema.String,
  schedule: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  nextRunAt: Schema.NullOr(Schema.String),
  lastRun: Schema.NullOr(Run)
})

const Limit = (max: number, fallback: string) =>
  Schema.optional(
    Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: max }))
  ).annotate({
    description: `1..${max}, default ${fallback}`
  })

export class AdminPipelinesApi extends HttpApiGroup.make("adminPipelines")
  .add(
    HttpApiEndpoint.get("feeds", "/feeds", {
      success: Schema.Struct({ feeds: Schema.Array(FeedView) }),
      error: [Unauthorized, ServiceUnavailable]
    }).annotate(OpenApi.Description, "Configured feeds with their schedule, next scheduled run (UTC) and last run."),
    HttpApiEndpoint.get("runs", "/runs", {
      query: { feed: Schema.optional(FeedName), status: Schema.optional(RunStatus), limit: Limit(500, "50") },
      success: Schema.Struct({ runs: Schema.Array(Run) }),
      error: [BadRequest, Unauthorized, ServiceUnavailable]
    }).annotate(OpenApi.Description, "Pipeline runs, newest first; filter by feed and status."),
    HttpApiEndpoint.get("run", "/runs/:id", {
      params: { id: Schema.String.check(Schema.isMaxLength(100)) },
      query: { rejected: Limit(10_000, "100") },
      success: Schema.Struct({
        run: Run,
        progress: Schema.NullOr(Progress),
        rejected: Schema.Array(RejectedRow)
      }),
      error: [BadRequest, Unauthorized, NotFound, ServiceUnavailable]
    }).annotate(
      OpenApi.Description,
      "One run with its rejected rows (line, reason, raw record) and live progress while it runs."
    ),
    HttpApiEndpoint.post("ingest", "/ingest", {
      payload: Schema.Struct({
        feed: Schema.optional(FeedName),
        wait: Schema.optional(Schema.Boolean).annotate({
          description:
            "true (default): answer when the runs are finished; false: answer at once with the run ids (poll /admin/runs/{id})"
        })
      }),
      success: Schema.Struct({ runs: Schema.Array(Run), started: Schema.Array(Schema.String) }),
      error: [BadRequest, Unauthorized, NotFound, Conflict, ServiceUnavailable]
    }).annotate(
      OpenApi.Description,
      "Runs one feed (or every enabled feed) now. 404 for an unknown feed; 409 when that feed is already running " +
        "(feed_busy), on a ROLE=api process (runs_on_worker) or on a worker waiting for the pipeline lock (pipeline_lock_waiting)."
    )
  )
  .middleware(AdminAuth)
  .prefix("/admin")
  .annotateMerge(
    OpenApi.annotations({
      title: "Admin: pipelines",
      description: "Feed runs, rejected rows, manual ingest (Bearer ADMIN_TOKEN)"
    })
  ) {}
