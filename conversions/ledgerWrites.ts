import { Effect, Schema } from "effect"
import { Text } from "../infra/columns.ts"
import { DatabaseError, type JsonColumnType, type Tx } from "../infra/Database.ts"
import { CASTS, COLUMNS, type Row } from "./ledgerRows.ts"

// The ledger's statements (ConversionLedger.ts): rows and events written in
// chunks, each chunk bound as one JSON parameter.

// 2,000 rows: a chunk's JSON is built in one stretch of the event loop (5,000 took ~40 ms of it)
const CHUNK = 2_000

export const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

// A batch travels as ONE JSON text parameter (tx.jsonRows). Every value is text
// and cast in SQL, so decimals stay exact.
const allText = (columns: ReadonlyArray<string>): Record<string, JsonColumnType> =>
  Object.fromEntries(columns.map((column) => [column, "VARCHAR"]))

const CAST_COLUMNS = COLUMNS.map((column) => {
  const cast = CASTS[column]
  return `${column}${cast === undefined ? "" : `::${cast}`}`
}).join(", ")
const UPDATES = COLUMNS.filter((column) => column !== "id" && column !== "created_at")
  .map((column) => `${column} = EXCLUDED.${column}`)
  .join(", ")

/** `INSERT … SELECT` of one chunk of rows, bound as one JSON parameter; `conflict` ends the statement. */
const insertChunk = (tx: Tx, chunk: ReadonlyArray<Row>, conflict: string) =>
  [
    `INSERT INTO conversions (${COLUMNS.join(", ")})
     SELECT ${CAST_COLUMNS} FROM ${tx.jsonRows("$1", allText(COLUMNS))}
     ${conflict}`,
    [
      JSON.stringify(
        chunk.map((row) =>
          Object.fromEntries(COLUMNS.map((column) => [column, row[column] === null ? null : String(row[column])]))
        )
      )
    ]
  ] as const

/** Rows of ids that exist (read locked): the upsert only confirms them. */
export const writeRows = (tx: Tx, rows: ReadonlyArray<Row>) =>
  Effect.forEach(
    chunks(rows, CHUNK),
    (chunk) => tx.run(...insertChunk(tx, chunk, `ON CONFLICT (id) DO UPDATE SET ${UPDATES}`)),
    { discard: true }
  )

/** Rows of new ids; returns the ids this transaction created (the others exist: another writer was first). */
export const insertNew = (tx: Tx, rows: ReadonlyArray<Row>) =>
  Effect.gen(function* () {
    const created = new Set<string>()
    for (const chunk of chunks(rows, CHUNK)) {
      const returned = yield* tx.queryAs(
        CreatedRow,
        ...insertChunk(tx, chunk, "ON CONFLICT (id) DO NOTHING RETURNING id")
      )
      for (const { id } of returned) created.add(id)
    }
    return created
  })
const CreatedRow = Schema.Struct({ id: Text })

const EVENT_COLUMNS = [
  "conversion_id",
  "previous_status",
  "status",
  "order_amount",
  "commission",
  "seen_at",
  "source"
] as const
export type Event = readonly [string, string | null, string, string, string, string, string]

export const writeEvents = (tx: Tx, events: ReadonlyArray<Event>) =>
  Effect.forEach(
    chunks(events, CHUNK),
    (chunk) =>
      tx.run(
        `INSERT INTO conversion_events (${EVENT_COLUMNS.join(", ")})
       SELECT conversion_id, previous_status, status, order_amount::DECIMAL(18,4), commission::DECIMAL(18,4),
              seen_at::TIMESTAMPTZ, source
       FROM ${tx.jsonRows("$1", allText(EVENT_COLUMNS))}`,
        [JSON.stringify(chunk.map((event) => Object.fromEntries(EVENT_COLUMNS.map((column, i) => [column, event[i]]))))]
      ),
    { discard: true }
  )

/**
 * PostgreSQL's deadlock error. Ledger writers lock in id order, but a report
 * load locks its batch, then the unattributed rows it re-attributes: a
 * postback batch naming rows of both can wait on it while it waits on the
 * postback. PostgreSQL then aborts one transaction; it rolled back whole, so
 * it is run again.
 */
const isDeadlock = (error: unknown) =>
  error instanceof DatabaseError &&
  typeof error.cause === "object" &&
  error.cause !== null &&
  "code" in error.cause &&
  error.cause.code === "40P01"

/** `transaction` run again (up to 3 times) when PostgreSQL aborted it to break a deadlock. */
export const retryingDeadlocks = <A, E, R>(transaction: Effect.Effect<A, E, R>) =>
  Effect.retry(transaction, { times: 3, while: isDeadlock })
