// The test files the `postgres` vitest project runs (with TEST_STORE=postgres,
// against the suite's own PostgreSQL). Append your suite's glob here once it
// passes on PostgreSQL; it keeps running on DuckDB in the `duckdb` project.
// Files named *.postgres.test.ts run in the postgres project only.
export const POSTGRES_ONLY = "test/**/*.postgres.test.ts"

export const postgresSuites: ReadonlyArray<string> = [
  POSTGRES_ONLY,
  "test/infra/database.test.ts",
  "test/links/clickRetention.test.ts",
  "test/links/crash.test.ts",
  "test/links/redirect.test.ts",
  "test/pipelines/products.test.ts",
  "test/pipelines/atomic.test.ts",
  "test/pipelines/admin.test.ts",
  "test/pipelines/sources.test.ts",
  "test/pipelines/cli.test.ts",
  "test/pipelines/networkApis.test.ts",
  "test/pipelines/catalog.test.ts",
  "test/pipelines/firstObservation.test.ts",
  "test/pipelines/catalogEvents.test.ts",
  "test/links/catalogFollower.test.ts",
  "test/links/catalogChanges.test.ts",
  "test/links/linkCacheInvalidate.test.ts",
  // links and partners (f1links)
  "test/links/match.test.ts",
  "test/links/reassign.test.ts",
  "test/links/samples.test.ts",
  "test/links/reresolution.test.ts",
  "test/links/partners.test.ts",
  "test/partners/partnersLayerTest.test.ts",
  "test/partners/keys.test.ts",
  "test/links/catalog.test.ts",
  "test/links/reservedTags.test.ts",
  // catalog reads: browse, deals, landing pages, AI tools, MCP, /ready (f4reads);
  // the ones that register partners or match links need f1links's PostgreSQL
  // Partners and ProgramMatcher.
  "test/catalog/**/*.test.ts",
  "test/discovery/**/*.test.ts",
  "test/ai/**/*.test.ts",
  "test/mcp/mcp.test.ts",
  "test/mcp/limits.test.ts",
  "test/mcp/sessionLimits.test.ts",
  "test/mcp/ucpMapping.test.ts",
  "test/system.test.ts",
  // conversions
  "test/conversions/pipeline.test.ts",
  "test/conversions/lateRevenue.test.ts",
  "test/conversions/cli.test.ts",
  "test/conversions/http.test.ts",
  "test/conversions/postbackHardening.test.ts",
  "test/conversions/replayClaims.test.ts",
  "test/conversions/ledger.test.ts",
  "test/conversions/loader.test.ts",
  "test/conversions/money.test.ts",
  "test/conversions/reattributionSchedule.test.ts",
  "test/conversions/reports.test.ts",
  "test/conversions/networkFeeds.test.ts",
  "test/conversions/moreNetworkFeeds.test.ts",
  "test/conversions/correctionsInReads.test.ts",
  "test/conversions/reconciliation.test.ts",
  // the HTTP contract: strict JSON bodies, the edge's per-client limits (shared buckets), and the fuzz run from
  // /openapi.json
  "test/api/*.test.ts",
  "test/api/edge/publicLimits.test.ts",
  "test/fuzz/**/*.test.ts"
]
