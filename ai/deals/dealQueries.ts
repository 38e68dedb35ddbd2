import { countedConversionSql } from "../../infra/conversionCounting.ts"
import type { SqlValue, Tx } from "../../infra/Database.ts"
import {
  MIN_DISCOUNT_FULL,
  MIN_DISCOUNT_PARTIAL,
  MIN_PRIOR_DAYS,
  REFERENCE_WINDOW_DAYS
} from "../../domain/deals/deal.ts"
import { MEDIAN_WINDOW_DAYS, RECENT_DROP_DAYS } from "../../domain/deals/priceDrop.ts"
import { COMPARE_HOURS, HALF_LIFE_HOURS, WINDOW_DAYS } from "../../domain/deals/trending.ts"
import { CONVERSION_WINDOW_DAYS } from "../../domain/deals/earnings.ts"
import { PRODUCT_FACT_JOINS, PRODUCT_ROW_COLUMNS, productFactsCtes } from "../../readModel/productFactsSql.ts"

// The SQL of deal discovery. Every value that comes from a request (the
// time, the category, the minimum discount, the limit, lists of ids) is a
// bound parameter; the only text spliced in is fixed fragments and the
// numeric constants of domain/deals. Each query aggregates in the store and
// returns at most `limit` rows (a few more for high_commission).
//
// Time differences are epoch arithmetic: date_diff on TIMESTAMPTZ goes
// through ICU calendar code and cost twice the whole click aggregation.
//
// One text for DuckDB and PostgreSQL (standard INTERVAL literals, FLOAT8,
// lists of ids as one JSON parameter through the store's jsonList/jsonRows);
// where the dialects differ (epoch milliseconds, category levels) the
// store's `sql` spells it.
//
// Parameters are named ($now, $category, ...) and bound by `bind`, which
// numbers only those a statement uses (DuckDB refuses unused ones). $now is
// the request time, so every list is computed against the same instant.

export interface Filters {
  readonly category: string | undefined
  readonly minDiscount: number
  /** The market's currency: only products priced in it (none: every currency). */
  readonly currency?: string | undefined
  /** The market's country: only products sold in it (none: every country). */
  readonly country?: string | undefined
}

/** What the SQL builders need of the store: its SQL spelling and its JSON batch fragments. */
export type DealSql = Pick<Tx, "sql" | "jsonList" | "jsonRows">

/**
 * Category matching of /api/deals: the category or any level of the
 * merchant's product_type path, case-insensitively (the index's `categories`).
 */
const categoryMatch = (db: DealSql, alias: string) =>
  `$category = ANY(${db.sql.lowercaseLevels(`${alias}.category`, `coalesce(${alias}.product_type, '')`, ">")})`

/**
 * Sold in the market's country: its `countries` list names it, or, for a
 * product whose feed said nowhere, it is priced in that country's currency
 * (readModel/documents.ts: sellingCountries reads the same rule).
 */
const soldIn = (alias: string) =>
  `(strpos(',' || ${alias}.countries || ',', ',' || $country || ',') > 0 OR (${alias}.countries IS NULL AND ${alias}.currency = $country_currency))`

/** Products a list may show: in stock (or orderable), in the category, priced in the market's currency, sold in its country. */
export const productScope = (db: DealSql, alias: string, filters: Filters) =>
  `${alias}.availability <> 'out_of_stock'${filters.category === undefined ? "" : ` AND ${categoryMatch(db, alias)}`}` +
  (filters.currency === undefined ? "" : ` AND ${alias}.currency = $currency`) +
  (filters.country === undefined ? "" : ` AND ${soldIn(alias)}`)

/**
 * The discount deal.ts would compute (discountPercent over the trusted
 * reference, referenceKind's rules), in SQL so a list can be filtered by it
 * before LIMIT. Needs productFactsCtes' p, s and ref. `is_deal` mirrors
 * dealFacts().isDeal except for availability, which productScope handles.
 */
const discountCte = (db: DealSql) => `
  d AS (
    SELECT id, kind, ref_price,
      CASE WHEN kind IS NULL OR ref_price <= 0 OR cur >= ref_price THEN 0
           ELSE floor((ref_price - cur) / ref_price * 100 + 1e-9) END AS discount
    FROM (
      SELECT p.id, p.current_price::FLOAT8 AS cur, ref.ref_price::FLOAT8 AS ref_price,
        CASE WHEN ref.ref_price IS NULL THEN NULL
             WHEN ${daysBetween(db, "s.first_at", "s.since")} >= ${REFERENCE_WINDOW_DAYS} THEN 'full'
             WHEN ref.ref_days >= ${MIN_PRIOR_DAYS} THEN 'partial' END AS kind
      FROM p LEFT JOIN s ON s.product_id = p.id LEFT JOIN ref ON ref.product_id = p.id
    ) facts
  ),
  dd AS (
    SELECT *, kind IS NOT NULL AND discount >= CASE kind WHEN 'full' THEN ${MIN_DISCOUNT_FULL} ELSE ${MIN_DISCOUNT_PARTIAL} END
      AS is_deal
    FROM d
  )`

const NOW = "$now::TIMESTAMPTZ"
/** Bound once as a double: PostgreSQL would otherwise type it from its first use. */
const MIN_DISCOUNT = "$min_discount::FLOAT8"

const daysBetween = (db: DealSql, from: string, to: string) => {
  const { epochMs } = db.sql
  return `(${epochMs(to)} - ${epochMs(from)}) / 86400000.0`
}

/**
 * A necessary condition for a discount of at least $min_discount, cheap to
 * test: some earlier price at least current / (1 - min/100) (the reference is
 * one of the earlier prices, so none that high means no such discount).
 * Lists filtered by discount rank these candidates, then confirm each batch
 * with the exact rule (discountAtLeastSql).
 */
const mayHaveDiscount = (alias: string, historyFilter: string, percent = MIN_DISCOUNT) => `${alias}.id IN (
    SELECT hpr.id
    FROM (SELECT product_id, max(price)::FLOAT8 AS hi, count(*) AS n FROM price_observations ${historyFilter} GROUP BY product_id) hh
    JOIN products hpr ON hpr.id = hh.product_id
    WHERE hh.n >= 2 AND hpr.current_price::FLOAT8 <= hh.hi * (1 - ${percent} / 100.0) + 1e-6)`

/**
 * Trending, one batch ($offset, $limit) in rank order.
 * Clicks are read for WINDOW_DAYS only, joined to their link for the
 * product; a visitor (IP hash) counts once per product and hour, whichever
 * of the product's links it clicked and however often (bots and repeat clicks
 * never count), so one client hammering a link cannot make a product trend.
 */
export const trendingSql = (db: DealSql, filters: Filters) => {
  const { epochMs } = db.sql
  return `
  WITH visits AS (
    SELECT l.product_id, min(k.clicked_at) AS clicked_at
    FROM clicks k JOIN (SELECT id, product_id FROM tracking_links WHERE product_id IS NOT NULL) l ON l.id = k.tracking_id
    WHERE k.clicked_at > ${NOW} - INTERVAL '${WINDOW_DAYS} days' AND k.clicked_at <= ${NOW} AND NOT k.is_bot AND k.is_unique
    GROUP BY l.product_id, k.ip_hash, date_trunc('hour', k.clicked_at)
  ),
  counted AS (
    SELECT v.product_id AS id,
      sum(exp(-ln(2) * (${epochMs(NOW)} - ${epochMs("v.clicked_at")}) / ${HALF_LIFE_HOURS * 3_600_000}.0))::FLOAT8 AS score,
      count(*) FILTER (WHERE v.clicked_at > ${NOW} - INTERVAL '${COMPARE_HOURS} hours')::INTEGER AS clicks_24h,
      count(*) FILTER (WHERE v.clicked_at <= ${NOW} - INTERVAL '${COMPARE_HOURS} hours'
        AND v.clicked_at > ${NOW} - INTERVAL '${2 * COMPARE_HOURS} hours')::INTEGER AS clicks_prev_24h,
      count(*)::INTEGER AS clicks_window
    FROM visits v
    GROUP BY v.product_id
  ),
  -- Gaining products only (a filter on the counts, not HAVING: PostgreSQL's HAVING cannot name them).
  c AS (SELECT * FROM counted WHERE clicks_24h > 0 AND clicks_24h >= clicks_prev_24h)
  SELECT c.id, c.score, c.clicks_24h, c.clicks_prev_24h, c.clicks_window
  FROM c JOIN products pr ON pr.id = c.id
  WHERE ${productScope(db, "pr", filters)}
    ${filters.minDiscount > 0 ? `AND ${mayHaveDiscount("c", "WHERE product_id IN (SELECT id FROM c)")}` : ""}
  ORDER BY c.score DESC, c.clicks_24h DESC, c.id
  LIMIT $limit OFFSET $offset`
}

/**
 * Price drops.
 * Candidates are products with a price observation in the last
 * RECENT_DROP_DAYS (price_observations holds one row per change, so an unchanged
 * product has none) that may be 10% (or min_discount) below an earlier
 * price: full history is then read for those only.
 */
export const priceDropsSql = (db: DealSql, filters: Filters) => {
  const { epochMs } = db.sql
  return `
  WITH recent AS (SELECT DISTINCT product_id FROM price_observations WHERE observed_at > ${NOW} - INTERVAL '${RECENT_DROP_DAYS} days'),
  ${productFactsCtes(`WHERE ${productScope(db, "products", filters)} AND id IN (SELECT product_id FROM recent)
      AND ${mayHaveDiscount("products", "WHERE product_id IN (SELECT product_id FROM recent)", `greatest(${MIN_DISCOUNT}, ${MIN_DISCOUNT_FULL})`)}`)},
  ${discountCte(db)},
  m AS (
    SELECT h.product_id, h.price::FLOAT8 AS price,
      ${epochMs("h.until")} - ${epochMs(`greatest(h.obs_at, s.since - INTERVAL '${MEDIAN_WINDOW_DAYS} days')`)} AS dur
    FROM h JOIN s USING (product_id)
    WHERE h.obs_at < s.since AND h.until > s.since - INTERVAL '${MEDIAN_WINDOW_DAYS} days'
  ),
  med AS (
    SELECT product_id, min(price) FILTER (WHERE cum * 2 >= total) AS median_90d, count(*)::INTEGER AS observations_90d
    FROM (
      SELECT *, sum(dur) OVER (PARTITION BY product_id ORDER BY price ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cum,
        sum(dur) OVER (PARTITION BY product_id) AS total
      FROM m
    ) running GROUP BY product_id
  ),
  n30 AS (SELECT product_id, count(*)::INTEGER AS observations_30d FROM w GROUP BY product_id)
  SELECT p.id, p.current_price::FLOAT8 AS current, dd.ref_price AS low_30d, med.median_90d, dd.discount::INTEGER AS discount,
    dd.kind AS reference_kind, coalesce(n30.observations_30d, 0) AS observations_30d,
    coalesce(med.observations_90d, 0) AS observations_90d,
    ${daysBetween(db, "s.first_at", "s.since")} AS history_days, s.since
  FROM p JOIN dd ON dd.id = p.id JOIN s ON s.product_id = p.id
  LEFT JOIN med ON med.product_id = p.id LEFT JOIN n30 ON n30.product_id = p.id
  WHERE dd.is_deal AND dd.discount >= ${MIN_DISCOUNT} AND s.since > ${NOW} - INTERVAL '${RECENT_DROP_DAYS} days'
  ORDER BY (med.median_90d - p.current_price::FLOAT8) / med.median_90d DESC NULLS LAST, dd.discount DESC, p.id
  LIMIT $limit`
}

/** Each (store domain, store) in scope with one sample link, for programme resolution.  */
export const storesSql = (db: DealSql, filters: Filters) => `
  SELECT store_domain, store, min(link) AS link
  FROM products
  WHERE store_domain IS NOT NULL AND ${productScope(db, "products", filters)}
  GROUP BY store_domain, store`

/**
 * Unique human clicks and counted conversions (pending or approved, by the
 * rule all readers share: infra/conversionCounting.ts) per programme over
 * CONVERSION_WINDOW_DAYS (repeat clicks would dilute the rate).
 */
export const conversionStatsSql = (db: DealSql) => `
  WITH ids AS (SELECT DISTINCT program_id FROM ${db.jsonList("$program_ids")} AS listed(program_id)),
  links AS (SELECT id, program_id FROM tracking_links WHERE program_id IN (SELECT program_id FROM ids)),
  k AS (
    SELECT l.program_id, count(*)::INTEGER AS clicks FROM clicks c JOIN links l ON l.id = c.tracking_id
    WHERE NOT c.is_bot AND c.is_unique
      AND c.clicked_at > ${NOW} - INTERVAL '${CONVERSION_WINDOW_DAYS} days' AND c.clicked_at <= ${NOW}
    GROUP BY l.program_id
  ),
  v AS (
    SELECT l.program_id, count(*)::INTEGER AS conversions FROM conversions c JOIN links l ON l.id = c.tracking_id
    WHERE ${countedConversionSql("c.")} AND c.event_at > ${NOW} - INTERVAL '${CONVERSION_WINDOW_DAYS} days'
      AND c.event_at <= ${NOW}
    GROUP BY l.program_id
  )
  SELECT ids.program_id, coalesce(k.clicks, 0) AS clicks, coalesce(v.conversions, 0) AS conversions,
    (SELECT min(pg.commission_currency) FROM programs pg WHERE pg.id = ids.program_id) AS commission_currency
  FROM ids LEFT JOIN k USING (program_id) LEFT JOIN v USING (program_id)`

/**
 * High commission, one batch ($offset, $limit) in rank order. The per-store earnings formula comes as
 * parallel lists (store domain, store, per-price-unit, fixed, programme id).
 */
export const highCommissionSql = (db: DealSql, filters: Filters) => `
  WITH f AS (
    SELECT * FROM ${db.jsonRows("$formulas", { store_domain: "VARCHAR", store: "VARCHAR", per_unit: "DOUBLE", fixed: "DOUBLE", program_id: "VARCHAR" })} formulas
  )
  SELECT pr.id, pr.link, pr.current_price::FLOAT8 AS price, f.program_id,
    pr.current_price::FLOAT8 * f.per_unit + f.fixed AS earnings
  FROM products pr JOIN f ON f.store_domain = pr.store_domain AND f.store = pr.store
  WHERE ${productScope(db, "pr", filters)}
    ${filters.minDiscount > 0 ? `AND ${mayHaveDiscount("pr", "")}` : ""}
  ORDER BY earnings DESC, pr.id
  LIMIT $limit OFFSET $offset`

/** Which of $ids have a trusted discount of at least $min_discount (the exact rule of deal.ts), and its kind. */
export const discountAtLeastSql = (db: DealSql) => `
  WITH ${productFactsCtes(`WHERE id IN ${db.jsonList("$ids")}`)}, ${discountCte(db)}
  SELECT id, discount::INTEGER AS discount, kind FROM d WHERE discount >= ${MIN_DISCOUNT}`

/** The catalog rows (with price facts) of the products a response shows.  */
export const productRowsSql = (db: DealSql) => `
  WITH ${productFactsCtes(`WHERE id IN ${db.jsonList("$ids")}`)}
  SELECT ${PRODUCT_ROW_COLUMNS} FROM p ${PRODUCT_FACT_JOINS}`

/** Replaces `$name` markers with positional parameters, in order of first use, and lists their values. */
export const bind = (sql: string, values: Readonly<Record<string, SqlValue>>) => {
  const names: Array<string> = []
  const text = sql.replace(/\$([a-z][a-z0-9_]*)/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`no value for SQL parameter $${name}`)
    if (!names.includes(name)) names.push(name)
    return `$${names.indexOf(name) + 1}`
  })
  return { sql: text, params: names.map((name) => values[name]) }
}
