import { type Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import type { ReservedSql, Sql } from "./client.ts"

/**
 * Streams `source` into a `COPY ... FROM STDIN` statement and settles with
 * the server's verdict. postgres.js 3.4.9 never settles the writable when the
 * server rejects the COPY (porsager/postgres#1173: the error goes to the
 * query's `reject`, already spent on resolving the stream), so the pipeline
 * would wait forever with its transaction open. The query's `reject` is
 * wrapped to fail the copy with the server's error instead; the upstream fix
 * (PR #1183) makes this wrapper redundant, not wrong.
 */
export const copyIn = async (sql: Sql | ReservedSql, statement: string, source: Readable) => {
  const query = sql.unsafe(statement)
  let refused: (error: unknown) => void = () => {}
  const serverError = new Promise<never>((_, reject) => {
    refused = reject
  })
  // The query may fail before the race below is set up (its connection reset
  // while the COPY starts: the service closing mid-ingest); `writable()` then
  // throws that error to the caller, and this promise's copy of it must not
  // surface again as an unhandled rejection (it did, failing a test run).
  serverError.catch(() => undefined)
  // Not in postgres.js's types: the Query's own `reject` (src/query.js).
  const reject: unknown = Reflect.get(query, "reject")
  if (typeof reject === "function") {
    Reflect.set(query, "reject", (error: unknown) => {
      refused(error)
      return reject.call(query, error)
    })
  }
  const stream = await query.writable()
  // Nothing is destroyed on a refusal: the source is consumed already, and
  // destroying the writable would send CopyFail outside the COPY.
  await Promise.race([pipeline(source, stream), serverError])
}
