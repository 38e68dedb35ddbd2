import { Context, Deferred, Duration, Effect, Layer, Option, Redacted, type Scope } from "effect"
import { AppConfig } from "../infra/AppConfig.ts"
import type { DatabaseError } from "../infra/Database.ts"
import { holdSession } from "../infra/postgres/heldSession.ts"
import { type Fence, type LockSession, lost as lostFence, WorkerFence } from "./publish/PublishFence.ts"

// One pipeline worker at a time. On PostgreSQL every process that would run
// schedules and feeds (ROLE=worker, or ROLE=all over DATABASE_URL) takes a
// session advisory lock on a connection it holds for its lifetime; a second
// one waits, retrying, and says so once. The lock goes with the session: a
// worker that dies (even SIGKILL) frees it when PostgreSQL drops its
// connection. That cuts both ways: a session PostgreSQL drops while we live
// (a server restart, a network cut, an idle timeout) takes the lock with it,
// and a waiting worker may take it. So the holder checks every few seconds
// that its session still holds the lock; once it does not, it starts no new
// run (isHeld() is false: schedules skip, /admin/ingest answers 409) until
// it takes the lock again. On DuckDB the service.pid lock of DATA_DIR already
// allows one process, so the lock is held at once.
// A run already under way when the lock goes keeps running, but its publish
// is fenced: it checks that the session it started under still holds the
// lock, and rolls back otherwise (publish/PublishFence.ts). For that the
// holder reports the session (pid, backend start) it holds the lock on.

/** pg_try_advisory_lock key of the pipeline worker: "AFFPI" in ASCII; any process of this service agrees on it. */
export const PIPELINE_LOCK_KEY = 0x41_46_46_50_49

const RETRY = Duration.seconds(3)

/** What the lock needs from PostgreSQL: queries on one session, held until the scope closes. */
export interface HeldConnection {
  /** Takes the lock if free: the session that now holds it, or undefined while another session does. */
  tryAdvisoryLock(key: number): Effect.Effect<LockSession | undefined, DatabaseError>
  /** Whether this connection's session holds the lock now (false after PostgreSQL dropped the session). */
  holdsAdvisoryLock(key: number): Effect.Effect<boolean, DatabaseError>
}

// pg_locks shows a bigint advisory key as its high and low 32 bits, objsubid 1.
const HOLDS_ADVISORY_LOCK = `SELECT EXISTS (
  SELECT 1 FROM pg_locks
  WHERE locktype = 'advisory' AND granted AND pid = pg_backend_pid() AND objsubid = 1
    AND classid::bigint = ($1::bigint >> 32) AND objid::bigint = ($1::bigint & 4294967295)
) AS held`

// The session is named by its pid and its start (as microseconds since the
// epoch, text that reads alike under any DateStyle): a pid alone may be
// recycled by a later backend.
const TRY_ADVISORY_LOCK = `SELECT pg_try_advisory_lock($1::bigint) AS locked, pg_backend_pid() AS pid,
  (SELECT (extract(epoch FROM backend_start) * 1000000)::bigint::text FROM pg_stat_activity
   WHERE pid = pg_backend_pid()) AS started`

/**
 * The lock's session: one PostgreSQL session of its own, held for the
 * worker's lifetime (infra/postgres/heldSession.ts); ending it at scope close
 * frees the lock.
 */
export const lockConnection = (url: string): Effect.Effect<HeldConnection, never, Scope.Scope> =>
  Effect.map(holdSession(url), (session) => ({
    tryAdvisoryLock: (key) =>
      session
        .query<{ locked: boolean; pid: number; started: string | null }>(
          TRY_ADVISORY_LOCK,
          [key],
          "pg_try_advisory_lock"
        )
        .pipe(
          // A start we cannot read ("unknown") fails closed: no publish check then matches it.
          Effect.map(([row]) =>
            row?.locked === true ? { pid: row.pid, backendStart: row.started ?? "unknown" } : undefined
          )
        ),
    holdsAdvisoryLock: (key) =>
      session
        .query<{ held: boolean }>(HOLDS_ADVISORY_LOCK, [key], "check the pipeline lock")
        .pipe(Effect.map((rows) => rows[0]?.held === true))
  }))

export class WorkerLock extends Context.Service<
  WorkerLock,
  {
    /** True from the moment this process holds the lock (at once on DuckDB). */
    readonly isHeld: () => boolean
    /** Completes when the lock is held. */
    readonly awaitHeld: Effect.Effect<void>
  }
>()("app/pipelines/WorkerLock") {
  /**
   * Takes the lock on `connection`, retrying every `every` in the background
   * while another worker holds it, and checks as often that it is still held;
   * `report` hears the lock's session on each take, and the loss of it.
   */
  static readonly make = (
    connection: HeldConnection,
    every: Duration.Input = RETRY,
    report: (fence: Fence) => void = () => {}
  ) =>
    Effect.gen(function* () {
      report(lostFence) // not held yet: a publish now would be fenced out
      const held = yield* Deferred.make<void>()
      let isHeld = false
      let waitingLogged = false
      const annotate = Effect.annotateLogs({ key: PIPELINE_LOCK_KEY })
      const attempt = Effect.gen(function* () {
        const session = yield* connection.tryAdvisoryLock(PIPELINE_LOCK_KEY)
        if (session !== undefined) {
          report({ _tag: "Held", session })
          return true
        }
        if (!waitingLogged) {
          waitingLogged = true
          yield* Effect.logWarning("another worker holds the pipeline lock; waiting").pipe(
            Effect.annotateLogs({ event: "pipeline_lock_waiting" }),
            annotate
          )
        }
        return false
      }).pipe(
        Effect.catch((error) =>
          Effect.logWarning("pipeline lock attempt failed; retrying", error).pipe(Effect.as(false))
        )
      )
      const acquired = Effect.gen(function* () {
        isHeld = true
        waitingLogged = false
        yield* Effect.logInfo("pipeline lock acquired; schedules and feeds start").pipe(
          Effect.annotateLogs({ event: "pipeline_lock_acquired" }),
          annotate
        )
        yield* Deferred.succeed(held, undefined)
      })
      // A check that cannot reach PostgreSQL counts as lost: the session it
      // asks about is most likely gone, and running a feed on a worker that
      // may not hold the lock is the one thing this lock is for.
      const stillHeld = connection
        .holdsAdvisoryLock(PIPELINE_LOCK_KEY)
        .pipe(Effect.catch((error) => Effect.logWarning("pipeline lock check failed", error).pipe(Effect.as(false))))
      const lost = Effect.gen(function* () {
        isHeld = false
        report(lostFence)
        yield* Effect.logError(
          "pipeline lock lost (its PostgreSQL session was dropped): no new runs until it is taken again"
        ).pipe(Effect.annotateLogs({ event: "pipeline_lock_lost" }), annotate)
      })
      const step = Effect.gen(function* () {
        if (!isHeld) {
          if (yield* attempt) yield* acquired
        } else if (!(yield* stillHeld)) yield* lost
      })
      // The first attempt is made while the layer builds, so an uncontended
      // worker starts its schedules in line, as on DuckDB; the rest (waiting,
      // watching) runs in the background.
      if (yield* attempt) yield* acquired
      yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(every), step)))
      return WorkerLock.of({ isHeld: () => isHeld, awaitHeld: Deferred.await(held) })
    })

  /** Held at once: one process owns the DuckDB file. */
  static readonly held = WorkerLock.of({ isHeld: () => true, awaitHeld: Effect.void })

  /** ROLE=api: never runs pipelines, so never takes the lock. */
  static readonly notHere = WorkerLock.of({ isHeld: () => false, awaitHeld: Effect.never })

  /** PostgreSQL (DATABASE_URL) takes the advisory lock on a dedicated connection; DuckDB holds it at once. */
  static readonly layer = Layer.effect(
    WorkerLock,
    Effect.gen(function* () {
      const config = yield* AppConfig
      if (Option.isNone(config.databaseUrl)) return WorkerLock.held
      const fence = yield* WorkerFence
      return yield* WorkerLock.make(yield* lockConnection(Redacted.value(config.databaseUrl.value)), RETRY, fence.set)
    })
  )
}
