import { Effect } from "effect"
import type { DatabaseError, Tx } from "./Store.ts"

// The whole DuckDB schema. Migrations are append-only: a deployed database
// has run every statement up to its `schema_version`, so change a table by
// adding a new entry, never by editing an old one.
//
// Money is DECIMAL(18,4) (exact), never DOUBLE. Times are TIMESTAMPTZ in UTC.
// Catalog tables carry no PRIMARY KEY: pipelines replace a feed's rows in
// bulk inside one transaction (delete + insert), which DuckDB's eager unique
// checks would slow down or reject; ids are unique by construction there.
export const migrations: ReadonlyArray<ReadonlyArray<string>> = [
  [
    // ---- catalog (written only by pipelines) --------------------------------
    `CREATE TABLE networks (
      id VARCHAR NOT NULL,                  -- slug, e.g. 'awin'
      name VARCHAR NOT NULL,
      status VARCHAR NOT NULL,              -- active | paused | closed
      website VARCHAR,
      click_hosts VARCHAR[] NOT NULL,       -- hosts whose links we recognise (and unwrap)
      deep_link_template VARCHAR,           -- e.g. https://www.awin1.com/cread.php?awinmid={mid}&...&clickref={sub}&ued={enc(url)}
      subid_param VARCHAR,                  -- the click-reference parameter carrying our tracking id
      unwrap_params VARCHAR[] NOT NULL,     -- query parameters that carry the destination URL
      confidence VARCHAR NOT NULL,          -- H | M | U (how sure we are of the template)
      successor_id VARCHAR,                 -- where a closed network's programmes went (ShareASale -> awin)
      regions VARCHAR[] NOT NULL,
      account_params JSON NOT NULL,         -- our publisher ids on the network (pubId, affId, ...), used by the template
      feed VARCHAR NOT NULL,
      updated_at TIMESTAMPTZ NOT NULL
    )`,
    `CREATE TABLE programs (
      id VARCHAR NOT NULL,                  -- '{network_id}:{merchant_id}'
      network_id VARCHAR NOT NULL,
      merchant_id VARCHAR NOT NULL,
      name VARCHAR NOT NULL,
      domains VARCHAR[] NOT NULL,           -- lower-case hosts, e.g. ['amazon.co.uk'] or ['shop.example.com']
      country VARCHAR,                      -- ISO 3166-1 alpha-2, or NULL for global
      category VARCHAR,
      commission_type VARCHAR NOT NULL,     -- CPS | CPA | CPL | CPC
      commission_rate DECIMAL(18,4) NOT NULL, -- percent for CPS, amount per action otherwise
      commission_currency VARCHAR,          -- for fixed amounts
      cookie_days INTEGER,
      status VARCHAR NOT NULL,              -- active | paused | closed | pending
      deep_link_allowed BOOLEAN NOT NULL,
      epc DECIMAL(18,4),                    -- earnings per 100 clicks reported by the network, if any
      link_params JSON NOT NULL,            -- values the network's deep-link template needs (mid, camref, ...)
      feed VARCHAR NOT NULL,
      updated_at TIMESTAMPTZ NOT NULL
    )`,
    // One row per (domain, programme): the matcher's lookup table.
    `CREATE TABLE program_domains (domain VARCHAR NOT NULL, program_id VARCHAR NOT NULL, feed VARCHAR NOT NULL)`,
    `CREATE TABLE products (
      id VARCHAR NOT NULL,                  -- '{feed}:{item_id}', stable across runs
      feed VARCHAR NOT NULL,
      item_id VARCHAR NOT NULL,
      title VARCHAR NOT NULL,
      description VARCHAR,
      link VARCHAR NOT NULL,                -- the merchant's product page
      image_link VARCHAR,
      brand VARCHAR,
      gtin VARCHAR,
      mpn VARCHAR,
      category VARCHAR,                     -- top-level human category, e.g. 'Electronics'
      product_type VARCHAR,                 -- merchant path, e.g. 'Electronics > Audio > Headphones'
      google_product_category VARCHAR,
      store VARCHAR NOT NULL,               -- merchant display name
      store_domain VARCHAR,                 -- host of link, for programme matching
      currency VARCHAR NOT NULL,
      price DECIMAL(18,4) NOT NULL,         -- the regular price from the feed
      sale_price DECIMAL(18,4),             -- the feed's sale price, when on sale
      current_price DECIMAL(18,4) NOT NULL, -- what a shopper pays now: sale_price if effective, else price
      feed_was_price DECIMAL(18,4),         -- a 'was'/RRP claim from the feed: untrusted, shown only as context
      availability VARCHAR NOT NULL,        -- in_stock | out_of_stock | preorder | backorder
      condition VARCHAR,
      content_hash VARCHAR NOT NULL,        -- hash of the indexed fields: drives the Meilisearch delta
      first_seen_at TIMESTAMPTZ NOT NULL,
      updated_at TIMESTAMPTZ NOT NULL
    )`,
    // No index on products.feed: a feed's rows are written together, so DuckDB's
    // zone maps already prune by feed, and an ART index made each 1M-row feed
    // replacement several times slower (measured by bench:ingest).
    // Every observed price change (one row when a product's current price differs from its last row).
    `CREATE TABLE price_history (
      product_id VARCHAR NOT NULL,
      observed_at TIMESTAMPTZ NOT NULL,
      price DECIMAL(18,4) NOT NULL,         -- current_price at that time
      currency VARCHAR NOT NULL,
      run_id VARCHAR
    )`,
    `CREATE INDEX price_history_product ON price_history (product_id)`,
    // What each Meilisearch index last received (document id -> hash of the sent
    // document), so a sync sends only changes, also after a restart.
    `CREATE TABLE search_sync_state (
      index_name VARCHAR NOT NULL,          -- logical name: 'products' | 'programs' | '{name}:settings'
      id VARCHAR NOT NULL,                  -- catalog id (products.id, programs.id)
      feed VARCHAR,                         -- products: the feed, so one feed syncs alone
      hash VARCHAR NOT NULL
    )`,

    // ---- pipelines -----------------------------------------------------------
    `CREATE TABLE pipeline_runs (
      id VARCHAR PRIMARY KEY,
      feed VARCHAR NOT NULL,
      kind VARCHAR NOT NULL,                -- networks | programs | products | conversions
      trigger VARCHAR NOT NULL,             -- startup | schedule | manual
      started_at TIMESTAMPTZ NOT NULL,
      finished_at TIMESTAMPTZ,
      status VARCHAR NOT NULL,              -- running | succeeded | failed | skipped | interrupted
      rows_read BIGINT NOT NULL DEFAULT 0,
      rows_loaded BIGINT NOT NULL DEFAULT 0,
      rows_rejected BIGINT NOT NULL DEFAULT 0,
      documents_upserted BIGINT NOT NULL DEFAULT 0,
      documents_deleted BIGINT NOT NULL DEFAULT 0,
      error VARCHAR
    )`,
    `CREATE TABLE rejected_rows (
      run_id VARCHAR NOT NULL,
      feed VARCHAR NOT NULL,
      line BIGINT NOT NULL,                 -- 1-based line (CSV/TSV, header is line 1) or item index (XML)
      reason VARCHAR NOT NULL,
      raw VARCHAR                           -- the offending record, truncated
    )`,
    // What we know of each source, for conditional GET and unchanged-feed skips.
    `CREATE TABLE feed_state (
      feed VARCHAR PRIMARY KEY,
      etag VARCHAR,
      last_modified VARCHAR,
      content_sha256 VARCHAR,
      last_success_run_id VARCHAR,
      last_success_at TIMESTAMPTZ
    )`,

    // ---- link service state -------------------------------------------------
    `CREATE SEQUENCE partner_ids START 1`,
    `CREATE TABLE partners (
      id INTEGER PRIMARY KEY DEFAULT nextval('partner_ids'),
      name VARCHAR NOT NULL,
      email VARCHAR NOT NULL,
      app_url VARCHAR,
      description VARCHAR,
      tag VARCHAR NOT NULL UNIQUE,
      key_hash VARCHAR NOT NULL UNIQUE,     -- sha256 of the API key; the key itself is never stored
      key_prefix VARCHAR NOT NULL,          -- first characters, to help a partner recognise a key
      revenue_share DECIMAL(6,4) NOT NULL DEFAULT 0.7000, -- partner's share of commission
      created_at TIMESTAMPTZ NOT NULL
    )`,
    `CREATE TABLE tracking_links (
      id VARCHAR PRIMARY KEY,               -- the tracking id in /t/{id}
      partner_id INTEGER,                   -- NULL: anonymous
      tag VARCHAR NOT NULL,                 -- partner tag, or the feed's tag parameter
      original_url VARCHAR NOT NULL,        -- exactly as submitted
      normalized_url VARCHAR NOT NULL,      -- unwrapped, stripped, normalised: the dedup key
      destination_url VARCHAR NOT NULL,     -- where the merchant page is
      affiliate_url VARCHAR NOT NULL,       -- where /t/{id} redirects
      program_id VARCHAR,
      network_id VARCHAR,
      product_id VARCHAR,                   -- set for links made by the discovery feed
      source VARCHAR NOT NULL,              -- match | feed
      created_at TIMESTAMPTZ NOT NULL
    )`,
    `CREATE UNIQUE INDEX tracking_links_dedup ON tracking_links (COALESCE(partner_id, 0), tag, normalized_url)`,
    `CREATE TABLE clicks (
      clicked_at TIMESTAMPTZ NOT NULL,
      tracking_id VARCHAR NOT NULL,
      partner_id INTEGER,
      tag VARCHAR NOT NULL,
      ip_hash VARCHAR NOT NULL,             -- HMAC of the IP with a daily salt; raw IPs are never stored
      user_agent VARCHAR,
      referrer VARCHAR,
      is_bot BOOLEAN NOT NULL,
      bot_reason VARCHAR,
      is_unique BOOLEAN NOT NULL            -- first click of this visitor on this link within an hour
    )`,

    // ---- conversions ---------------------------------------------------------
    `CREATE TABLE conversions (
      id VARCHAR PRIMARY KEY,               -- '{network_id}:{network_tx_id}'
      network_id VARCHAR NOT NULL,
      network_tx_id VARCHAR NOT NULL,
      click_ref VARCHAR,                    -- the sub-id value the network reported
      tracking_id VARCHAR,                  -- NULL: unattributed
      partner_id INTEGER,
      tag VARCHAR,
      currency VARCHAR NOT NULL,
      order_amount DECIMAL(18,4) NOT NULL,
      commission DECIMAL(18,4) NOT NULL,
      reporting_currency VARCHAR NOT NULL,
      commission_reporting DECIMAL(18,4) NOT NULL, -- commission in reporting currency (rounded half-even to its minor unit)
      order_amount_reporting DECIMAL(18,4) NOT NULL,
      fx_rate DECIMAL(18,8) NOT NULL,       -- reporting units per unit of currency (for display; computed exactly)
      revenue_share DECIMAL(6,4),           -- partner share applied; NULL: no partner (platform keeps all)
      partner_share DECIMAL(18,4) NOT NULL, -- in reporting currency; 0 when declined/reversed
      platform_share DECIMAL(18,4) NOT NULL, -- commission_reporting - partner_share exactly; 0 when declined/reversed
      status VARCHAR NOT NULL,              -- pending | approved | declined | reversed (only pending/approved earn and count)
      event_at TIMESTAMPTZ NOT NULL,
      network_updated_at TIMESTAMPTZ,
      source VARCHAR NOT NULL,              -- report feed name or 'postback'
      created_at TIMESTAMPTZ NOT NULL,
      updated_at TIMESTAMPTZ NOT NULL
    )`,
    `CREATE TABLE conversion_events (       -- every status change, for audit
      conversion_id VARCHAR NOT NULL,
      previous_status VARCHAR,              -- NULL: first sighting
      status VARCHAR NOT NULL,
      order_amount DECIMAL(18,4) NOT NULL,
      commission DECIMAL(18,4) NOT NULL,    -- original currency
      seen_at TIMESTAMPTZ NOT NULL,
      source VARCHAR NOT NULL
    )`
  ],
  [
    // 2: variant attributes, so colour/size variants of one model group as
    // one product in search (readModel/documents.ts modelKey).
    `ALTER TABLE products ADD COLUMN color VARCHAR`,
    `ALTER TABLE products ADD COLUMN size VARCHAR`,
    `ALTER TABLE products ADD COLUMN item_group_id VARCHAR`,
    // Rows loaded before this version have no variant values, and an
    // unchanged feed file would be skipped: forget what product feeds last
    // served so their next run reloads them.
    `UPDATE feed_state SET etag = NULL, last_modified = NULL, content_sha256 = NULL
     WHERE feed IN (SELECT DISTINCT feed FROM products)`
  ],
  [
    // 3: links follow the catalog, conversions remember when they were attributed.
    // A link whose programme closed, paused or moved network is re-resolved
    // (links/LinkReresolver.ts); without an active programme it
    // redirects to its plain destination, unaffiliated since this time.
    // IF NOT EXISTS: a database taken back to an older version by hand (tests do) upgrades again cleanly.
    `ALTER TABLE tracking_links ADD COLUMN IF NOT EXISTS unaffiliated_at TIMESTAMPTZ`,
    `CREATE TABLE IF NOT EXISTS link_program_changes (    -- every re-resolution of a stored link, for audit and the partner
      tracking_id VARCHAR NOT NULL,
      changed_at TIMESTAMPTZ NOT NULL,
      old_program_id VARCHAR,               -- NULL: the link was unaffiliated
      old_network_id VARCHAR,
      new_program_id VARCHAR,               -- NULL: no active programme, the link is now unaffiliated
      new_network_id VARCHAR,
      reason VARCHAR NOT NULL,              -- program_closed | program_paused | program_missing | network_closed | ...
      old_affiliate_url VARCHAR NOT NULL,
      new_affiliate_url VARCHAR NOT NULL
    )`,
    // When the conversion was attributed to its link; later than created_at
    // means it arrived before its link was known here ("late" revenue).
    `ALTER TABLE conversions ADD COLUMN IF NOT EXISTS attributed_at TIMESTAMPTZ`,
    `UPDATE conversions SET attributed_at = created_at WHERE tracking_id IS NOT NULL AND attributed_at IS NULL`
  ],
  [
    // 4: the click journal's last segment stored in clicks (clicks/ClickJournal.ts):
    // updated in the same transaction as the insert, so a replay after a
    // crash never stores a segment twice.
    `CREATE TABLE IF NOT EXISTS click_journal_state (applied_seq BIGINT NOT NULL)`,
    `INSERT INTO click_journal_state SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM click_journal_state)`
  ],
  [
    // 5: the catalog's version, bumped in the transaction of every catalog change
    // (infra/CatalogVersion.ts), so other processes notice it with one cheap read.
    // The PostgreSQL twin is infra/postgres/migrations/0002_catalog_version.sql.
    `CREATE TABLE IF NOT EXISTS catalog_version (
      id INTEGER PRIMARY KEY,               -- always 1: one row
      version BIGINT NOT NULL,
      changed_at TIMESTAMPTZ NOT NULL
    )`,
    `INSERT INTO catalog_version SELECT 1, 0, current_timestamp WHERE NOT EXISTS (SELECT 1 FROM catalog_version)`
  ],
  [
    // 6: a product's first price observation lives in its own row of products
    // (first_price, first_currency, at first_seen_at) rather than in a row of
    // price_history: writing 1M history rows and their index entries cost
    // ~15% of a new feed's load. ProductLoader moves it into price_history
    // when the product vanishes. NULL: the first observation is in
    // price_history already (rows loaded before this version, fixtures).
    `ALTER TABLE products ADD COLUMN first_price DECIMAL(18,4)`,
    `ALTER TABLE products ADD COLUMN first_currency VARCHAR`,
    // Every price observation, for the readers of price history (deals,
    // landing pages, the search documents' price facts). The PostgreSQL twin
    // is infra/postgres/migrations/0006_first_price_in_products.sql.
    `CREATE VIEW price_observations AS
      SELECT product_id, observed_at, price, currency FROM price_history
      UNION ALL
      SELECT id, first_seen_at, first_price, first_currency FROM products WHERE first_price IS NOT NULL`
  ],
  [
    // 7: corrections a network reports as records of their own (CJ: original false,
    // originalActionId, negative amounts), kept once each: the ledger moves the
    // original conversion's amounts by their sum (conversions/ConversionCorrections.ts).
    // The PostgreSQL twin is infra/postgres/migrations/0010_conversion_corrections.sql.
    `CREATE TABLE IF NOT EXISTS conversion_corrections (
      id VARCHAR PRIMARY KEY,               -- '{network}:{the correction's own id}'
      conversion_id VARCHAR NOT NULL,       -- '{network}:{the original's id}'
      currency VARCHAR NOT NULL,
      order_amount DECIMAL(18,4) NOT NULL,  -- the change, usually negative
      commission DECIMAL(18,4) NOT NULL,
      status VARCHAR NOT NULL,
      reason VARCHAR,
      event_at TIMESTAMPTZ NOT NULL,
      network_updated_at TIMESTAMPTZ,
      source VARCHAR NOT NULL,
      seen_at TIMESTAMPTZ NOT NULL
    )`,
    `CREATE INDEX IF NOT EXISTS conversion_corrections_conversion ON conversion_corrections (conversion_id)`
  ],
  [
    // 8: postback hardening. The PostgreSQL twin is
    // infra/postgres/migrations/0007_postback_hardening.sql.
    // Why a conversion has no tracking link: no_click_ref, unknown_link, or
    // network_mismatch (the link is on another network than the one
    // reporting it); NULL while attributed.
    `ALTER TABLE conversions ADD COLUMN IF NOT EXISTS unattributed_reason VARCHAR`,
    `UPDATE conversions
     SET unattributed_reason = CASE WHEN click_ref IS NULL THEN 'no_click_ref' ELSE 'unknown_link' END
     WHERE tracking_id IS NULL AND unattributed_reason IS NULL`,
    // Every accepted postback signature until its X-Timestamp leaves the
    // replay window, so the same signed request is refused a second time.
    `CREATE TABLE IF NOT EXISTS postback_signatures (
      network_id VARCHAR NOT NULL,
      signature VARCHAR NOT NULL,           -- lower-case hex HMAC-SHA256
      expires_at TIMESTAMPTZ NOT NULL,
      PRIMARY KEY (network_id, signature)
    )`
  ],
  [
    // 9: partners holding a tag the service itself uses (domain/links/serviceTags.ts
    // RESERVED_TAGS when this was written) move to `<tag>_<partner id>`: the
    // underscore never comes out of registration, so the new tag is free. Their
    // links move with them (same tracking ids: every published /t/{id} keeps
    // redirecting and crediting them); a feed link with the old tag is the
    // service's default link from now on. The PostgreSQL twin is
    // infra/postgres/migrations/0008_reserved_tags.sql. (No ALTER of
    // partners here or later: DuckDB 1.5 cannot replay the WAL of an ALTER of a
    // table whose default calls nextval() after a crash, so the file would not
    // open again; a revoked key replaces its hash instead, partners/Partners.ts.)
    `UPDATE tracking_links SET tag = lower(p.tag) || '_' || CAST(p.id AS VARCHAR)
     FROM partners p
     WHERE tracking_links.partner_id = p.id AND tracking_links.tag = p.tag
       AND lower(p.tag) IN ('api', 'ai-search', 'web', 'mcp', 'anon', 'partner', 'admin')`,
    `UPDATE partners SET tag = lower(tag) || '_' || CAST(id AS VARCHAR)
     WHERE lower(tag) IN ('api', 'ai-search', 'web', 'mcp', 'anon', 'partner', 'admin')`
  ],
  [
    // 10: adjustments, the money a correction, an amended amount, a reversal or a
    // reinstatement moved on a conversion already credited, as the ledger wrote
    // it (conversions/ConversionAdjustments.ts): what partners/me shows on the
    // day it arrived. The PostgreSQL twin is infra/postgres/migrations/0013_reconciliation.sql.
    `CREATE TABLE IF NOT EXISTS conversion_adjustments (
      conversion_id VARCHAR NOT NULL,
      network_id VARCHAR NOT NULL,
      partner_id INTEGER,                   -- NULL: unattributed (the platform's money moved)
      tracking_id VARCHAR,
      kind VARCHAR NOT NULL,                -- correction | amendment | reversal | reinstatement
      reason VARCHAR,                       -- the network's correction reason, when it gives one
      previous_status VARCHAR NOT NULL,
      status VARCHAR NOT NULL,
      reporting_currency VARCHAR NOT NULL,
      commission_change DECIMAL(18,4) NOT NULL,     -- reporting currency
      partner_share_change DECIMAL(18,4) NOT NULL,
      platform_share_change DECIMAL(18,4) NOT NULL,
      event_at TIMESTAMPTZ NOT NULL,        -- the sale's
      arrived_at TIMESTAMPTZ NOT NULL,      -- when the change reached the ledger
      source VARCHAR NOT NULL
    )`,
    `CREATE INDEX IF NOT EXISTS conversion_adjustments_partner ON conversion_adjustments (partner_id, arrived_at)`
  ],
  [
    // 11: reference exchange rates (kind exchange_rates: the ECB's daily euro
    // rates), replaced whole by each run of their feed; search orders prices
    // of several currencies by them (domain/money/exchangeRates.ts). The
    // PostgreSQL twin is infra/postgres/migrations/0014_markets.sql.
    `CREATE TABLE IF NOT EXISTS exchange_rates (
      currency VARCHAR NOT NULL,            -- ISO 4217
      per_eur DECIMAL(18,8) NOT NULL,       -- units of the currency per 1 EUR
      as_of DATE NOT NULL,                  -- the day the rates are for
      feed VARCHAR NOT NULL,
      run_id VARCHAR NOT NULL,
      PRIMARY KEY (feed, currency)
    )`
  ],
  [
    // 12: who a product is for (Google Merchant gender and age_group), so search
    // reads "for dad" or "for a 10 year old" against the products themselves.
    // The PostgreSQL twin is infra/postgres/migrations/0015_people.sql.
    `ALTER TABLE products ADD COLUMN IF NOT EXISTS gender VARCHAR`,
    `ALTER TABLE products ADD COLUMN IF NOT EXISTS age_group VARCHAR`,
    // Rows loaded before this version carry neither, and an unchanged feed
    // file would be skipped: forget what product feeds last served so their
    // next run reloads them.
    `UPDATE feed_state SET etag = NULL, last_modified = NULL, content_sha256 = NULL
     WHERE feed IN (SELECT DISTINCT feed FROM products)`
  ],
  [
    // 13: programme numbers: a stable integer per programme id, for clients of the
    // published interface that name a programme by an integer. A side table
    // filled at ingest (pipelines/catalog/CatalogLoaders.ts), never a sequence
    // default on programs: a programme keeps its number across re-ingests,
    // restarts and its absence from a feed. The PostgreSQL twin is
    // infra/postgres/migrations/0016_program_numbers.sql.
    `CREATE TABLE IF NOT EXISTS program_numbers (
      program_id VARCHAR PRIMARY KEY,
      number INTEGER NOT NULL UNIQUE
    )`,
    `INSERT INTO program_numbers
     SELECT id, CAST(row_number() OVER (ORDER BY id) AS INTEGER) FROM (SELECT DISTINCT id FROM programs) known`
  ],
  [
    // 14: link names/disabled/deleted and the partner dashboard's sessions, in side tables (no ALTER of a
    // table whose default calls nextval(), see 9). Twin: infra/postgres/migrations/0017_link_settings.sql.
    `CREATE TABLE IF NOT EXISTS link_settings (
      tracking_id VARCHAR PRIMARY KEY,
      partner_id INTEGER NOT NULL, name VARCHAR,
      disabled_at TIMESTAMPTZ,              -- set: /t/ answers 410 Gone, no click is counted
      deleted_at TIMESTAMPTZ,               -- set: as disabled, and no longer listed; its history stays in the stats
      updated_at TIMESTAMPTZ NOT NULL
    )`,
    `CREATE TABLE IF NOT EXISTS partner_sessions (
      token_hash VARCHAR PRIMARY KEY,       -- sha256 of the session cookie; the cookie itself is never stored
      partner_id INTEGER NOT NULL,
      key_hash VARCHAR NOT NULL,            -- the API key signed in with: a rotated or revoked key ends the session
      csrf_token VARCHAR NOT NULL,          -- every dashboard form carries it
      created_at TIMESTAMPTZ NOT NULL, expires_at TIMESTAMPTZ NOT NULL
    )`
  ],
  [
    // 15: where an offer sells (ISO 3166-1 alpha-2 codes, comma-separated, sorted):
    // Google Merchant shipping countries, else the feed definition's country,
    // else the country of the store's link domain or of its programme
    // (pipelines/products/ProductLoader.ts), so a market's answer holds only
    // offers sold in its country, not every offer priced in its currency.
    // Twin: infra/postgres/migrations/0018_markets2.sql.
    `ALTER TABLE products ADD COLUMN IF NOT EXISTS countries VARCHAR`,
    // rows loaded before this version carry none: product feeds reload on their next run
    `UPDATE feed_state SET etag = NULL, last_modified = NULL, content_sha256 = NULL
     WHERE feed IN (SELECT DISTINCT feed FROM products)`
  ],
  [
    // A link made for the market that chose its programme (a GB shopper's
    // nike.com link goes through Nike UK, a US shopper's through Nike US):
    // the market joins the dedup key, so each market gets its own link to the
    // same URL; NULL (every link before this version) serves all markets.
    // Twin: infra/postgres/migrations/0019_link_market.sql.
    `DROP INDEX IF EXISTS tracking_links_dedup`,
    `ALTER TABLE tracking_links ADD COLUMN IF NOT EXISTS market VARCHAR`,
    // (a new name: DuckDB cannot reuse a dropped index's name in the same transaction)
    `CREATE UNIQUE INDEX IF NOT EXISTS tracking_links_market_dedup
       ON tracking_links (COALESCE(partner_id, 0), tag, normalized_url, COALESCE(market, ''))`
  ]
]

export const migrate = (tx: Tx): Effect.Effect<void, DatabaseError> =>
  Effect.gen(function* () {
    yield* tx.run("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    const rows = yield* tx.query<{ version: number }>("SELECT max(version) AS version FROM schema_version")
    const current = rows[0]?.version ?? 0
    for (let version = current + 1; version <= migrations.length; version++) {
      yield* tx.run("BEGIN TRANSACTION")
      const exit = yield* Effect.exit(
        Effect.gen(function* () {
          for (const statement of migrations[version - 1]) yield* tx.run(statement)
          yield* tx.run("INSERT INTO schema_version VALUES ($1)", [version])
        })
      )
      yield* tx.run(exit._tag === "Success" ? "COMMIT" : "ROLLBACK")
      yield* exit
    }
  })
