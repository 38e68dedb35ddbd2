import { Result, Schema } from "effect"
import { describeIssues, rule } from "../Rejections.ts"
import { fullMatch, PATTERNS, sqlString } from "../products/ProductRecord.ts"

// One row of a price-history feed (product_id or product_key, observed_at,
// price[, currency]): the Schema rule that decides and gives the reason, the
// SQL pre-check that lets most rows load without it, and how SQL reads the
// rows the pre-check passes (PriceHistoryLoader.ts).

const required = Schema.String.annotate({ message: "is required" })
// the product feeds' spellings of a price and a currency
const PRICE = new RegExp(`^(?:${PATTERNS.price})$`)
const CURRENCY = new RegExp(`^(?:${PATTERNS.currency})$`)

const PriceRow = (defaultCurrency: string | undefined) =>
  Schema.Struct({
    product_id: required.check(
      rule((v: string) => v.length >= 1, "is required"),
      rule((v: string) => v.length <= 200, "must be at most 200 characters")
    ),
    observed_at: required.check(rule((v: string) => !Number.isNaN(Date.parse(v)), "must be an ISO 8601 date")),
    price: required.check(rule((v: string) => PRICE.test(v), 'must look like "15.00" or "15.00 USD"')),
    currency: Schema.NullOr(Schema.String).check(
      rule((v: string | null) => v === null || CURRENCY.test(v), "must be an ISO 4217 code")
    )
  }).check(
    Schema.makeFilter(
      (row) =>
        row.price.includes(" ") ||
        row.currency !== null ||
        defaultCurrency !== undefined || { path: ["currency"], issue: "is required (or set options.currency)" }
    )
  )

/** A valid row as it is staged: the instant in UTC, the amount, its currency (from the price, the column or the feed). */
export type Observation = {
  readonly observed_at: string
  readonly price: string
  readonly currency: string
}

const observation = (row: ReturnType<typeof PriceRow>["Type"], defaultCurrency: string | undefined): Observation => {
  const [amount, suffix] = row.price.split(" ")
  return {
    observed_at: new Date(row.observed_at).toISOString(),
    price: amount,
    currency: suffix ?? row.currency ?? defaultCurrency ?? "" // never "": the check above requires one of them
  }
}

// The rows the SQL pre-check passes load as they are; only the others (none,
// in a clean feed) go through PriceRow in JavaScript, which rejects them with
// their reason or rewrites them in the form the pre-check passes. So the
// pre-check admits nothing PriceRow refuses, and what it admits SQL reads as
// the JavaScript would: an instant with its offset and at most milliseconds
// (JavaScript's Date keeps no more), which DuckDB and Date.parse read alike
// (dates such as 2026-02-30 DuckDB refuses and Date.parse rolls over go to
// the JavaScript); ids by their UTF-8 length (at least their UTF-16 length).
const ISO_INSTANT = "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,3})?(Z|[+-][0-9]{2}:[0-9]{2})"
/** True (in SQL, over the staged columns) for a row that loads as SQL reads it, without the Schema rule. */
export const priceRowPrecheck = (defaultCurrency: string | undefined) =>
  [
    "strlen(product_id) BETWEEN 1 AND 200",
    `${fullMatch("observed_at", ISO_INSTANT)} AND TRY_CAST(observed_at AS TIMESTAMPTZ) IS NOT NULL`,
    fullMatch("price", PATTERNS.price),
    `(currency IS NULL OR ${fullMatch("currency", PATTERNS.currency)})`,
    ...(defaultCurrency === undefined ? ["(contains(price, ' ') OR currency IS NOT NULL)"] : [])
  ]
    .map((test) => `coalesce(${test}, false)`)
    .join(" AND ")

/** How SQL reads a row the pre-check passed: "15.00" or "15.00 USD", the amount before the space, the currency after it. */
export const stagedObservation = (defaultCurrency: string | undefined) => ({
  observedAt: "observed_at::TIMESTAMPTZ",
  amount: "split_part(price, ' ', 1)::DECIMAL(18,4)",
  currency: `coalesce(nullif(split_part(price, ' ', 2), ''), currency${defaultCurrency === undefined ? "" : `, ${sqlString(defaultCurrency)}`})`
})

/** The Schema rule over one staged row: its observation, or the reason it is rejected. */
export const priceRowJudge = (defaultCurrency: string | undefined) => {
  const decode = Schema.decodeUnknownResult(PriceRow(defaultCurrency), { errors: "all" })
  return (row: unknown): Observation | string => {
    const parsed = decode(row)
    return Result.isSuccess(parsed)
      ? observation(parsed.success, defaultCurrency)
      : describeIssues(parsed.failure.issue)
  }
}
