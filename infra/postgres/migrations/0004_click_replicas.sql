-- Clicks shared by replicas (clicks/PostgresJournalStore.ts, clicks/uniqueClicks.ts, clicks/sharedSalts.ts).

-- Each replica's click journal (its own DATA_DIR) and the last segment of it
-- stored in clicks, written in the transaction that stores the segment.
CREATE TABLE click_journal_replicas (
  replica_id text PRIMARY KEY,
  applied_seq bigint NOT NULL,
  updated_at timestamptz NOT NULL
);

-- The unique-click window of each visitor on each link: a click at or after
-- window_start_ms + 1 hour is unique and starts the next window. Rows whose
-- window has ended are deleted hourly (ClickMaintenance).
CREATE TABLE click_windows (
  tracking_id text NOT NULL,
  ip_hash text NOT NULL,
  window_start_ms bigint NOT NULL,
  PRIMARY KEY (tracking_id, ip_hash)
);

-- The visitor-hash salt of today and tomorrow (UTC), base64; older days are
-- deleted, so a past day's hashes cannot be recomputed from an IP.
CREATE TABLE click_salts (
  day date PRIMARY KEY,
  salt text NOT NULL
);
