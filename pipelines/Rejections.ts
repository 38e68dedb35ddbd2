import { Effect, Schema, SchemaIssue } from "effect"
import { type DatabaseShape, jsonRowsParam } from "../infra/Database.ts"
import { forEachSlice } from "../infra/yieldToEventLoop.ts"
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

/** A Schema filter whose failure reads `message` (the reason a rejection or config error names). */
export const rule = <T>(test: (value: T) => boolean, message: string) => Schema.makeFilter(test, { message })

const expected = (annotations: { readonly expected?: unknown } | undefined) =>
  typeof annotations?.expected === "string" ? `Expected ${annotations.expected}` : undefined

/** `Expected "active" | "paused" | "closed"`: what a union (Literals) accepts, in Effect's words. */
const anyOfMessage = (issue: SchemaIssue.Issue) =>
  SchemaIssue.makeFormatterStandardSchemaV1()(issue).issues[0]?.message ?? "Expected a valid value"

/** One problem of a decoded value: where (field path) and why, in our words. */
export interface FieldIssue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/**
 * Flattens a Schema parse issue into `{ path, message }` pairs, in field order.
 * A filter's `message` annotation is the reason; an excess key is reported on
 * its object as `Unrecognized key: "name"` (the wording our messages always had).
 */
export const fieldIssues = (
  issue: SchemaIssue.Issue,
  path: ReadonlyArray<PropertyKey> = [],
  out: Array<FieldIssue> = [],
  override?: string
): Array<FieldIssue> => {
  switch (issue._tag) {
    case "Filter":
      return fieldIssues(
        issue.issue,
        path,
        out,
        override ?? SchemaIssue.defaultCheckHook(issue) ?? expected(issue.filter.annotations)
      )
    case "Encoding":
      return fieldIssues(issue.issue, path, out, override)
    case "Pointer":
      return fieldIssues(issue.issue, [...path, ...issue.path], out, override)
    case "Composite":
      for (const inner of issue.issues) fieldIssues(inner, path, out, override)
      return out
    case "AnyOf":
      if (issue.issues.length > 0) {
        for (const inner of issue.issues) fieldIssues(inner, path, out, override)
        return out
      }
      out.push({ path, message: override ?? anyOfMessage(issue) })
      return out
    case "UnexpectedKey":
      out.push({ path: path.slice(0, -1), message: override ?? `Unrecognized key: "${String(path.at(-1))}"` })
      return out
    case "MissingKey":
      out.push({ path, message: override ?? "is required" })
      return out
  }
  out.push({ path, message: override ?? SchemaIssue.defaultLeafHook(issue) })
  return out
}

/** `price: must look like "15.00 USD"; link: must be an http(s) URL`; `rename` maps our field names to the feed's own column names. */
export const describeIssues = (
  issues: SchemaIssue.Issue | ReadonlyArray<FieldIssue>,
  rename: Record<string, string> = {}
): string =>
  (SchemaIssue.isIssue(issues) ? fieldIssues(issues) : issues)
    .map(({ path, message }) => {
      const field = path.map(String).join(".")
      const label = field === "" ? "(record)" : (rename[field] ?? field)
      return `${label}: ${message}`
    })
    .join("; ")

/** Rejections written between two turns of the event loop (a dirty feed's run writes thousands). */
const WRITTEN_PER_SLICE = 1_000

/**
 * Writes `rejections` to rejected_rows, a slice per statement. A statement,
 * not the Appender: DuckDB's Appender flushes into the database file on the
 * calling thread, and with 200,000 rejections of a 1M-row feed the WAL grew
 * past its checkpoint threshold inside those flushes, 0.6-0.8 s each on the
 * event loop; a statement runs on DuckDB's own threads, its checkpoint too.
 */
export const recordRejections = (
  db: DatabaseShape,
  runId: string,
  feed: string,
  rejections: ReadonlyArray<Rejection>
) =>
  forEachSlice(rejections, WRITTEN_PER_SLICE, (slice) =>
    db.run(
      `INSERT INTO rejected_rows (run_id, feed, line, reason, raw)
       SELECT CAST($2 AS VARCHAR), CAST($3 AS VARCHAR), r.line, r.reason, r.raw
       FROM ${db.jsonRows("$1", { line: "BIGINT", reason: "VARCHAR", raw: "VARCHAR" })} r`,
      [
        jsonRowsParam(
          slice.map((rejection) => ({
            line: rejection.line,
            reason: rejection.reason.slice(0, RAW_LIMIT),
            raw: rejection.raw?.slice(0, RAW_LIMIT) ?? null
          }))
        ),
        runId,
        feed
      ]
    )
  ).pipe(Effect.mapError((error) => new PipelineError({ feed, stage: "load", message: error.message })))

/** Fails the run when the rejected share is above the feed's threshold (default 20%). */
export const checkThreshold = (feed: FeedDefinition, rowsRead: number, rowsRejected: number) => {
  const share = rowsRead === 0 ? 0 : rowsRejected / rowsRead
  if (rowsRead === 0) {
    return Effect.fail(new PipelineError({ feed: feed.name, stage: "validate", message: "the feed has no records" }))
  }
  return share > feed.options.rejectThreshold
    ? Effect.fail(
        new PipelineError({
          feed: feed.name,
          stage: "validate",
          rowsRead,
          rowsRejected,
          message: `${rowsRejected} of ${rowsRead} rows rejected (${(share * 100).toFixed(1)}%), above the ${(
            feed.options.rejectThreshold * 100
          ).toFixed(1)}% threshold; see rejected_rows for the reasons`
        })
      )
    : Effect.void
}
