// The test files the `postgres` vitest project runs (with TEST_STORE=postgres,
// against the suite's own PostgreSQL). Append your suite's glob here once it
// passes on PostgreSQL; it keeps running on DuckDB in the `duckdb` project.
// Files named *.postgres.test.ts run in the postgres project only.
export const POSTGRES_ONLY = "test/**/*.postgres.test.ts"

export const postgresSuites: ReadonlyArray<string> = [
  POSTGRES_ONLY,
  "test/infra/database.test.ts",
  "test/pipelines/catalog.test.ts",
  "test/pipelines/products.test.ts",
  "test/pipelines/atomic.test.ts",
  "test/pipelines/admin.test.ts",
  // catalog reads: browse, deals, landing pages, AI tools, MCP, /ready (f4reads);
  // the ones that register partners or match links need f1links's PostgreSQL
  // Partners and ProgramMatcher.
  "test/catalog/**/*.test.ts",
  "test/discovery/**/*.test.ts",
  "test/ai/**/*.test.ts",
  // limits.test.ts waits: on PostgreSQL's shared rate-limit buckets (f1links)
  // the MCP request that should find the per-IP bucket empty is let through.
  "test/mcp/mcp.test.ts",
  "test/mcp/ucpMapping.test.ts",
  "test/system.test.ts"
]
