-- A link made for the market that chose its programme (a GB shopper's
-- nike.com link goes through Nike UK, a US shopper's through Nike US): the
-- market joins the dedup key, so each market gets its own link to the same
-- URL; NULL (every link before this version) serves all markets. DuckDB twin:
-- the link market entry of infra/schema.ts.
ALTER TABLE tracking_links ADD COLUMN market text;
DROP INDEX IF EXISTS tracking_links_dedup;
CREATE UNIQUE INDEX tracking_links_market_dedup
  ON tracking_links (COALESCE(partner_id, 0), tag, normalized_url, COALESCE(market, ''));
