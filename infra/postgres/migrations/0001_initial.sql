-- The whole DuckDB schema of infra/schema.ts (its versions 1 to 4) in
-- PostgreSQL: same tables and columns. DECIMAL(p,s) -> numeric(p,s),
-- VARCHAR[] -> text[], JSON -> json (kept as the text it was given, which
-- the seam reads back as a string, as DuckDB does), TIMESTAMPTZ -> timestamptz.
-- Catalog tables carry no primary key, as on DuckDB: pipelines replace a
-- feed's rows in bulk (delete + insert) inside one transaction.

-- ---- catalog (written only by pipelines) ----------------------------------
CREATE TABLE networks (
  id text NOT NULL,
  name text NOT NULL,
  status text NOT NULL,
  website text,
  click_hosts text[] NOT NULL,
  deep_link_template text,
  subid_param text,
  unwrap_params text[] NOT NULL,
  confidence text NOT NULL,
  successor_id text,
  regions text[] NOT NULL,
  account_params json NOT NULL,
  feed text NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE programs (
  id text NOT NULL,
  network_id text NOT NULL,
  merchant_id text NOT NULL,
  name text NOT NULL,
  domains text[] NOT NULL,
  country text,
  category text,
  commission_type text NOT NULL,
  commission_rate numeric(18,4) NOT NULL,
  commission_currency text,
  cookie_days integer,
  status text NOT NULL,
  deep_link_allowed boolean NOT NULL,
  epc numeric(18,4),
  link_params json NOT NULL,
  feed text NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE program_domains (domain text NOT NULL, program_id text NOT NULL, feed text NOT NULL);

CREATE TABLE products (
  id text NOT NULL,
  feed text NOT NULL,
  item_id text NOT NULL,
  title text NOT NULL,
  description text,
  link text NOT NULL,
  image_link text,
  brand text,
  gtin text,
  mpn text,
  category text,
  product_type text,
  google_product_category text,
  store text NOT NULL,
  store_domain text,
  currency text NOT NULL,
  price numeric(18,4) NOT NULL,
  sale_price numeric(18,4),
  current_price numeric(18,4) NOT NULL,
  feed_was_price numeric(18,4),
  availability text NOT NULL,
  condition text,
  content_hash text NOT NULL,
  first_seen_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  color text,
  size text,
  item_group_id text
);

CREATE TABLE price_history (
  product_id text NOT NULL,
  observed_at timestamptz NOT NULL,
  price numeric(18,4) NOT NULL,
  currency text NOT NULL,
  run_id text
);
CREATE INDEX price_history_product ON price_history (product_id);

CREATE TABLE search_sync_state (
  index_name text NOT NULL,
  id text NOT NULL,
  feed text,
  hash text NOT NULL
);

-- ---- pipelines --------------------------------------------------------------
CREATE TABLE pipeline_runs (
  id text PRIMARY KEY,
  feed text NOT NULL,
  kind text NOT NULL,
  trigger text NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  status text NOT NULL,
  rows_read bigint NOT NULL DEFAULT 0,
  rows_loaded bigint NOT NULL DEFAULT 0,
  rows_rejected bigint NOT NULL DEFAULT 0,
  documents_upserted bigint NOT NULL DEFAULT 0,
  documents_deleted bigint NOT NULL DEFAULT 0,
  error text
);

CREATE TABLE rejected_rows (
  run_id text NOT NULL,
  feed text NOT NULL,
  line bigint NOT NULL,
  reason text NOT NULL,
  raw text
);

CREATE TABLE feed_state (
  feed text PRIMARY KEY,
  etag text,
  last_modified text,
  content_sha256 text,
  last_success_run_id text,
  last_success_at timestamptz
);

-- ---- link service state -----------------------------------------------------
CREATE SEQUENCE partner_ids START 1;
CREATE TABLE partners (
  id integer PRIMARY KEY DEFAULT nextval('partner_ids'),
  name text NOT NULL,
  email text NOT NULL,
  app_url text,
  description text,
  tag text NOT NULL UNIQUE,
  key_hash text NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  revenue_share numeric(6,4) NOT NULL DEFAULT 0.7000,
  created_at timestamptz NOT NULL
);

CREATE TABLE tracking_links (
  id text PRIMARY KEY,
  partner_id integer,
  tag text NOT NULL,
  original_url text NOT NULL,
  normalized_url text NOT NULL,
  destination_url text NOT NULL,
  affiliate_url text NOT NULL,
  program_id text,
  network_id text,
  product_id text,
  source text NOT NULL,
  created_at timestamptz NOT NULL,
  unaffiliated_at timestamptz
);
CREATE UNIQUE INDEX tracking_links_dedup ON tracking_links (COALESCE(partner_id, 0), tag, normalized_url);

CREATE TABLE link_program_changes (
  tracking_id text NOT NULL,
  changed_at timestamptz NOT NULL,
  old_program_id text,
  old_network_id text,
  new_program_id text,
  new_network_id text,
  reason text NOT NULL,
  old_affiliate_url text NOT NULL,
  new_affiliate_url text NOT NULL
);

-- Clicks: one partition per UTC day of clicked_at, so retention drops whole
-- days; the DEFAULT partition takes any click whose day has no partition yet
-- (never refused). create_click_partitions() makes the coming days' ones.
CREATE TABLE clicks (
  clicked_at timestamptz NOT NULL,
  tracking_id text NOT NULL,
  partner_id integer,
  tag text NOT NULL,
  ip_hash text NOT NULL,
  user_agent text,
  referrer text,
  is_bot boolean NOT NULL,
  bot_reason text,
  is_unique boolean NOT NULL
) PARTITION BY RANGE (clicked_at);
CREATE TABLE clicks_default PARTITION OF clicks DEFAULT;

-- Partitions clicks_YYYYMMDD for first_day .. first_day + days (UTC days).
-- Clicks of such a day already in the default partition move into the new
-- partition first, since attaching a range the default holds rows of fails.
CREATE FUNCTION create_click_partitions(first_day date, days integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  day date;
  partition_name text;
  lower_bound timestamptz;
  upper_bound timestamptz;
BEGIN
  FOR i IN 0..days LOOP
    day := first_day + i;
    partition_name := 'clicks_' || to_char(day, 'YYYYMMDD');
    CONTINUE WHEN to_regclass(partition_name) IS NOT NULL;
    lower_bound := day::timestamp AT TIME ZONE 'UTC';
    upper_bound := (day + 1)::timestamp AT TIME ZONE 'UTC';
    EXECUTE format('CREATE TABLE %I (LIKE clicks INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', partition_name);
    EXECUTE format(
      'WITH moved AS (DELETE FROM clicks_default WHERE clicked_at >= %L AND clicked_at < %L RETURNING *)
       INSERT INTO %I SELECT * FROM moved', lower_bound, upper_bound, partition_name);
    EXECUTE format('ALTER TABLE clicks ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
      partition_name, lower_bound, upper_bound);
  END LOOP;
END
$$;

-- The click journal's last segment stored in clicks (clicks/ClickJournal.ts).
CREATE TABLE click_journal_state (applied_seq bigint NOT NULL);
INSERT INTO click_journal_state VALUES (0);

-- ---- conversions ------------------------------------------------------------
CREATE TABLE conversions (
  id text PRIMARY KEY,
  network_id text NOT NULL,
  network_tx_id text NOT NULL,
  click_ref text,
  tracking_id text,
  partner_id integer,
  tag text,
  currency text NOT NULL,
  order_amount numeric(18,4) NOT NULL,
  commission numeric(18,4) NOT NULL,
  reporting_currency text NOT NULL,
  commission_reporting numeric(18,4) NOT NULL,
  order_amount_reporting numeric(18,4) NOT NULL,
  fx_rate numeric(18,8) NOT NULL,
  revenue_share numeric(6,4),
  partner_share numeric(18,4) NOT NULL,
  platform_share numeric(18,4) NOT NULL,
  status text NOT NULL,
  event_at timestamptz NOT NULL,
  network_updated_at timestamptz,
  source text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  attributed_at timestamptz
);

CREATE TABLE conversion_events (
  conversion_id text NOT NULL,
  previous_status text,
  status text NOT NULL,
  order_amount numeric(18,4) NOT NULL,
  commission numeric(18,4) NOT NULL,
  seen_at timestamptz NOT NULL,
  source text NOT NULL
);
