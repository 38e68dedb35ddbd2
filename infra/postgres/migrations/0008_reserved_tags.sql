-- Partners holding a tag the service itself uses (domain/links/serviceTags.ts
-- RESERVED_TAGS when this was written) move to `<tag>_<partner id>`: the
-- underscore never comes out of registration (tagBaseFromName), so the new tag
-- is free. Their links move with them (same tracking ids, so every published
-- /t/{id} keeps redirecting and crediting them); a feed link with the old tag
-- is the service's default link from now on. The DuckDB twin is migration 9
-- in infra/schema.ts.
UPDATE tracking_links t SET tag = lower(p.tag) || '_' || p.id
FROM partners p
WHERE t.partner_id = p.id AND t.tag = p.tag
  AND lower(p.tag) IN ('api', 'ai-search', 'web', 'mcp', 'anon', 'partner', 'admin');

UPDATE partners SET tag = lower(tag) || '_' || id
WHERE lower(tag) IN ('api', 'ai-search', 'web', 'mcp', 'anon', 'partner', 'admin');
