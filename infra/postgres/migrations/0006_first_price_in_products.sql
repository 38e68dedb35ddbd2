-- A product's first price observation lives in its own row of products
-- (first_price, first_currency, at first_seen_at) rather than in a row of
-- price_history: the staged rows are published as they are (DuckDB twin:
-- migration 6 of infra/schema.ts). NULL: the first observation is in
-- price_history already (rows published before this version).
ALTER TABLE products ADD COLUMN first_price numeric(18,4);
ALTER TABLE products ADD COLUMN first_currency text;

-- Every price observation, for the readers of price history.
CREATE VIEW price_observations AS
  SELECT product_id, observed_at, price, currency FROM price_history
  UNION ALL
  SELECT id, first_seen_at, first_price, first_currency FROM products WHERE first_price IS NOT NULL;
