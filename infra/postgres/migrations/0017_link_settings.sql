-- What a partner sets on a link (a name, disabled, deleted) and the partner
-- dashboard's sign-in sessions, shared by every replica. Side tables: the
-- link and partner tables stay as they are. A link without a row here is
-- active and unnamed. DuckDB twin: the link_settings / partner_sessions entry
-- of infra/schema.ts.
CREATE TABLE link_settings (
  tracking_id text PRIMARY KEY,
  partner_id integer NOT NULL,          -- the link's owner (only partners' links have settings)
  name text,                            -- the partner's own name for the link
  disabled_at timestamptz,              -- set: /t/ answers 410 Gone, no click is counted
  deleted_at timestamptz,               -- set: as disabled, and no longer listed; its history stays in the stats
  updated_at timestamptz NOT NULL
);

CREATE TABLE partner_sessions (
  token_hash text PRIMARY KEY,          -- sha256 of the session cookie; the cookie itself is never stored
  partner_id integer NOT NULL,
  key_hash text NOT NULL,               -- the API key signed in with: a rotated or revoked key ends the session
  csrf_token text NOT NULL,             -- every dashboard form carries it
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
