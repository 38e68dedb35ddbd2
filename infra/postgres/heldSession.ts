import { Effect, type Scope } from "effect"
import postgres from "postgres"
import { DatabaseError } from "../Store.ts"

/** What a held session binds: postgres.js's defaults, no custom types. */
export type SessionValue = string | number | boolean | null

/** Statements on ONE PostgreSQL session, held until the scope closes: for session state such as advisory locks. */
export interface HeldSession {
  /** Rows of `sql` run on the held session; `what` names the statement in a failure. */
  query<T>(
    sql: string,
    params: ReadonlyArray<SessionValue>,
    what: string
  ): Effect.Effect<ReadonlyArray<T>, DatabaseError>
}

/**
 * A postgres.js client of its own with ONE connection, so every statement
 * runs on the same session while it lives and is never shared with other
 * queries. Its connection is never recycled (postgres.js would end it after
 * 30-60 min by default, taking session state such as a lock along); after
 * PostgreSQL drops it the next statement opens a new session, where the
 * caller's checks find that state gone. (Not `sql.reserve()` on the pool: a
 * reserved connection whose socket closed throws an uncaught TypeError at its
 * next query.) Ending the client at scope close ends the session.
 */
export const holdSession = (url: string): Effect.Effect<HeldSession, never, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => postgres(url, { max: 1, max_lifetime: null, idle_timeout: 0, onnotice: () => {} })),
      (sql) => Effect.promise(() => sql.end({ timeout: 5 }))
    ),
    (sql): HeldSession => ({
      query: <T>(text: string, params: ReadonlyArray<SessionValue>, what: string) =>
        Effect.tryPromise({
          try: async (): Promise<ReadonlyArray<T>> =>
            (await sql.unsafe(text, params as Array<SessionValue>)) as unknown as Array<T>,
          catch: (cause) =>
            new DatabaseError({ message: `${what}: ${cause instanceof Error ? cause.message : String(cause)}`, cause })
        })
    })
  )
