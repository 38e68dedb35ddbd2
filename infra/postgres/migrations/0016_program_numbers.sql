-- Programme numbers: a stable integer per programme id, for clients of the
-- published interface that name a programme by an integer. Filled at ingest,
-- by the publish of a programmes feed in its own transaction
-- (pipelines/catalog/CatalogLoaders.ts); a programme keeps its number across
-- re-ingests and restarts. Existing programmes are numbered here.
-- DuckDB twin: the program_numbers entry of infra/schema.ts.
CREATE TABLE program_numbers (
  program_id text PRIMARY KEY,
  number integer NOT NULL UNIQUE
);
INSERT INTO program_numbers
SELECT id, CAST(row_number() OVER (ORDER BY id) AS integer) FROM (SELECT DISTINCT id FROM programs) known;
