import { Context, Effect, Layer } from "effect"
import { DatabaseError, type Tx } from "../../infra/Database.ts"

// A feed run publishes to PostgreSQL only while the session that holds this
// worker's pipeline lock (WorkerLock.ts) is the one that held it when the run
// started. Without this check a run under way when that session dropped would
// still publish, while another worker, free to take the lock, runs the same
// feeds: two workers publishing.
//
// How the check works, and why it is enough under PostgreSQL's semantics:
// the publish transaction runs on a pool connection, not on the lock's
// session, and asks pg_locks, AFTER its catalog_version bump, whether the
// lock's session (named by backend pid AND backend start, so a recycled pid
// cannot pass) still holds the advisory lock; if not it fails, and the
// transaction rolls back. The bump's UPDATE holds catalog_version's one row
// lock until the transaction ends, and every publish bumps that row. So if
// the check sees the lock held at instant T, a worker that takes the lock
// after T reaches its own bump only once this transaction has committed or
// rolled back: publishes of two workers never interleave, and the fenced
// worker's can never land after the new holder's. (Its commit may still land
// a few milliseconds after its session dropped, exactly as a publish that
// committed just before the drop would.)
// Publishing through the lock's session itself would also fence (a
// transaction commits only on a live session, which holds the lock), but it
// would route the publish's COPY of up to millions of rows through the lock's
// single connection and hold its liveness checks behind it; and postgres.js
// reconnects a dropped connection silently, so a pid check would still be
// needed there.
//
// The session a run is fenced by is the one held when the run STARTED
// (RunFence, captured by the runner): a lock lost and taken again during the
// run is a new session, and another worker may have published in between.

/** The PostgreSQL session holding the pipeline lock: pg_backend_pid() and its backend_start. */
export interface LockSession {
  readonly pid: number
  /** backend_start in microseconds since the epoch, as text. */
  readonly backendStart: string
}

/**
 * What a publish is fenced by: `unfenced` where no worker lock exists (DuckDB,
 * one process; the CLI), `lost` while the lock is not held (not yet, or lost),
 * else the session holding it.
 */
export type Fence =
  { readonly _tag: "Unfenced" } | { readonly _tag: "Lost" } | { readonly _tag: "Held"; readonly session: LockSession }

export const unfenced: Fence = { _tag: "Unfenced" }
export const lost: Fence = { _tag: "Lost" }

/** The pipeline lock's current state, written by the WorkerLock, read by the runner when a run starts. */
export class WorkerFence extends Context.Service<
  WorkerFence,
  { readonly current: () => Fence; readonly set: (fence: Fence) => void }
>()("app/pipelines/publish/WorkerFence") {
  static readonly layer = Layer.sync(WorkerFence, () => {
    let fence: Fence = unfenced
    return WorkerFence.of({ current: () => fence, set: (next) => void (fence = next) })
  })
}

/** The fence of the run in progress (the runner provides it around each run). */
export const RunFence = Context.Reference<Fence>("app/pipelines/publish/RunFence", { defaultValue: () => unfenced })

// pg_locks shows a bigint advisory key as its high and low 32 bits, objsubid 1.
// pg_locks is read live; pg_stat_activity is a per-transaction snapshot,
// first read here, so both describe this instant.
const SESSION_HOLDS_LOCK = `SELECT EXISTS (
  SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 AND l.pid = $2::int
    AND l.classid::bigint = ($1::bigint >> 32) AND l.objid::bigint = ($1::bigint & 4294967295)
    AND (extract(epoch FROM a.backend_start) * 1000000)::bigint::text = $3
) AS held`

/** The error a fenced publish fails with (its transaction rolls back). */
export const lostWorkerLock = (reason: string) =>
  new DatabaseError({ message: `lost the worker lock: ${reason}; nothing was published`, cause: undefined })

/**
 * One query inside the publish transaction, after its catalog version bump:
 * why the publish must not commit (`fence`'s session no longer holds the
 * pipeline lock `key`), or undefined when it may.
 */
export const fenceBreach = (tx: Tx, fence: Fence, key: number): Effect.Effect<string | undefined, DatabaseError> => {
  if (fence._tag === "Unfenced") return Effect.succeed(undefined)
  if (fence._tag === "Lost") return Effect.succeed("the run started while this worker did not hold the pipeline lock")
  const { pid, backendStart } = fence.session
  return tx
    .query<{ held: boolean }>(SESSION_HOLDS_LOCK, [key, pid, backendStart])
    .pipe(
      Effect.map((rows) =>
        rows[0]?.held === true
          ? undefined
          : `its PostgreSQL session (pid ${pid}) no longer holds the pipeline lock it held when the run started`
      )
    )
}
