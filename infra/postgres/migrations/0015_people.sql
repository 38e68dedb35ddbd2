-- Who a product is for (Google Merchant gender: male, female, unisex;
-- age_group: newborn, infant, toddler, kids, adult), so search reads "for dad"
-- or "for a 10 year old" against the products themselves. DuckDB twin: the
-- gender/age_group entry of infra/schema.ts.
ALTER TABLE products ADD COLUMN gender text;
ALTER TABLE products ADD COLUMN age_group text;

-- Rows loaded before this version carry neither: product feeds reload on their next run.
UPDATE feed_state SET etag = NULL, last_modified = NULL, content_sha256 = NULL
WHERE feed IN (SELECT DISTINCT feed FROM products);
