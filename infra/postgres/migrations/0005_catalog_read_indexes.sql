-- What DuckDB's zone maps gave the API's catalog reads for free
-- (catalog/, ai/, discovery/, api/admin/pipelines). The catalog tables keep
-- no primary key (a feed's rows are replaced in bulk), so these are plain
-- indexes; checked with EXPLAIN in test/catalog/readIndexes.postgres.test.ts.

-- A product by id: the landing page's fallback, the deal lists' shown
-- products, the discount confirmation of a batch of ids.
CREATE INDEX products_id ON products (id);
-- A feed's rows: the publish step replaces them (DELETE ... WHERE feed = $1).
CREATE INDEX products_feed ON products (feed);

-- A programme by id (AI copy, the deal lists' currencies) and a network's
-- programmes (GET /api/v1/networks counts them per network).
CREATE INDEX programs_id ON programs (id);
CREATE INDEX programs_network ON programs (network_id);
CREATE INDEX networks_id ON networks (id);

-- A product's price history in time order (the price facts' window
-- functions), and the price drops' recent changes. The composite index
-- serves every lookup the single-column one of 0001 did.
CREATE INDEX price_history_product_time ON price_history (product_id, observed_at);
DROP INDEX IF EXISTS price_history_product;
CREATE INDEX price_history_observed ON price_history (observed_at);

-- The admin views: a run's rejected rows in line order, each feed's latest run.
CREATE INDEX rejected_rows_run ON rejected_rows (run_id, line);
CREATE INDEX pipeline_runs_feed_started ON pipeline_runs (feed, started_at DESC, id DESC);
CREATE INDEX pipeline_runs_started ON pipeline_runs (started_at DESC, id DESC);
