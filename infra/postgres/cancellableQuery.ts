import type postgres from "postgres"
import type { Row } from "../Store.ts"
import type { Connections } from "./connections.ts"

// How an interrupted statement is cancelled on PostgreSQL without ever
// cancelling someone else's.
//
// A CancelRequest travels on a connection of its own and names a backend, not
// a statement: PostgreSQL cancels whatever that backend runs when the request
// arrives, and ignores it if the backend is idle. Were the connection free for
// the next statement as soon as the cancelled one ended, a cancel sent just
// before that would land on the next statement (57014, "canceling statement
// due to user request"), whoever sent it.
//
// So a statement has its connection to itself (postgres/connections.ts), and
// the connection is given back only once the statement has settled AND its
// cancel request, if one was sent, has been handled: PostgreSQL closes the
// cancel connection after signalling the backend, and a signal that reaches
// an idle backend is dropped. Taking an idle connection is no round trip, so
// a statement that is not interrupted costs what it did.

export type PgValue = postgres.SerializableParameter<bigint>

/**
 * Sends the query's CancelRequest and resolves once PostgreSQL has handled
 * it (or the request failed). postgres.js's `query.cancel()` drops that
 * promise; the function it calls (the query's `canceller`, outside its
 * typings) returns it. Should a future postgres.js not have it, nothing is
 * cancelled: the statement runs to its end on its own connection
 * (test/infra/pgCancel.postgres.test.ts then fails on the long read that
 * must be cut short).
 */
const cancelOnServer = (query: postgres.PendingQuery<Array<Row>>): Promise<unknown> => {
  const canceller: unknown = Reflect.get(query, "canceller")
  if (typeof canceller !== "function") return Promise.resolve()
  return Promise.resolve(canceller(query))
}

// How often an interrupted statement not yet on the wire (its connection
// still opening) is looked at again.
const UNTIL_SENT_MS = 5

/**
 * Cancels the query once it is on the wire (postgres.js marks it `active`),
 * unless it settles first. Never before: postgres.js drops a query cancelled
 * before it was written without telling its connection, which then waits
 * for an answer that never comes, and every later statement on it with it.
 */
const cancelWhenSent = (query: postgres.PendingQuery<Array<Row>>, settled: () => boolean): Promise<unknown> =>
  new Promise((resolve) => {
    const attempt = () => {
      if (settled()) resolve(undefined)
      else if (Reflect.get(query, "active") === true) resolve(cancelOnServer(query))
      else setTimeout(attempt, UNTIL_SENT_MS)
    }
    // After the microtask in which postgres.js writes a query it was just given.
    setImmediate(attempt)
  })

/**
 * Runs one statement on a connection of its own; `signal` cancels it on the
 * server. The connection goes back when the statement and its cancel request
 * have both settled, whether or not anyone still waits for the rows (an
 * interrupted caller does not).
 */
export const queryCancellable = async (
  connections: Connections,
  text: string,
  values: Array<PgValue>,
  signal: AbortSignal
): Promise<Array<Row>> => {
  const sql = await connections.take()
  const giveBack = () => connections.give(sql)
  if (signal.aborted) {
    // Interrupted while waiting for a connection: nothing was sent.
    giveBack()
    throw new Error(`interrupted before it was sent [sql: ${text.slice(0, 200)}]`)
  }
  const query = sql.unsafe<Array<Row>>(text, values)
  let settled = false
  let cancelHandled: Promise<unknown> = Promise.resolve()
  const cancel = () => {
    cancelHandled = cancelWhenSent(query, () => settled)
  }
  signal.addEventListener("abort", cancel, { once: true })
  try {
    return await query
  } finally {
    // Settled: an interruption from now on has nothing left to cancel.
    settled = true
    signal.removeEventListener("abort", cancel)
    void cancelHandled.then(giveBack, giveBack)
  }
}
