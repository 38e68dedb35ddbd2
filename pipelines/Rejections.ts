import { Effect } from "effect"
import type { z } from "zod"
import type { DatabaseShape } from "../infra/Database.ts"
import { PipelineError } from "./errors.ts"
import type { FeedDefinition } from "./FeedConfig.ts"

// Rejected rows are written outside the load transaction on purpose: when the
// run then fails on the threshold, the rejections are what the operator needs
// to see, so they must survive the rollback.

export interface Rejection {
  /** 1-based line (CSV/TSV/JSONL; a CSV header is line 1) or item number (XML). */
  readonly line: number
  readonly reason: string
  readonly raw?: string | undefined
}

const RAW_LIMIT = 1000

/** `price: must look like "15.00 USD"; link: must be an http(s) URL`; `rename` maps our field names to the feed's own column names. */
export const describeIssues = (error: z.ZodError, rename: Record<string, string> = {}): string =>
  error.issues
    .map((issue) => {
      const field = issue.path.map(String).join(".")
      const label = field === "" ? "(record)" : rename[field] ?? field
      return `${label}: ${issue.message}`
    })
    .join("; ")

export const recordRejections = (
  db: DatabaseShape,
  runId: string,
  feed: string,
  rejections: ReadonlyArray<Rejection>
) =>
  rejections.length === 0
    ? Effect.void
    : db.append("rejected_rows", (appender) => {
      for (const rejection of rejections) {
        appender.appendVarchar(runId)
        appender.appendVarchar(feed)
        appender.appendBigInt(BigInt(rejection.line))
        appender.appendVarchar(rejection.reason.slice(0, RAW_LIMIT))
        if (rejection.raw === undefined) appender.appendNull()
        else appender.appendVarchar(rejection.raw.slice(0, RAW_LIMIT))
        appender.endRow()
      }
    }).pipe(Effect.mapError((error) => new PipelineError({ feed, stage: "load", message: error.message })))

/** Fails the run when the rejected share is above the feed's threshold (default 20%). */
export const checkThreshold = (feed: FeedDefinition, rowsRead: number, rowsRejected: number) => {
  const share = rowsRead === 0 ? 0 : rowsRejected / rowsRead
  if (rowsRead === 0) {
    return Effect.fail(new PipelineError({ feed: feed.name, stage: "validate", message: "the feed has no records" }))
  }
  return share > feed.options.rejectThreshold
    ? Effect.fail(new PipelineError({
      feed: feed.name,
      stage: "validate",
      rowsRead,
      rowsRejected,
      message: `${rowsRejected} of ${rowsRead} rows rejected (${(share * 100).toFixed(1)}%), above the ${
        (feed.options.rejectThreshold * 100).toFixed(1)
      }% threshold; see rejected_rows for the reasons`
    }))
    : Effect.void
}
