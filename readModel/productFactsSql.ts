// The price-history facts of a set of products, as SQL shared by the search
// sync (every product of a feed) and the AI copy generator (one programme's
// products), so both judge a discount by the same observations and the copy
// can never quote a saving the discovery feed would not show.
//
// `productFactsCtes(filter, columns)` defines `p` (products passing `filter`, a WHERE
// clause or "", with `columns`: every column by default, else a select list
// that must include id, first_seen_at and first_price), then `s` (since / first_at), `ref` (the 30-day reference
// price) and `low` (the 90-day low); select PRODUCT_ROW_COLUMNS FROM p with
// PRODUCT_FACT_JOINS to get documents.ts ProductRow rows.
//
// One text for DuckDB (staging, and the embedded store) and PostgreSQL:
// standard INTERVAL literals, FLOAT8, and day spans as whole epoch seconds
// (what DuckDB's date_diff('second') counts; on DuckDB it is also ~40x
// cheaper than date_diff on TIMESTAMPTZ, which goes through ICU).
export const productFactsCtes = (productsFilter: string, columns = "*") => `
  p AS (SELECT ${columns} FROM products ${productsFilter}),
  -- Price changes only: a repeated observation of the same price (a feed
  -- re-read, or history loaded around a load-time observation) does not
  -- restart "the current price started at".
  -- The observations are the price_observations view's, its products half
  -- read from p (already filtered) rather than from products again.
  h0 AS (
    SELECT product_id, obs_at, price, lag(price) OVER (PARTITION BY product_id ORDER BY obs_at) AS prev
    FROM (
      SELECT ph.product_id, ph.observed_at AS obs_at, ph.price FROM price_history ph WHERE ph.product_id IN (SELECT id FROM p)
      UNION ALL
      SELECT id, first_seen_at, first_price FROM p WHERE first_price IS NOT NULL
    ) observed
  ),
  h AS (
    SELECT product_id, obs_at, price,
      lead(obs_at) OVER (PARTITION BY product_id ORDER BY obs_at) AS until
    FROM h0 WHERE prev IS NULL OR prev <> price
  ),
  s AS (SELECT product_id, max(obs_at) AS since, min(obs_at) AS first_at FROM h GROUP BY product_id),
  w AS (
    SELECT h.product_id, h.price,
      greatest(h.obs_at, s.since - INTERVAL '30 days') AS win_at,
      (floor(extract(epoch FROM h.until)) - floor(extract(epoch FROM greatest(h.obs_at, s.since - INTERVAL '30 days'))))
        / 86400.0 AS days
    FROM h JOIN s USING (product_id)
    WHERE h.obs_at < s.since AND h.until > s.since - INTERVAL '30 days'
  ),
  ref AS (
    SELECT product_id, price AS ref_price, win_at AS ref_at, days AS ref_days FROM (
      SELECT *, row_number() OVER (PARTITION BY product_id ORDER BY price, win_at DESC) AS rn FROM w
    ) ranked WHERE rn = 1
  ),
  low AS (
    SELECT product_id, min(price) AS low90 FROM h
    WHERE coalesce(until, now()) > now() - INTERVAL '90 days' GROUP BY product_id
  )`

/** The columns of a ProductRow (readModel/documents.ts). */
export const PRODUCT_ROW_COLUMNS = `p.id, p.feed, p.title, p.description, p.link, p.image_link, p.brand, p.gtin, p.category, p.product_type,
      p.store, p.store_domain, p.currency, p.price::FLOAT8 AS price, p.current_price::FLOAT8 AS current_price,
      p.feed_was_price::FLOAT8 AS feed_was_price, p.availability, p.condition, p.color, p.size, p.item_group_id, p.gender, p.age_group, p.countries, p.updated_at,
      s.since, s.first_at, ref.ref_price::FLOAT8 AS ref_price, ref.ref_at, ref.ref_days, low.low90::FLOAT8 AS low90`

export const PRODUCT_FACT_JOINS = `LEFT JOIN s ON s.product_id = p.id
    LEFT JOIN ref ON ref.product_id = p.id
    LEFT JOIN low ON low.product_id = p.id`
