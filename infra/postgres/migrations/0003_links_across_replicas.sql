-- Links and partners on PostgreSQL (links/, partners/).

-- Bumped by every transaction that reassigns links (links/LinkChangeVersion.ts);
-- each API replica polls it and drops its in-memory copies of links when it
-- moved. The row lock also serialises reassignments, so versions commit in order.
CREATE TABLE link_change_version (
  id integer PRIMARY KEY CHECK (id = 1),
  version bigint NOT NULL
);
INSERT INTO link_change_version VALUES (1, 0);

-- What DuckDB's zone maps gave for free: GET /api/v1/links (a partner's
-- links, newest first, and their total), each listed link's latest change,
-- and the re-resolution pass (links of given programmes, unaffiliated links).
CREATE INDEX tracking_links_partner_created ON tracking_links (partner_id, created_at DESC, id);
CREATE INDEX tracking_links_program ON tracking_links (program_id);
CREATE INDEX tracking_links_unaffiliated ON tracking_links (unaffiliated_at) WHERE unaffiliated_at IS NOT NULL;
CREATE INDEX link_program_changes_link ON link_program_changes (tracking_id, changed_at DESC);

-- Rate limits shared by every API replica (partners/SharedBuckets.ts): one
-- token bucket per key or IP. UNLOGGED: no WAL per request; a server crash
-- empties it, which only forgives recent use.
CREATE UNLOGGED TABLE rate_limit_buckets (
  key text PRIMARY KEY,                 -- 'key:<partner id>', 'ip:<address>', 'register:<address>'
  tokens double precision NOT NULL,
  at timestamptz NOT NULL,              -- when tokens was computed
  allowed boolean NOT NULL,             -- whether the last request got a token
  full_at timestamptz NOT NULL          -- when the bucket is full again (then pruned)
);
CREATE INDEX rate_limit_buckets_full_at ON rate_limit_buckets (full_at);
