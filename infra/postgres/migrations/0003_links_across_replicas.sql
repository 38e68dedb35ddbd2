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
