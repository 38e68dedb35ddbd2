-- Reference exchange rates (kind exchange_rates: the ECB's daily euro rates),
-- replaced whole by each run of their feed; search orders prices of several
-- currencies by them (domain/money/exchangeRates.ts).
-- DuckDB twin: the exchange_rates entry of infra/schema.ts.
CREATE TABLE exchange_rates (
  currency text NOT NULL,             -- ISO 4217
  per_eur numeric(18,8) NOT NULL,     -- units of the currency per 1 EUR
  as_of date NOT NULL,                -- the day the rates are for
  feed text NOT NULL,
  run_id text NOT NULL,
  PRIMARY KEY (feed, currency)
);
