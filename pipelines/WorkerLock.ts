import { Context, Deferred, Duration, Effect, Layer, Option, Redacted, Schedule, type Scope } from "effect"
import postgres from "postgres"
import { AppConfig } from "../infra/AppConfig.ts"
import { DatabaseError } from "../infra/Database.ts"

// One pipeline worker at a time. On PostgreSQL every process that would run
// schedules and feeds (ROLE=worker, or ROLE=all over DATABASE_URL) takes a
// session advisory lock on a connection it holds for its lifetime; a second
// one waits, retrying, and says so once. The lock goes with the session: a
// worker that dies (even SIGKILL) frees it when PostgreSQL drops its
// connection. On DuckDB the service.pid lock of DATA_DIR already allows one
// process, so the lock is held at once.

/** pg_try_advisory_lock key of the pipeline worker: "AFFPI" in ASCII; any process of this service agrees on it. */
export const PIPELINE_LOCK_KEY = 0x41_46_46_50_49

const RETRY = Duration.seconds(3)

/** What the lock needs from PostgreSQL: one query on a connection held until the scope closes. */
export interface HeldConnection {
  tryAdvisoryLock(key: number): Effect.Effect<boolean, DatabaseError>
}

const pgError = (what: string) => (cause: unknown) =>
  new DatabaseError({ message: `${what}: ${cause instanceof Error ? cause.message : String(cause)}`, cause })

/**
 * Reserves one connection of a postgres.js pool for the scope (`sql.reserve()`);
 * the PostgreSQL seam can hand its own pool here instead of a dedicated client.
 */
export const reservePostgresConnection = (
  sql: postgres.Sql
): Effect.Effect<HeldConnection, DatabaseError, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      Effect.tryPromise({ try: () => sql.reserve(), catch: pgError("reserve a connection for the pipeline lock") }),
      // A pooled connection outlives the scope: unlock first, or the lock would stay with the pool.
      (reserved) =>
        Effect.promise(() =>
          reserved`SELECT pg_advisory_unlock_all()`.then(
            () => undefined,
            () => undefined
          )
        ).pipe(Effect.ensuring(Effect.sync(() => reserved.release())))
    ),
    (reserved) => ({
      tryAdvisoryLock: (key) =>
        Effect.tryPromise({
          try: () => reserved<Array<{ locked: boolean }>>`SELECT pg_try_advisory_lock(${key}::bigint) AS locked`,
          catch: pgError("pg_try_advisory_lock")
        }).pipe(Effect.map((rows) => rows[0]?.locked === true))
    })
  )

/** A one-connection postgres.js client of its own: the lock's session must not be shared with queries. */
const dedicatedConnection = (url: Redacted.Redacted<string>) =>
  Effect.acquireRelease(
    Effect.sync(() => postgres(Redacted.value(url), { max: 1, onnotice: () => {} })),
    (sql) => Effect.promise(() => sql.end({ timeout: 5 }))
  ).pipe(Effect.flatMap(reservePostgresConnection))

export class WorkerLock extends Context.Service<
  WorkerLock,
  {
    /** True from the moment this process holds the lock (at once on DuckDB). */
    readonly isHeld: () => boolean
    /** Completes when the lock is held. */
    readonly awaitHeld: Effect.Effect<void>
  }
>()("app/pipelines/WorkerLock") {
  /** Takes the lock on `connection`, retrying every few seconds in the background while another worker holds it. */
  static readonly make = (connection: HeldConnection) =>
    Effect.gen(function* () {
      const held = yield* Deferred.make<void>()
      let isHeld = false
      let waitingLogged = false
      const attempt = Effect.gen(function* () {
        if (yield* connection.tryAdvisoryLock(PIPELINE_LOCK_KEY)) return true
        if (!waitingLogged) {
          waitingLogged = true
          yield* Effect.logWarning("another worker holds the pipeline lock; waiting").pipe(
            Effect.annotateLogs({ event: "pipeline_lock_waiting", key: PIPELINE_LOCK_KEY })
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
        yield* Effect.logInfo("pipeline lock acquired; schedules and feeds start").pipe(
          Effect.annotateLogs({ event: "pipeline_lock_acquired", key: PIPELINE_LOCK_KEY })
        )
        yield* Deferred.succeed(held, undefined)
      })
      // The first attempt is made while the layer builds, so an uncontended
      // worker starts its schedules in line, as on DuckDB; only a waiting one
      // goes on retrying in the background.
      if (yield* attempt) yield* acquired
      else
        yield* Effect.forkScoped(
          Effect.sleep(RETRY).pipe(
            Effect.andThen(
              attempt.pipe(Effect.repeat({ schedule: Schedule.spaced(RETRY), until: (locked) => locked }))
            ),
            Effect.andThen(acquired)
          )
        )
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
      return yield* WorkerLock.make(yield* dedicatedConnection(config.databaseUrl.value))
    })
  )
}
