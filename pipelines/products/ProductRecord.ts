import { z } from "zod"

// One product record as every product format is staged: Google Merchant
// column names, every value a string or null (empty strings are staged as
// NULL). The zod schema is the rule; `SQL_PRECHECK` is the same rule written
// as one vectorised DuckDB expression, so a million valid rows are admitted
// without a million JS objects. Rows the pre-check flags are fetched and run
// through zod, which decides (a flagged row zod accepts still loads) and
// gives the reason. The pre-check must flag at least everything zod rejects;
// test/pipelines/productRecord.test.ts checks that on generated rows. Both
// sides share the regular expressions below (written in the subset where JS
// and RE2 agree: no \s, no \d, no lookaround, no flags).

export const STAGED_COLUMNS = [
  "id",
  "title",
  "description",
  "link",
  "image_link",
  "brand",
  "gtin",
  "mpn",
  "product_type",
  "google_product_category",
  "category",
  "store",
  "price",
  "sale_price",
  "sale_price_effective_date",
  "availability",
  "condition",
  "was_price",
  "currency",
  // variant attributes: which colour/size of a model this row is, and the
  // merchant's id for the set of variants (a grouping hint, per store)
  "color",
  "size",
  "item_group_id"
] as const

export type StagedColumn = (typeof STAGED_COLUMNS)[number]
export type StagedRecord = { [K in StagedColumn]: string | null }

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

const required = (message = "is required") => z.string({ error: message })
const optional = z.string().nullable()
const matching = (pattern: string, message: string) => z.string().regex(full(pattern), message)
const atMost = (limit: number) => optional.refine((v) => v === null || chars(v) <= limit, `must be at most ${limit} characters`)
const currencyOf = (price: string | null) => price?.match(/ ([A-Z]{3})$/)?.[1] ?? null

/** The zod rule for a staged product; `defaultCurrency` is the feed's `options.currency`. */
export const productRecordSchema = (defaultCurrency: string | null) =>
  z.object({
    id: required().refine((v) => chars(v) <= LIMITS.id, `must be at most ${LIMITS.id} characters`),
    title: required().refine((v) => chars(v) <= LIMITS.title, `must be at most ${LIMITS.title} characters`),
    description: optional.refine((v) => v === null || chars(v) <= LIMITS.description, `must be at most ${LIMITS.description} characters`),
    link: z.string({ error: "is required" }).regex(full(PATTERNS.url), "must be an http(s) URL"),
    image_link: matching(PATTERNS.url, "must be an http(s) URL").nullable(),
    brand: optional,
    gtin: matching(PATTERNS.gtin, "must be 8 to 14 digits").nullable(),
    mpn: optional,
    product_type: optional,
    google_product_category: optional,
    category: optional,
    store: required("is required (set options.store for feeds without a store column)"),
    price: z.string({ error: "is required" }).regex(full(PATTERNS.price), "must look like \"15.00 USD\""),
    sale_price: matching(PATTERNS.price, "must look like \"15.00 USD\"").nullable(),
    sale_price_effective_date: matching(DATE_RANGE, "must be two ISO 8601 dates separated by /").nullable(),
    availability: z.string({ error: "is required" }).refine(
      (v) => full(PATTERNS.keyword).test(v) && (AVAILABILITY as ReadonlyArray<string>).includes(v.toLowerCase()),
      `must be one of ${AVAILABILITY.slice(0, 4).join(", ")}`
    ),
    condition: z.string().refine((v) => full(PATTERNS.keyword).test(v) && (CONDITIONS as ReadonlyArray<string>).includes(v.toLowerCase()), `must be one of ${CONDITIONS.join(", ")}`)
      .nullable(),
    was_price: matching(PATTERNS.price, "must look like \"15.00 USD\"").nullable(),
    currency: matching(PATTERNS.currency, "must be an ISO 4217 code like USD").nullable(),
    color: atMost(LIMITS.color),
    size: atMost(LIMITS.size),
    item_group_id: atMost(LIMITS.item_group_id)
  }).superRefine((record, ctx) => {
    if (full(PATTERNS.price).test(record.price) && currencyOf(record.price) === null && record.currency === null && defaultCurrency === null) {
      ctx.addIssue({ code: "custom", path: ["price"], message: "has no currency (write \"15.00 USD\" or set options.currency)" })
    }
  })

const sqlString = (value: string) => `'${value.replace(/'/g, "''")}'`
const sqlList = (values: ReadonlyArray<string>) => values.map(sqlString).join(", ")
const fullMatch = (column: string, pattern: string) => `regexp_full_match(${column}, ${sqlString(pattern)})`
const maybe = (column: string, test: string) => `(${column} IS NULL OR ${test})`

/** The zod rule above as one DuckDB boolean expression over a staged row (true = certainly valid). */
export const sqlPrecheck = (defaultCurrency: string | null) =>
  [
    `id IS NOT NULL AND length(id) <= ${LIMITS.id}`,
    `title IS NOT NULL AND length(title) <= ${LIMITS.title}`,
    maybe("description", `length(description) <= ${LIMITS.description}`),
    `link IS NOT NULL AND ${fullMatch("link", PATTERNS.url)}`,
    maybe("image_link", fullMatch("image_link", PATTERNS.url)),
    maybe("gtin", fullMatch("gtin", PATTERNS.gtin)),
    `store IS NOT NULL`,
    `price IS NOT NULL AND ${fullMatch("price", PATTERNS.price)}`,
    maybe("sale_price", fullMatch("sale_price", PATTERNS.price)),
    maybe("sale_price_effective_date", fullMatch("sale_price_effective_date", DATE_RANGE)),
    `availability IS NOT NULL AND ${fullMatch("availability", PATTERNS.keyword)} AND lower(availability) IN (${sqlList(AVAILABILITY)})`,
    maybe("condition", `${fullMatch("condition", PATTERNS.keyword)} AND lower(condition) IN (${sqlList(CONDITIONS)})`),
    maybe("was_price", fullMatch("was_price", PATTERNS.price)),
    maybe("currency", fullMatch("currency", PATTERNS.currency)),
    maybe("color", `length(color) <= ${LIMITS.color}`),
    maybe("size", `length(size) <= ${LIMITS.size}`),
    maybe("item_group_id", `length(item_group_id) <= ${LIMITS.item_group_id}`),
    `coalesce(nullif(regexp_extract(price, ' ([A-Z]{3})$', 1), ''), currency, ${defaultCurrency === null ? "NULL" : sqlString(defaultCurrency)}) IS NOT NULL`
  ].map((test) => `(${test})`).join("\n    AND ")
