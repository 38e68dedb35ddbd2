import postgres from "postgres"

/**
 * Rows carry the JS values DuckDB's `getRowObjectsJS()` gives for the same
 * column types, so one row Schema decodes both: numeric -> number (DuckDB's
 * DECIMAL reads as a double), bigint -> bigint, json/jsonb -> its text,
 * timestamp without time zone -> a Date read as UTC (DuckDB's TIMESTAMP).
 * integer, double, boolean, text[], date and timestamptz keep postgres.js's
 * defaults (number, number, boolean, string[], Date at UTC midnight, Date).
 */
export const PG_TYPES = {
  bigint: { to: 20, from: [20], serialize: (value: bigint) => value.toString(), parse: (text: string) => BigInt(text) },
  numeric: {
    to: 1700,
    from: [1700],
    serialize: (value: number) => String(value),
    parse: (text: string) => Number(text)
  },
  json: {
    to: 114,
    from: [114, 3802],
    serialize: (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value)),
    parse: (text: string) => text
  },
  timestamp: {
    to: 1114,
    from: [1114],
    serialize: (value: Date) => value.toISOString(),
    parse: (text: string) => new Date(`${text.replace(" ", "T")}Z`)
  }
}

/**
 * A postgres.js pool with the type mapping above. Sessions run in UTC, so
 * `current_date` and timestamp text mean UTC days, as DuckDB's do.
 */
export const connectPostgres = (url: string, poolSize: number) =>
  postgres(url, { max: poolSize, types: PG_TYPES, onnotice: () => undefined, connection: { TimeZone: "UTC" } })

export type Sql = ReturnType<typeof connectPostgres>
export type ReservedSql = Awaited<ReturnType<Sql["reserve"]>>
