-- Adjustments: the money a correction, an amended amount, a reversal or a
-- reinstatement moved on a conversion already credited, as the ledger wrote it
-- (conversions/ConversionAdjustments.ts): what partners/me shows on the day it
-- arrived. DuckDB twin: the conversion_adjustments entry of infra/schema.ts.
CREATE TABLE conversion_adjustments (
  conversion_id text NOT NULL,
  network_id text NOT NULL,
  partner_id integer,                   -- NULL: unattributed (the platform's money moved)
  tracking_id text,
  kind text NOT NULL,                   -- correction | amendment | reversal | reinstatement
  reason text,                          -- the network's correction reason, when it gives one
  previous_status text NOT NULL,
  status text NOT NULL,
  reporting_currency text NOT NULL,
  commission_change numeric(18,4) NOT NULL,     -- reporting currency
  partner_share_change numeric(18,4) NOT NULL,
  platform_share_change numeric(18,4) NOT NULL,
  event_at timestamptz NOT NULL,        -- the sale's
  arrived_at timestamptz NOT NULL,      -- when the change reached the ledger
  source text NOT NULL
);
CREATE INDEX conversion_adjustments_partner ON conversion_adjustments (partner_id, arrived_at);
