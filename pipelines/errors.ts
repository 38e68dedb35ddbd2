import { Schema } from "effect"

/** config/feeds.json (or FEEDS_CONFIG) is unreadable or invalid; the message names the feed and field. */
export class FeedConfigError extends Schema.TaggedError<FeedConfigError>()("FeedConfigError", {
  message: Schema.String
}) {}

/**
 * A run could not complete. `stage` says where: the source (unreachable, HTTP
 * error, HTML page, truncated gzip), the parse (missing columns, wrong
 * delimiter), validation (too many rejected rows), the load (into staging),
 * the publish (staged rows into PostgreSQL) or the search sync. Whatever the
 * stage, the feed's previous data stays served.
 */
export class PipelineError extends Schema.TaggedError<PipelineError>()("PipelineError", {
  feed: Schema.String,
  stage: Schema.Literals(["fetch", "parse", "validate", "load", "publish", "sync"]),
  message: Schema.String,
  /** Worth retrying (network failure, 5xx); the source retry schedule reads it. */
  retryable: Schema.optional(Schema.Boolean),
  /** The wait an HTTP 429 asked for (Retry-After), used instead of the backoff. */
  retryAfterMs: Schema.optional(Schema.Number),
  /** Known when validation failed: what the run read and rejected before giving up. */
  rowsRead: Schema.optional(Schema.Number),
  rowsRejected: Schema.optional(Schema.Number)
}) {}

/** A run of this feed is already in progress (runs of one feed never overlap). */
export class FeedBusy extends Schema.TaggedError<FeedBusy>()("FeedBusy", {
  feed: Schema.String,
  message: Schema.String
}) {}

/** No feed of that name in the configuration. */
export class UnknownFeed extends Schema.TaggedError<UnknownFeed>()("UnknownFeed", {
  feed: Schema.String,
  message: Schema.String
}) {}
