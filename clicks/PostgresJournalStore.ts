import { Effect } from "effect"
import { readFile } from "node:fs/promises"
import { appendTextOrNull, type DatabaseShape } from "../infra/Database.ts"
import { type JournalStore, SeqRow, type StoredClick } from "./ClickJournal.ts"
import { decideUniques } from "./uniqueClicks.ts"

// PostgreSQL, shared by replicas that each keep their own journal (their own
// DATA_DIR): segments are read here in Node (PostgreSQL cannot read our
// files), their clicks judged for uniqueness against the shared windows and
// written with COPY, and THIS replica's last stored segment recorded, all in
// one transaction, so a segment is stored exactly once even if the process
// dies between COMMIT and unlinking the file.
/**
 * Our own file, written by clickWorker.ts one JSON object per line (a torn
 * tail was cut by repairTail): read asynchronously, parsed as one array on the
 * event loop (with the COPY encoding, about 3 µs a click measured; DuckDB's
 * read_json does this on its own threads).
 */
const readSegment = (path: string) =>
  Effect.map(
    Effect.promise(() => readFile(path, "utf8")),
    (text): Array<StoredClick> => JSON.parse(`[${text.trimEnd().split("\n").join(",")}]`)
  )

export const postgresJournalStore = (db: DatabaseShape, replica: string): JournalStore => ({
  appliedSeq: Effect.map(
    db.queryAs(SeqRow, "SELECT applied_seq AS seq FROM click_journal_replicas WHERE replica_id = $1", [replica]),
    (rows) => rows[0]?.seq ?? 0
  ),
  store: (segments) =>
    Effect.gen(function* () {
      const clicks = (yield* Effect.forEach(segments, (segment) => readSegment(segment.path))).flat()
      return yield* db.transaction((tx) =>
        Effect.gen(function* () {
          const unique = yield* decideUniques(tx, clicks)
          if (clicks.length > 0) {
            yield* tx.append("clicks", (appender) => {
              clicks.forEach((click, index) => {
                appender.appendVarchar(new Date(click.a).toISOString())
                appender.appendVarchar(click.i)
                if (click.p === null) appender.appendNull()
                else appender.appendInteger(click.p)
                appender.appendVarchar(click.t)
                appender.appendVarchar(click.h)
                appendTextOrNull(appender, click.u)
                appendTextOrNull(appender, click.r)
                appender.appendBoolean(click.b)
                appendTextOrNull(appender, click.w)
                appender.appendBoolean(unique[index])
                appender.endRow()
              })
            })
          }
          yield* tx.run(
            `INSERT INTO click_journal_replicas (replica_id, applied_seq, updated_at) VALUES ($1, $2, now())
             ON CONFLICT (replica_id) DO UPDATE SET applied_seq = EXCLUDED.applied_seq, updated_at = EXCLUDED.updated_at`,
            [replica, segments.at(-1)!.seq]
          )
          return clicks.length
        })
      )
    })
})
