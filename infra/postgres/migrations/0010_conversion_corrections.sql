-- Corrections a network reports as records of their own (CJ: original false,
-- originalActionId, negative amounts), kept once each: the ledger moves the
-- original conversion's amounts by their sum (conversions/ConversionCorrections.ts).
-- DuckDB twin: the conversion_corrections entry of infra/schema.ts.
CREATE TABLE conversion_corrections (
  id text PRIMARY KEY,                -- '{network}:{the correction's own id}'
  conversion_id text NOT NULL,        -- '{network}:{the original's id}'
  currency text NOT NULL,
  order_amount numeric(18,4) NOT NULL, -- the change, usually negative
  commission numeric(18,4) NOT NULL,
  status text NOT NULL,
  reason text,
  event_at timestamptz NOT NULL,
  network_updated_at timestamptz,
  source text NOT NULL,
  seen_at timestamptz NOT NULL
);
CREATE INDEX conversion_corrections_conversion ON conversion_corrections (conversion_id);
