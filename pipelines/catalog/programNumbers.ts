import type { DatabaseError, Tx } from "../../infra/Database.ts"
import type { Effect } from "effect"

// Programme numbers (program_numbers): the stable integer a client may name a
// programme by instead of its string id. Given once, at ingest, in the
// transaction that writes the programmes; never changed or reused, so a
// programme keeps its number across re-ingests, restarts and a spell out of
// its feed. ORDER BY id: one load numbers alike on any store.

/** Numbers the programmes of `feed` (every programme when undefined) that have none yet. */
export const numberNewPrograms = (tx: Tx, feed?: string): Effect.Effect<void, DatabaseError> =>
  tx.run(
    `INSERT INTO program_numbers
     SELECT id, CAST((SELECT coalesce(max(number), 0) FROM program_numbers) + row_number() OVER (ORDER BY id) AS INTEGER)
     FROM (SELECT DISTINCT id FROM programs WHERE ${feed === undefined ? "true" : "feed = $1"}
           AND id NOT IN (SELECT program_id FROM program_numbers)) fresh`,
    feed === undefined ? [] : [feed]
  )
