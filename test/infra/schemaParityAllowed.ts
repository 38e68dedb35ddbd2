import type { Allowed } from "./schemaDifferences.ts"

// The differences between the DuckDB schema (infra/schema.ts) and the
// PostgreSQL one (infra/postgres/migrations/) that are meant, each with why.
// Anything else the parity test finds is a migration missing on one side;
// an entry that no longer matches a difference fails the test too.

const ZONE_MAPS = "a PostgreSQL read index for a scan DuckDB's zone maps prune without one"

export const ALLOWED_DIFFERENCES: ReadonlyArray<Allowed> = [
  // ---- each store's own migration bookkeeping
  { difference: "table schema_version only in DuckDB", why: "infra/schema.ts records its array's versions here" },
  {
    difference: "table schema_migrations only in PostgreSQL",
    why: "infra/postgres/migrate.ts records each applied file (version, name, time) here"
  },

  // ---- what only replicas sharing one PostgreSQL need
  {
    difference: /^table clicks_(default|\d{8}) only in PostgreSQL$/,
    why: "clicks are range-partitioned by UTC day so retention drops whole days; DuckDB keeps one table"
  },
  {
    difference: "table link_change_version only in PostgreSQL",
    why: "replicas poll it to drop their cached links after a reassignment; one DuckDB process clears its own cache"
  },
  {
    difference: "table rate_limit_buckets only in PostgreSQL",
    why: "token buckets shared by API replicas; one DuckDB process keeps its buckets in memory"
  },
  {
    difference: "table click_journal_replicas only in PostgreSQL",
    why: "each replica's click journal position; one DuckDB process has one journal, in click_journal_state"
  },
  {
    difference: "table click_windows only in PostgreSQL",
    why: "unique-click windows replicas must agree on; one DuckDB process decides uniques in memory"
  },
  {
    difference: "table click_salts only in PostgreSQL",
    why: "the visitor-hash salts replicas share; one DuckDB process makes its own"
  },

  // ---- indexes: the same lookups, served the way each store serves them best
  {
    difference: "index price_history (product_id) only in DuckDB",
    why: "DuckDB's ART index serves only point lookups; PostgreSQL's (product_id, observed_at) replaced it"
  },
  {
    difference: "index price_history (product_id, observed_at) only in PostgreSQL",
    why: "a product's history in time order for the price facts' window functions; " + ZONE_MAPS
  },
  { difference: "index price_history (observed_at) only in PostgreSQL", why: ZONE_MAPS },
  {
    difference: "index postback_signatures (expires_at) only in PostgreSQL",
    why: "the expired claims' prune; " + ZONE_MAPS
  },
  { difference: "index products (id) only in PostgreSQL", why: ZONE_MAPS },
  { difference: "index products (feed) only in PostgreSQL", why: ZONE_MAPS },
  { difference: "index programs (id) only in PostgreSQL", why: ZONE_MAPS },
  { difference: "index programs (network_id) only in PostgreSQL", why: ZONE_MAPS },
  { difference: "index networks (id) only in PostgreSQL", why: ZONE_MAPS },
  { difference: "index rejected_rows (run_id, line) only in PostgreSQL", why: ZONE_MAPS },
  { difference: "index pipeline_runs (feed, started_at, id) only in PostgreSQL", why: ZONE_MAPS },
  { difference: "index pipeline_runs (started_at, id) only in PostgreSQL", why: ZONE_MAPS },
  { difference: "index tracking_links (partner_id, created_at, id) only in PostgreSQL", why: ZONE_MAPS },
  { difference: "index tracking_links (program_id) only in PostgreSQL", why: ZONE_MAPS },
  {
    difference: "index tracking_links (unaffiliated_at) WHERE unaffiliated_at is not null only in PostgreSQL",
    why: ZONE_MAPS
  },
  { difference: "index link_program_changes (tracking_id, changed_at) only in PostgreSQL", why: ZONE_MAPS }
]
