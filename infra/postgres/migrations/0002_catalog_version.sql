-- The catalog's version, bumped in the transaction of every catalog change
-- (infra/CatalogVersion.ts): API replicas poll this one row (CATALOG_POLL_MS)
-- and reload their matcher and link caches when it moves.
-- The DuckDB twin is migration 5 in infra/schema.ts.
CREATE TABLE IF NOT EXISTS catalog_version (
  id integer PRIMARY KEY,                -- always 1: one row
  version bigint NOT NULL,
  changed_at timestamptz NOT NULL
);

INSERT INTO catalog_version (id, version, changed_at)
SELECT 1, 0, current_timestamp
WHERE NOT EXISTS (SELECT 1 FROM catalog_version);
