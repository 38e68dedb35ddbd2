import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { makeDuckDbDatabase } from "../../infra/DuckDbDatabase.ts"
import { tempDir } from "../support/TestService.ts"

// DuckDB's memory limit bounds its buffer pool, not what its finished queries
// freed: glibc keeps those pages in the process's RSS until they are trimmed,
// and DuckDB trims only after releasing more than its bulk-deallocation
// threshold at once (512 MiB by default). The service opens DuckDB with a
// threshold a query's hash tables and sorts pass, flushes what a task cached
// past a lower peak, and lets the allocator's background thread purge freed
// pages as they age (infra/DuckDbDatabase.ts).

describe("DuckDB's memory settings", () => {
  it("opens with the memory limit it is given and hands freed memory back (past 32 MiB at once, 16 MiB after a task, in the background)", async () => {
    const temp = tempDir("duckdb-memory-")
    try {
      const settings = await Effect.runPromise(
        Effect.scoped(
          Effect.flatMap(makeDuckDbDatabase(`${temp.dir}/catalog.duckdb`, 1, 1, "1GB"), (db) =>
            db.query<{ name: string; value: string }>(
              `SELECT name, value FROM duckdb_settings()
               WHERE name IN ('memory_limit', 'allocator_bulk_deallocation_flush_threshold', 'allocator_flush_threshold',
                 'allocator_background_threads') ORDER BY name`
            )
          )
        )
      )
      expect(settings).toEqual([
        { name: "allocator_background_threads", value: "true" },
        { name: "allocator_bulk_deallocation_flush_threshold", value: "32.0 MiB" },
        { name: "allocator_flush_threshold", value: "16.0 MiB" },
        { name: "memory_limit", value: "953.6 MiB" }
      ])
    } finally {
      temp.rm()
    }
  })
})
