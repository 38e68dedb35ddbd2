import { Effect, Schema } from "effect"
import { Count, NullableText, NullableTimestamp, Text, Timestamp } from "../infra/columns.ts"
import { type DatabaseShape, filters } from "../infra/Database.ts"
import type { RunStatus, RunSummary, Trigger } from "./PipelineRunner.ts"

// Read side of pipeline_runs / rejected_rows, shared by the admin endpoints
// and the in-process CLI.

const RunRow = Schema.Struct({
  id: Text,
  feed: Text,
  kind: Text,
  trigger: Schema.Literals(["startup", "schedule", "manual"] satisfies ReadonlyArray<Trigger>),
  status: Schema.Literals([
    "running",
    "succeeded",
    "failed",
    "skipped",
    "interrupted"
  ] satisfies ReadonlyArray<RunStatus>),
  started_at: Timestamp,
  finished_at: NullableTimestamp,
  rows_read: Count,
  rows_loaded: Count,
  rows_rejected: Count,
  documents_upserted: Count,
  documents_deleted: Count,
  error: NullableText
})
type RunRow = typeof RunRow.Type

const RejectedRow = Schema.Struct({ line: Count, reason: Text, raw: NullableText })

const toSummary = (row: RunRow): RunSummary => ({
  id: row.id,
  feed: row.feed,
  kind: row.kind,
  trigger: row.trigger,
  status: row.status,
  startedAt: row.started_at.toISOString(),
  finishedAt: row.finished_at === null ? null : row.finished_at.toISOString(),
  rowsRead: row.rows_read,
  rowsLoaded: row.rows_loaded,
  rowsRejected: row.rows_rejected,
  documentsUpserted: row.documents_upserted,
  documentsDeleted: row.documents_deleted,
  error: row.error
})

export interface RunFilter {
  readonly feed?: string | undefined
  readonly status?: string | undefined
  readonly limit?: number | undefined
}

export const listRuns = (db: DatabaseShape, filter: RunFilter) => {
  const { add, params, where } = filters()
  if (filter.feed !== undefined) add((p) => `feed = ${p}`, filter.feed)
  if (filter.status !== undefined) add((p) => `status = ${p}`, filter.status)
  const limit = `$${params.push(filter.limit ?? 50)}`
  return db
    .queryAs(RunRow, `SELECT * FROM pipeline_runs ${where()} ORDER BY started_at DESC, id DESC LIMIT ${limit}`, params)
    .pipe(Effect.map((rows) => rows.map(toSummary)))
}

export const getRun = (db: DatabaseShape, id: string) =>
  db
    .queryAs(RunRow, "SELECT * FROM pipeline_runs WHERE id = $1", [id])
    .pipe(Effect.map((rows) => (rows.length === 0 ? undefined : toSummary(rows[0]))))

export const rejectedRows = (db: DatabaseShape, runId: string, limit: number) =>
  db
    .queryAs(RejectedRow, "SELECT line, reason, raw FROM rejected_rows WHERE run_id = $1 ORDER BY line LIMIT $2", [
      runId,
      limit
    ])
    .pipe(Effect.map((rows) => rows.map((row) => ({ line: row.line, reason: row.reason, raw: row.raw }))))

/** The latest run of every feed. */
export const lastRuns = (db: DatabaseShape) =>
  db
    .queryAs(
      RunRow,
      // No QUALIFY (DuckDB-only): a run is its feed's latest when no later run of the feed exists.
      `SELECT * FROM pipeline_runs r WHERE NOT EXISTS (
         SELECT 1 FROM pipeline_runs later WHERE later.feed = r.feed
           AND (later.started_at > r.started_at OR (later.started_at = r.started_at AND later.id > r.id)))`
    )
    .pipe(Effect.map((rows) => new Map(rows.map((row) => [row.feed, toSummary(row)]))))
