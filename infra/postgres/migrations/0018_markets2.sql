-- Where an offer sells (ISO 3166-1 alpha-2 codes, comma-separated, sorted):
-- Google Merchant shipping countries, else the feed definition's country, else
-- the country of the store's link domain or of its programme, so a market's
-- answer holds only offers sold in its country. DuckDB twin: the countries
-- entry of infra/schema.ts.
ALTER TABLE products ADD COLUMN countries text;

-- Rows loaded before this version carry none: product feeds reload on their next run.
UPDATE feed_state SET etag = NULL, last_modified = NULL, content_sha256 = NULL
WHERE feed IN (SELECT DISTINCT feed FROM products);
