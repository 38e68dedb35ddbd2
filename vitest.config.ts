import { defineConfig } from "vitest/config"

// Which store a test file runs on is in its name:
//   x.test.ts           DuckDB only (the embedded default)
//   x.both.test.ts      DuckDB, and again on PostgreSQL (TEST_STORE=postgres)
//   x.postgres.test.ts  PostgreSQL only (replicas, shared buckets, the schema parity)
// A file is "both" when it alone sends PostgreSQL some statement, or tests a
// guarantee of the store itself (docs/testing.md, scripts/postgres-statements.ts).
const POSTGRES_ONLY = "test/**/*.postgres.test.ts"
const BOTH_STORES = "test/**/*.both.test.ts"

export default defineConfig({
  test: {
    // One real Meilisearch for the whole run (each test file uses its own index
    // prefix), and one PostgreSQL when the postgres project runs.
    globalSetup: ["test/support/globalSetup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Three on a 2-core machine: most of a test's time is waiting on a
    // service, Meilisearch or PostgreSQL it started, not CPU (the suite
    // took 515 s of wall time with 2 workers and 457 s with 3, same
    // machine, minutes apart; every test passing in both).
    maxWorkers: 3,
    // Files share their worker processes: a fresh process per file spent about
    // a third of the suite's time importing the service again (the api and
    // conversions folders: 101 s -> 67 s of wall time). What a file leaves in
    // its process is reset for the next (test/support/processDefaults.ts).
    isolate: false,
    setupFiles: ["test/support/processDefaults.ts"],
    projects: [
      { extends: true, test: { name: "duckdb", include: ["test/**/*.test.ts"], exclude: [POSTGRES_ONLY] } },
      {
        extends: true,
        test: {
          name: "postgres",
          include: [POSTGRES_ONLY, BOTH_STORES],
          env: { TEST_STORE: "postgres" },
          setupFiles: ["test/support/processDefaults.ts", "test/support/postgresFile.ts"],
          globalSetup: ["test/support/postgresGlobalSetup.ts"]
        }
      }
    ]
  }
})
