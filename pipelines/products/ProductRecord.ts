import { Result, Schema } from "effect"
import { describeIssues, fieldIssues, rule } from "../Rejections.ts"
import type { StagedRecord } from "./stagedColumns.ts"

// One product record as every product format is staged: Google Merchant
// column names, every value a string or null (empty strings are staged as
// NULL). The Schema is the rule; `SQL_PRECHECK` is the same rule written
// as one vectorised DuckDB expression, so a million valid rows are admitted
// without a million JS objects. Rows the pre-check flags are fetched and run
// through the Schema, which decides (a flagged row it accepts still loads) and
// gives the reason. The pre-check must flag everything the Schema rejects,
// and should flag nothing else (each flagged row costs a trip into JS);
// test/pipelines/productRecord.test.ts checks both on generated rows. Both
// sides share the regular expressions below (written in the subset where JS
// and RE2 agree: no \s, no \d, no lookaround, no flags), except where the SQL
// side spells one more cheaply (see `httpUrl`).

export const PATTERNS = {
  url: "https?://[^ \\t\\r\\n/?#]+([/?#][^ \\t\\r\\n]*)?",
  // at most 12 integer digits: DECIMAL(18,4) holds 14, and an overflow would fail the whole load
  price: "[0-9]{1,12}(\\.[0-9]{1,4})?( [A-Z]{3})?",
  currency: "[A-Z]{3}",
  gtin: "[0-9]{8,14}",
  /** Keywords are ASCII: JS and DuckDB lower-case non-ASCII letters differently (İ). */
  keyword: "[A-Za-z_ ]+",
  isoDate: "[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?"
} as const
const DATE_RANGE = `${PATTERNS.isoDate}/${PATTERNS.isoDate}`

export const AVAILABILITY = ["in_stock", "out_of_stock", "preorder", "backorder", "in stock", "out of stock"] as const
export const CONDITIONS = ["new", "refurbished", "used"] as const
// color, size and item_group_id as Google Merchant caps them
export const LIMITS = { id: 50, title: 500, description: 10_000, color: 100, size: 100, item_group_id: 50 } as const

const full = (pattern: string) => new RegExp(`^(?:${pattern})$`)
const chars = (value: string) => [...value].length

/** A string with a rule (null fails with `message`). */
const required = (message = "is required") => Schema.String.annotate({ message })
const optional = Schema.NullOr(Schema.String)
const requiredMatching = (pattern: string, message: string) => {
  const regex = full(pattern)
  return required().check(rule((v: string) => regex.test(v), message))
}
const matching = (pattern: string, message: string) => {
  const regex = full(pattern)
  return optional.check(rule((v: string | null) => v === null || regex.test(v), message))
}
const atMost = (limit: number) =>
  optional.check(rule((v: string | null) => v === null || chars(v) <= limit, `must be at most ${limit} characters`))
const KEYWORD = full(PATTERNS.keyword)
const oneOf = (values: ReadonlyArray<string>) => (v: string) => KEYWORD.test(v) && values.includes(v.toLowerCase())
const currencyOf = (price: string | null) => price?.match(/ ([A-Z]{3})$/)?.[1] ?? null

const PRICE = full(PATTERNS.price)
const NO_CURRENCY = 'has no currency (write "15.00 USD" or set options.currency)'
/** The one rule across fields: a price needs a currency, from itself, the currency column or the feed. */
const lacksCurrency = (
  record: { readonly price: unknown; readonly currency: unknown },
  defaultCurrency: string | null
) =>
  typeof record.price === "string" &&
  PRICE.test(record.price) &&
  currencyOf(record.price) === null &&
  record.currency === null &&
  defaultCurrency === null

/** The columns `required()` below: a null there is a type failure, after which the currency rule stays silent. */
const REQUIRED = ["id", "title", "link", "store", "price", "availability"] as const

const AVAILABILITY_MESSAGE = `must be one of ${AVAILABILITY.slice(0, 4).join(", ")}`
const CONDITION_MESSAGE = `must be one of ${CONDITIONS.join(", ")}`

/** The Schema rule for a staged product; `defaultCurrency` is the feed's `options.currency`. */
export const productRecordSchema = (defaultCurrency: string | null) =>
  Schema.Struct({
    id: required().check(rule((v: string) => chars(v) <= LIMITS.id, `must be at most ${LIMITS.id} characters`)),
    title: required().check(
      rule((v: string) => chars(v) <= LIMITS.title, `must be at most ${LIMITS.title} characters`)
    ),
    description: atMost(LIMITS.description),
    link: requiredMatching(PATTERNS.url, "must be an http(s) URL"),
    image_link: matching(PATTERNS.url, "must be an http(s) URL"),
    brand: optional,
    gtin: matching(PATTERNS.gtin, "must be 8 to 14 digits"),
    mpn: optional,
    product_type: optional,
    google_product_category: optional,
    category: optional,
    store: required("is required (set options.store for feeds without a store column)"),
    price: requiredMatching(PATTERNS.price, 'must look like "15.00 USD"'),
    sale_price: matching(PATTERNS.price, 'must look like "15.00 USD"'),
    sale_price_effective_date: matching(DATE_RANGE, "must be two ISO 8601 dates separated by /"),
    availability: required().check(rule(oneOf(AVAILABILITY), AVAILABILITY_MESSAGE)),
    condition: optional.check(rule((v: string | null) => v === null || oneOf(CONDITIONS)(v), CONDITION_MESSAGE)),
    was_price: matching(PATTERNS.price, 'must look like "15.00 USD"'),
    currency: matching(PATTERNS.currency, "must be an ISO 4217 code like USD"),
    color: atMost(LIMITS.color),
    size: atMost(LIMITS.size),
    item_group_id: atMost(LIMITS.item_group_id),
    // unknown values are dropped at load (ProductLoader.ts), never a rejection
    gender: optional,
    age_group: optional,
    // countries are read from it at load and anything else ignored, never a rejection
    shipping: optional
  }).check(
    Schema.makeFilter((record) => !lacksCurrency(record, defaultCurrency) || { path: ["price"], issue: NO_CURRENCY })
  )

/**
 * Judges one staged product: undefined when valid, else every problem as
 * `field: reason` (feed column names via `rename`). The currency rule is also
 * reported beside value problems, as it always was, though not beside a
 * missing required value (a Schema struct check runs only once every field is
 * valid, so it is added here).
 */
export const productRecordValidator = (defaultCurrency: string | null, rename: Record<string, string> = {}) => {
  const decode = Schema.decodeUnknownResult(productRecordSchema(defaultCurrency), { errors: "all" })
  return (record: StagedRecord): string | undefined => {
    const result = decode(record)
    if (Result.isSuccess(result)) return undefined
    const issues = fieldIssues(result.failure.issue)
    const typed = REQUIRED.every((column) => record[column] !== null)
    if (typed && lacksCurrency(record, defaultCurrency) && !issues.some((issue) => issue.message === NO_CURRENCY)) {
      issues.push({ path: ["price"], message: NO_CURRENCY })
    }
    return describeIssues(issues, rename)
  }
}

/** A text as a SQL string literal. */
export const sqlString = (value: string) => `'${value.replace(/'/g, "''")}'`
const sqlList = (values: ReadonlyArray<string>) => values.map(sqlString).join(", ")
/** SQL: `column` matches `pattern` (one of PATTERNS) as a whole. */
export const fullMatch = (column: string, pattern: string) => `regexp_full_match(${column}, ${sqlString(pattern)})`
const maybe = (column: string, test: string) => `(${column} IS NULL OR ${test})`

// The spellings below halve the pre-check's cost (232 -> 114 ms CPU per 200k
// feed rows, where it was a tenth of the whole load); each admits exactly what
// the Schema rule admits.

/** At most `limit` characters: the byte length bounds the character count, so most values skip the count. */
const atMostChars = (column: string, limit: number) =>
  `(strlen(${column}) <= ${limit} OR length(${column}) <= ${limit})`

/**
 * PATTERNS.url without a regular expression over the whole value: the scheme
 * and a first host character (anchored, so RE2 stops early), then no
 * whitespace anywhere (a byte search). Same language as the full match.
 */
const httpUrl = (column: string) =>
  `regexp_matches(${column}, '^https?://[^ \\t\\r\\n/?#]') AND NOT (contains(${column}, ' ') OR contains(${column}, chr(9)) OR contains(${column}, chr(10)) OR contains(${column}, chr(13)))`

/**
 * One of `values` (lower-case ASCII keywords), in any letter case: PATTERNS.keyword
 * demands ASCII, which holds exactly when the byte and character counts agree.
 * The exact spelling, by far the commonest, is tested first.
 */
const keyword = (column: string, values: ReadonlyArray<string>) =>
  `(${column} IN (${sqlList(values)}) OR (lower(${column}) IN (${sqlList(values)}) AND strlen(${column}) = length(${column})))`

/** The Schema rule above as one DuckDB boolean expression over a staged row (true = certainly valid). */
export const sqlPrecheck = (defaultCurrency: string | null) =>
  [
    `id IS NOT NULL AND ${atMostChars("id", LIMITS.id)}`,
    `title IS NOT NULL AND ${atMostChars("title", LIMITS.title)}`,
    maybe("description", atMostChars("description", LIMITS.description)),
    `link IS NOT NULL AND ${httpUrl("link")}`,
    maybe("image_link", httpUrl("image_link")),
    maybe("gtin", fullMatch("gtin", PATTERNS.gtin)),
    `store IS NOT NULL`,
    `price IS NOT NULL AND ${fullMatch("price", PATTERNS.price)}`,
    maybe("sale_price", fullMatch("sale_price", PATTERNS.price)),
    maybe("sale_price_effective_date", fullMatch("sale_price_effective_date", DATE_RANGE)),
    `availability IS NOT NULL AND ${keyword("availability", AVAILABILITY)}`,
    maybe("condition", keyword("condition", CONDITIONS)),
    maybe("was_price", fullMatch("was_price", PATTERNS.price)),
    maybe("currency", fullMatch("currency", PATTERNS.currency)),
    maybe("color", atMostChars("color", LIMITS.color)),
    maybe("size", atMostChars("size", LIMITS.size)),
    maybe("item_group_id", atMostChars("item_group_id", LIMITS.item_group_id)),
    // a price that matched PATTERNS.price carries a currency exactly when it has a space
    ...(defaultCurrency === null ? [`contains(price, ' ') OR currency IS NOT NULL`] : [])
  ]
    .map((test) => `(${test})`)
    .join("\n    AND ")
