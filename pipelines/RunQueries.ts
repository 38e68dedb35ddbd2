import { Effect } from "effect"
import type { DatabaseShape } from "../infra/Database.ts"
import type { RunStatus, RunSummary, Trigger } from "./PipelineRunner.ts"

// Read side of pipeline_runs / rejected_rows, shared by the admin endpoints
// and the in-process CLI.

interface RunRow {
  id: string
  feed: string
  kind: string
  trigger: string
  status: string
  started_at: Date
  finished_at: Date | null
  rows_read: bigint
  rows_loaded: bigint
  rows_rejected: bigint
  documents_upserted: bigint
  documents_deleted: bigint
  error: string | null
}

const toSummary = (row: RunRow): RunSummary => ({
  id: row.id,
  feed: row.feed,
  kind: row.kind,
  trigger: row.trigger as Trigger,
  status: row.status as RunStatus,
  startedAt: row.started_at.toISOString(),
  finishedAt: row.finished_at === null ? null : row.finished_at.toISOString(),
  rowsRead: Number(row.rows_read),
  rowsLoaded: Number(row.rows_loaded),
  rowsRejected: Number(row.rows_rejected),
  documentsUpserted: Number(row.documents_upserted),
  documentsDeleted: Number(row.documents_deleted),
  error: row.error
})

export interface RunFilter {
  readonly feed?: string | undefined
  readonly status?: string | undefined
  readonly limit?: number | undefined
}

export const listRuns = (db: DatabaseShape, filter: RunFilter) => {
  const where: Array<string> = []
  const params: Array<string | number> = []
  if (filter.feed !== undefined) where.push(`feed = $${params.push(filter.feed)}`)
  if (filter.status !== undefined) where.push(`status = $${params.push(filter.status)}`)
  const limit = `$${params.push(filter.limit ?? 50)}`
  return db.query<RunRow>(
    `SELECT * FROM pipeline_runs ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY started_at DESC, id DESC LIMIT ${limit}`,
    params
  ).pipe(Effect.map((rows) => rows.map(toSummary)))
}

export const getRun = (db: DatabaseShape, id: string) =>
  db.query<RunRow>("SELECT * FROM pipeline_runs WHERE id = $1", [id]).pipe(
    Effect.map((rows) => rows.length === 0 ? undefined : toSummary(rows[0]))
  )

export const rejectedRows = (db: DatabaseShape, runId: string, limit: number) =>
  db.query<{ line: bigint; reason: string; raw: string | null }>(
    "SELECT line, reason, raw FROM rejected_rows WHERE run_id = $1 ORDER BY line LIMIT $2",
    [runId, limit]
  ).pipe(Effect.map((rows) => rows.map((row) => ({ line: Number(row.line), reason: row.reason, raw: row.raw }))))

/** The latest run of every feed. */
export const lastRuns = (db: DatabaseShape) =>
  db.query<RunRow>(
    "SELECT * FROM pipeline_runs QUALIFY row_number() OVER (PARTITION BY feed ORDER BY started_at DESC, id DESC) = 1"
  ).pipe(Effect.map((rows) => new Map(rows.map((row) => [row.feed, toSummary(row)]))))
