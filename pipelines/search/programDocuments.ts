import { Effect } from "effect"
import type { DatabaseError, DuckDbShape } from "../../infra/Database.ts"
import { yieldToEventLoop } from "../../infra/yieldToEventLoop.ts"
import { documentId, type ProgramDocument } from "../../readModel/documents.ts"

// The programmes index's documents, compared with what was last sent in SQL:
// a snapshot of every programme as its document's columns and their hash is
// written to a table of the staging database, and only the programmes whose
// hash differs from `search_sync_state` come into JavaScript, a page at a
// time. Read whole and hashed in JavaScript, 30,000 programmes held the event
// loop 250-400 ms in one stretch of every sync (the client turns a whole
// result into objects at once), even when none had changed.

/** The sync's snapshot of the programmes (a table of the staging database: the sync runs outside any transaction). */
export const PROGRAM_DOCS_TABLE = "_search_sync_program_docs"

/** Documents built and sent per turn of the event loop. */
export const PROGRAM_PAGE = 1_000

/** Every programme with its document's columns and their hash, in id order. */
export const snapshotPrograms = (db: DuckDbShape) =>
  db.run(
    `CREATE OR REPLACE TABLE ${PROGRAM_DOCS_TABLE} AS
     SELECT *, md5(to_json(d)::VARCHAR) AS hash FROM (
       SELECT p.id, p.network_id, n.name AS network_name, p.merchant_id, p.name, p.domains, p.country, p.category,
         p.commission_type, p.commission_rate::DOUBLE AS commission_rate, p.commission_currency,
         p.cookie_days::INTEGER AS cookie_days, p.status, p.deep_link_allowed, p.epc::DOUBLE AS epc
       FROM programs p LEFT JOIN networks n ON n.id = p.network_id
     ) d
     ORDER BY id`
  )

export const dropProgramSnapshot = (db: DuckDbShape) => db.run(`DROP TABLE IF EXISTS ${PROGRAM_DOCS_TABLE}`)

/** A programme as the snapshot holds it: its document's columns, under its catalog id. */
type ProgramRow = Omit<ProgramDocument, "id" | "program_id"> & { readonly id: string }

const documentOf = ({ id, domains, ...row }: ProgramRow): ProgramDocument => ({
  ...row,
  id: documentId(id),
  program_id: id,
  domains: [...domains],
  // numbers as numbers, whatever width the client reads a column in
  commission_rate: Number(row.commission_rate),
  cookie_days: row.cookie_days === null ? null : Number(row.cookie_days),
  epc: row.epc === null ? null : Number(row.epc)
})

/**
 * Calls `send` with the documents of the snapshot's programmes whose hash is
 * not `stateIndex`'s in search_sync_state (every programme when `all`), a
 * page at a time in id order, yielding to the event loop between pages.
 * Answers how many were sent.
 */
export const forEachChangedProgramPage = <E>(
  db: DuckDbShape,
  stateIndex: string,
  all: boolean,
  send: (documents: ReadonlyArray<ProgramDocument>) => Effect.Effect<void, E>
): Effect.Effect<number, E | DatabaseError> =>
  Effect.gen(function* () {
    const changed = all
      ? ""
      : `AND d.hash IS DISTINCT FROM (SELECT s.hash FROM search_sync_state s WHERE s.index_name = $2 AND s.id = d.id)`
    let after = ""
    let sent = 0
    for (;;) {
      const rows = yield* db.query<ProgramRow>(
        `SELECT d.* EXCLUDE (hash) FROM ${PROGRAM_DOCS_TABLE} d WHERE d.id > $1 ${changed} ORDER BY d.id LIMIT ${PROGRAM_PAGE}`,
        all ? [after] : [after, stateIndex]
      )
      if (rows.length === 0) return sent
      yield* send(rows.map(documentOf))
      sent += rows.length
      after = rows[rows.length - 1].id
      if (rows.length < PROGRAM_PAGE) return sent
      yield* yieldToEventLoop
    }
  })

/** The ids in `stateIndex`'s search_sync_state that the snapshot no longer holds. */
export const goneProgramIds = (db: DuckDbShape, stateIndex: string) =>
  db
    .query<{ id: string }>(
      `SELECT id FROM search_sync_state WHERE index_name = $1 AND id NOT IN (SELECT id FROM ${PROGRAM_DOCS_TABLE})`,
      [stateIndex]
    )
    .pipe(Effect.map((rows) => rows.map((row) => row.id)))

/** `stateIndex`'s search_sync_state replaced by the snapshot's hashes (run in the transaction that records the sync). */
export const recordProgramHashes = (tx: Pick<DuckDbShape, "run">, stateIndex: string) =>
  tx.run(`INSERT INTO search_sync_state SELECT $1, id, NULL, hash FROM ${PROGRAM_DOCS_TABLE}`, [stateIndex])
