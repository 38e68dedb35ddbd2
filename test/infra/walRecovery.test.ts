import { execFileSync } from "node:child_process"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { makeDuckDbDatabase } from "../../infra/DuckDbDatabase.ts"
import { tempDir } from "../support/TestService.ts"

// A process that dies after a write leaves it in DuckDB's write-ahead log.
// DuckDB 1.5 replays the log on the next open; if that session then writes and
// checkpoints, the table's indexes are persisted without the replayed rows, and
// the next UPDATE of such a row kills the whole database ("Failed to delete all
// rows from index", FATAL). Seen when a server restarted after a crash re-resolved
// the links the crashed one had made.

/** Inserts a link as the service does and exits without closing: a crash, as the file sees it. */
const crashAfterInsert = (path: string) =>
  execFileSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { DuckDBInstance } from "@duckdb/node-api"
       const connection = await (await DuckDBInstance.create(${JSON.stringify(path)})).connect()
       await connection.run("INSERT INTO tracking_links (id, partner_id, tag, original_url, normalized_url, destination_url, affiliate_url, program_id, network_id, source, created_at) VALUES ('crashed1', NULL, 'anon', 'https://www.burpee.com/seeds', 'https://www.burpee.com/seeds', 'https://www.burpee.com/seeds', 'https://aff.example/x', 'awin:5445', 'awin', 'match', now())")
       process.exit(0)`
    ],
    { cwd: process.cwd() }
  )

const session = <A>(
  path: string,
  work: (db: Effect.Success<ReturnType<typeof makeDuckDbDatabase>>) => Effect.Effect<A, unknown>
) => Effect.runPromise(Effect.scoped(Effect.flatMap(makeDuckDbDatabase(path, 1, 1), work)))

describe("DuckDB after a crash", () => {
  it("a row replayed from the log can be updated after the next session wrote and checkpointed", async () => {
    const temp = tempDir("wal-recovery-")
    try {
      const path = `${temp.dir}/catalog.duckdb`
      await session(path, () => Effect.void) // the schema, then a clean close
      crashAfterInsert(path)
      // the restarted service writes something else, then stops cleanly (a checkpoint)
      await session(path, (db) => db.run("UPDATE catalog_version SET version = version + 1"))
      const moved = await session(path, (db) =>
        db.transaction((tx) =>
          tx.query(
            "UPDATE tracking_links SET program_id = NULL, affiliate_url = destination_url WHERE id = 'crashed1' RETURNING id"
          )
        )
      )
      expect(moved).toEqual([{ id: "crashed1" }])
    } finally {
      temp.rm()
    }
  })
})
