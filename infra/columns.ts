import { Schema, SchemaTransformation } from "effect"

// Column schemas for `Database.queryAs` row schemas: what the DuckDB binding
// hands back for each SQL type, decoded to what the services use.

export const Text = Schema.String
export const NullableText = Schema.NullOr(Schema.String)
export const Integer = Schema.Number
export const NullableNumber = Schema.NullOr(Schema.Number)
export const Bool = Schema.Boolean
export const Timestamp = Schema.Date
export const NullableTimestamp = Schema.NullOr(Schema.Date)

const Texts = Schema.Array(Schema.String)

/** A VARCHAR[] column; NULL reads as the empty list. */
export const TextList = Schema.NullOr(Texts).pipe(
  Schema.decodeTo(Texts, SchemaTransformation.transform({ decode: (value) => value ?? [], encode: (value) => value }))
)

/** A BIGINT (bigint in JS) or any numeric column, as a number. */
export const Count = Schema.Union([Schema.Number, Schema.BigInt]).pipe(
  Schema.decodeTo(
    Schema.Number,
    SchemaTransformation.transform({ decode: (value) => Number(value), encode: (value) => value })
  )
)

/** Any numeric column (DOUBLE, DECIMAL, BIGINT) as a number. */
export const Numeric = Count

/** `SELECT count(*)::INTEGER AS n`. */
export const CountRow = Schema.Struct({ n: Count })

/** A TIMESTAMPTZ column as its ISO-8601 text (what the JSON responses carry). */
export const IsoTimestamp = Schema.Date.pipe(
  Schema.decodeTo(
    Schema.String,
    SchemaTransformation.transform({ decode: (date) => date.toISOString(), encode: (text) => new Date(text) })
  )
)
export const NullableIsoTimestamp = Schema.NullOr(IsoTimestamp)
