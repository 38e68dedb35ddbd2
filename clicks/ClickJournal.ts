import { Effect, Schema } from "effect"
import { Count } from "../infra/columns.ts"
import type { DatabaseError, DatabaseShape } from "../infra/Database.ts"
import { listSegments, removeSegment, repairTail, type Segment } from "./segmentFiles.ts"

// The click journal: append-only segment files under DATA_DIR/click-journal,
// one JSON line per stored click (already hashed and judged: no raw IP ever
// reaches the disk). The click worker appends and fdatasyncs a group of
// clicks every few milliseconds, then seals the segment; the recorder stores
// sealed segments through a JournalStore (DuckDB: straight from the files with
// read_json, on DuckDB's threads; PostgreSQL: PostgresJournalStore.ts) and
// records the last stored segment number in the same transaction, so a
// segment is stored exactly once even if we crash between COMMIT and deleting
// its file. On start every segment left over is replayed.
/** `applied_seq AS seq`. */
export const SeqRow = Schema.Struct({ seq: Count })

/** One journal line: the clicks table's columns under short keys. */
export interface StoredClick {
  /** clicked at, epoch ms */ readonly a: number
  /** tracking id */ readonly i: string
  /** partner id */ readonly p: number | null
  /** tag */ readonly t: string
  /** visitor hash */ readonly h: string
  /** user agent */ readonly u: string | null
  /** referrer */ readonly r: string | null
  /** is bot */ readonly b: boolean
  /** bot reason */ readonly w: string | null
  /** is unique */ readonly q: boolean
}

const literal = (path: string) => `'${path.replaceAll("'", "''")}'`

/** Inserts segment files into clicks in one statement (DuckDB reads and parses them itself). */
export const insertSegmentsSql = (paths: ReadonlyArray<string>) =>
  `INSERT INTO clicks
   SELECT to_timestamp(a / 1000.0), i, p, t, h, u, r, b, w, q
   FROM read_json([${paths.map(literal).join(", ")}], format = 'newline_delimited',
     columns = {a: 'BIGINT', i: 'VARCHAR', p: 'INTEGER', t: 'VARCHAR', h: 'VARCHAR', u: 'VARCHAR', r: 'VARCHAR', b: 'BOOLEAN', w: 'VARCHAR', q: 'BOOLEAN'})`

/** Where the journal's segments are stored: the clicks table, and the number of the last segment stored. */
export interface JournalStore {
  /** The number of the last segment stored (0: none yet). */
  readonly appliedSeq: Effect.Effect<number, DatabaseError>
  /**
   * Stores segments in one transaction together with the number of the last
   * one: a segment whose number is not above it is already stored. Returns
   * the clicks stored.
   */
  store(segments: ReadonlyArray<Segment>): Effect.Effect<number, DatabaseError>
}

const InsertedRow = Schema.Struct({ Count })

/** DuckDB: one process owns the file, so one journal and one `applied_seq` row. */
export const duckdbJournalStore = (db: DatabaseShape): JournalStore => ({
  appliedSeq: Effect.map(
    db.queryAs(SeqRow, "SELECT applied_seq AS seq FROM click_journal_state"),
    (rows) => rows[0]?.seq ?? 0
  ),
  store: (segments) =>
    db.transaction((tx) =>
      Effect.gen(function* () {
        const inserted = yield* tx.queryAs(InsertedRow, insertSegmentsSql(segments.map((s) => s.path)))
        yield* tx.run("UPDATE click_journal_state SET applied_seq = $1", [segments.at(-1)!.seq])
        return inserted[0]?.Count ?? 0
      })
    )
})

/**
 * Start-up: stores whatever a crash left in the journal (cutting a torn last
 * line), drops segments already stored, and returns the highest segment
 * number seen, so the worker starts after it.
 */
export const replayJournal = (store: JournalStore, dir: string) =>
  Effect.gen(function* () {
    const applied = yield* store.appliedSeq
    const leftover: Array<Segment> = []
    let lastSeq = applied
    for (const segment of listSegments(dir)) {
      lastSeq = Math.max(lastSeq, segment.seq)
      if (segment.seq <= applied || repairTail(segment.path) === 0) removeSegment(segment.path)
      else leftover.push(segment)
    }
    if (leftover.length === 0) return { lastSeq, clicks: 0 }
    const clicks = yield* store.store(leftover)
    for (const segment of leftover) removeSegment(segment.path)
    yield* Effect.logInfo("click journal replayed", { segments: leftover.length, clicks })
    return { lastSeq, clicks }
  })
