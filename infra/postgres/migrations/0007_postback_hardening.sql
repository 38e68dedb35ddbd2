-- Postbacks that cannot be forged, replayed or credited to another network's
-- link. The DuckDB twin is the postback-hardening entry in infra/schema.ts.

-- Why a conversion has no tracking link: no_click_ref, unknown_link, or
-- network_mismatch (the link is on another network than the one reporting
-- it). NULL while attributed. Rows stored before this version get the reason
-- their click reference gives.
ALTER TABLE conversions ADD COLUMN IF NOT EXISTS unattributed_reason text;
UPDATE conversions
SET unattributed_reason = CASE WHEN click_ref IS NULL THEN 'no_click_ref' ELSE 'unknown_link' END
WHERE tracking_id IS NULL AND unattributed_reason IS NULL;

-- Every accepted postback signature until its X-Timestamp leaves the replay
-- window (expires_at), so the same signed request is refused on any replica.
CREATE TABLE IF NOT EXISTS postback_signatures (
  network_id text NOT NULL,
  signature text NOT NULL,               -- lower-case hex HMAC-SHA256
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (network_id, signature)
);
CREATE INDEX IF NOT EXISTS postback_signatures_expiry ON postback_signatures (expires_at);
