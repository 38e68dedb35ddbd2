// The test files the `postgres` vitest project runs (with TEST_STORE=postgres,
// against the suite's own PostgreSQL). Append your suite's glob here once it
// passes on PostgreSQL; it keeps running on DuckDB in the `duckdb` project.
// Files named *.postgres.test.ts run in the postgres project only.
export const POSTGRES_ONLY = "test/**/*.postgres.test.ts"

export const postgresSuites: ReadonlyArray<string> = [
  POSTGRES_ONLY,
  "test/infra/database.test.ts",
  // conversions (f3conversions); pipeline.test.ts and lateRevenue.test.ts join once the
  // pipelines' feed_state SQL (f5pipelines) and partner registration (f1links) run on PostgreSQL
  "test/conversions/cli.test.ts",
  "test/conversions/http.test.ts",
  "test/conversions/ledger.test.ts",
  "test/conversions/loader.test.ts",
  "test/conversions/money.test.ts",
  "test/conversions/reattributionSchedule.test.ts",
  "test/conversions/reports.test.ts"
]
