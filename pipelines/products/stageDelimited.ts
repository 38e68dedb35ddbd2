import { Effect, Schema } from "effect"
import { createReadStream } from "node:fs"
import { createGunzip } from "node:zlib"
import { CountRow, Integer, NullableText, Text } from "../../infra/columns.ts"
import type { DatabaseShape } from "../../infra/Database.ts"
import { PipelineError } from "../errors.ts"
import type { FeedDefinition } from "../FeedConfig.ts"
import type { Rejection } from "../Rejections.ts"
import { sqlString } from "./ProductRecord.ts"
import { STAGED_COLUMNS, type StagedColumn } from "./stagedColumns.ts"

// Delimited product feeds (Google Merchant TSV, Awin CSV, gzip or not) are
// read by DuckDB's own read_csv straight into a staging table, every value as
// text: that is the fastest reader we have, and it keeps a million rows out
// of JS. Rows DuckDB cannot split into the header's columns are kept aside by
// `store_rejects` with their line numbers and become rejections; everything
// else is judged afterwards against the product rule (ProductRecord.ts).

const RejectRow = Schema.Struct({ line: Integer, message: Text, raw: NullableText })

export interface DelimitedFormat {
  readonly delimiter: string
  readonly label: string
  /** Feed columns that must be present in the header. */
  readonly required: ReadonlyArray<string>
  /** How each staged column is computed from the feed's columns (by lower-case name); absent ones are NULL. */
  readonly project: (has: (column: string) => boolean, col: (column: string) => string) => Record<StagedColumn, string>
  /** Our field name -> the feed's column name, for rejection reasons. */
  readonly rename: Record<string, string>
}

const text = (col: (c: string) => string, has: (c: string) => boolean, ...names: Array<string>) => {
  const present = names.filter(has).map(col)
  return present.length === 0 ? "NULL" : present.length === 1 ? present[0] : `coalesce(${present.join(", ")})`
}

export const GMC_TSV: DelimitedFormat = {
  delimiter: "\t",
  label: "tab",
  required: ["id", "title", "link", "price", "availability"],
  project: (has, col) =>
    Object.fromEntries(
      STAGED_COLUMNS.map((name) => [
        name,
        name === "category" || name === "was_price" || name === "currency" ? "NULL" : text(col, has, name)
      ])
    ) as Record<StagedColumn, string>,
  rename: {}
}

const positive = (expression: string) => `CASE WHEN TRY_CAST(${expression} AS DOUBLE) > 0 THEN ${expression} END`

export const AWIN_CSV: DelimitedFormat = {
  delimiter: ",",
  label: "comma",
  required: ["aw_product_id", "product_name", "merchant_deep_link", "search_price", "currency", "merchant_name"],
  project: (has, col) => ({
    id: col("aw_product_id"),
    title: col("product_name"),
    description: text(col, has, "description", "product_short_description"),
    link: col("merchant_deep_link"),
    image_link: text(col, has, "merchant_image_url", "aw_image_url", "large_image"),
    brand: text(col, has, "brand_name"),
    gtin: text(col, has, "product_gtin", "ean", "upc"),
    mpn: text(col, has, "mpn", "model_number"),
    product_type: text(col, has, "merchant_category"),
    google_product_category: "NULL",
    category: text(col, has, "category_name"),
    store: col("merchant_name"),
    price: col("search_price"),
    sale_price: "NULL",
    sale_price_effective_date: "NULL",
    // Awin writes stock as 1/0; anything else stays as written so the rule names it.
    availability: has("in_stock")
      ? `CASE ${col("in_stock")} WHEN '1' THEN 'in_stock' WHEN '0' THEN 'out_of_stock' ELSE coalesce(${col("in_stock")}, 'in_stock') END`
      : "'in_stock'",
    condition: text(col, has, "condition"),
    // "Was" claims are untrusted context; Awin writes 0.00 for "none".
    was_price:
      has("rrp_price") || has("product_price_old")
        ? positive(text(col, has, "rrp_price", "product_price_old"))
        : "NULL",
    currency: col("currency"),
    // Awin spells it colour; size is a Fashion column in publisher downloads; parent_product_id groups variants
    color: text(col, has, "colour", "color"),
    size: text(col, has, "size", "fashion:size"),
    item_group_id: text(col, has, "parent_product_id", "item_group_id"),
    // Awin's fashion columns, where a feed carries them
    gender: text(col, has, "fashion:suitable_for", "gender"),
    age_group: text(col, has, "age_group"),
    // Awin rows say no shipping country: where they sell comes from the feed or the store (ProductLoader.ts)
    shipping: "NULL"
  }),
  rename: {
    id: "aw_product_id",
    title: "product_name",
    link: "merchant_deep_link",
    image_link: "merchant_image_url",
    price: "search_price",
    gtin: "product_GTIN",
    store: "merchant_name",
    availability: "in_stock",
    was_price: "rrp_price",
    product_type: "merchant_category",
    category: "category_name",
    color: "colour",
    item_group_id: "parent_product_id"
  }
}

/** The first line of a (possibly gzip) text file, without reading the rest. */
export const readFirstLine = async (file: string, gzip: boolean): Promise<string> => {
  const raw = createReadStream(file, { highWaterMark: 64 * 1024 })
  const stream = gzip ? raw.pipe(createGunzip()) : raw
  let text = ""
  try {
    for await (const chunk of stream) {
      text += chunk.toString("utf8")
      const end = text.indexOf("\n")
      if (end >= 0)
        return text
          .slice(0, end)
          .replace(/\r$/, "")
          .replace(/^\uFEFF/, "")
      if (text.length > 1 << 20) break
    }
  } finally {
    raw.destroy()
  }
  return text.replace(/\r$/, "").replace(/^\uFEFF/, "")
}

/** Header names, unquoted; a repeated name gets a suffix so every column stays addressable. */
export const splitHeader = (line: string, delimiter: string): Array<string> => {
  const seen = new Map<string, number>()
  return line.split(delimiter).map((raw) => {
    const name =
      raw
        .trim()
        .replace(/^"(.*)"$/, "$1")
        .replace(/""/g, '"') || "column"
    const count = seen.get(name.toLowerCase()) ?? 0
    seen.set(name.toLowerCase(), count + 1)
    return count === 0 ? name : `${name}_${count}`
  })
}

const ident = (value: string) => `"${value.replace(/"/g, '""')}"`

export interface Staged {
  readonly rowsRead: number
  readonly structural: ReadonlyArray<Rejection>
  /** The feed line of staged row `k` (the staging table's rowid). */
  readonly lineOf: (k: number) => number
}

/**
 * Lines of the kept rows, given the lines DuckDB set aside: kept row k is the
 * k-th line (from 2, after the header) that was not rejected.
 */
export const lineMapper = (rejectedLines: ReadonlyArray<number>) => {
  const sorted = [...new Set(rejectedLines)].sort((a, b) => a - b)
  return (k: number) => {
    let line = k + 2
    for (const rejected of sorted) {
      if (rejected <= line) line++
      else break
    }
    return line
  }
}

/**
 * Reads the file into the TEMP table `table` (replaced): one text column per
 * staged field plus `ok`, the value of `precheck` for the row. A temp table
 * lives on the writer connection only and is never written to the database
 * file, so staging costs little more than the parse itself.
 */
export const stageDelimited = (
  db: DatabaseShape,
  feed: FeedDefinition,
  format: DelimitedFormat,
  file: string,
  gzip: boolean,
  table: string,
  precheck: string
): Effect.Effect<Staged, PipelineError> => {
  const parseError = (message: string) => new PipelineError({ feed: feed.name, stage: "parse", message })
  const rejectsTable = `${table}_csv_rejects`
  const scanTable = `${table}_csv_scans`
  const options = [
    `delim=${sqlString(format.delimiter)}`,
    `quote='"'`,
    `escape='"'`,
    "header=true",
    "auto_detect=false",
    `compression=${gzip ? "'gzip'" : "'none'"}`
  ].join(", ")
  return db
    .transaction((tx) =>
      Effect.gen(function* () {
        // The header is read here rather than sniffed: DuckDB's sniffer gives up
        // on small files with many broken rows, and we want those rows as rejections.
        const header = yield* Effect.tryPromise({
          try: () => readFirstLine(file, gzip),
          catch: (cause) => parseError(`cannot read the header: ${(cause as Error).message}`)
        })
        const columns = splitHeader(header, format.delimiter)
        const columnSpec = `{${columns.map((name) => `${sqlString(name)}: 'VARCHAR'`).join(", ")}}`
        const source = `read_csv(${sqlString(file)}, ${options}, columns=${columnSpec}`
        const byLower = new Map(columns.map((name) => [name.toLowerCase(), name]))
        const missing = format.required.filter((name) => !byLower.has(name))
        if (missing.length > 0) {
          const other = [",", ";", "|", "\t"].find((d) => d !== format.delimiter && header.includes(d))
          const hint =
            columns.length <= 1 && other !== undefined
              ? ` (wrong delimiter? this format is ${format.label}-separated but the header looks ${JSON.stringify(other)}-separated)`
              : ""
          return yield* parseError(
            `missing required columns: ${missing.join(", ")}${hint}; header has ${columns.length} column(s): ${header.slice(0, 200)}`
          )
        }
        const has = (name: string) => byLower.has(name)
        // read_csv already reads an empty field as NULL; no per-value trim (it costs ~10% at 1M rows)
        const col = (name: string) => ident(byLower.get(name)!)
        const projection = format.project(has, col)
        // GMC feeds carry no store column: a custom column (options.storeColumn), else options.store, names the merchant.
        const storeColumn = feed.options.storeColumn?.toLowerCase()
        if (storeColumn !== undefined && has(storeColumn))
          projection.store = `coalesce(${projection.store}, ${col(storeColumn)})`
        if (feed.options.store !== undefined)
          projection.store = `coalesce(${projection.store}, ${sqlString(feed.options.store)})`
        const select = STAGED_COLUMNS.map((name) => `${projection[name]}::VARCHAR AS ${name}`).join(", ")
        yield* tx.run(`DROP TABLE IF EXISTS ${rejectsTable}`)
        yield* tx.run(`DROP TABLE IF EXISTS ${scanTable}`)
        yield* tx.run(
          `CREATE OR REPLACE TEMP TABLE ${table} AS SELECT *, coalesce(${precheck}, false) AS ok FROM (
           SELECT ${select} FROM ${source}, store_rejects=true, rejects_table=${sqlString(rejectsTable)}, rejects_scan=${sqlString(scanTable)})
         )`
        )
        const counted = yield* tx.queryAs(CountRow, `SELECT count(*)::INTEGER AS n FROM ${table}`)
        const rejects = yield* tx.queryAs(
          RejectRow,
          // one row per (line, missing column): keep one per line
          `SELECT line::INTEGER AS line, arg_min(error_type || ': ' || error_message, column_idx) AS message, any_value(csv_line) AS raw
         FROM ${rejectsTable} GROUP BY line ORDER BY line`
        )
        yield* tx.run(`DROP TABLE IF EXISTS ${rejectsTable}`)
        yield* tx.run(`DROP TABLE IF EXISTS ${scanTable}`)
        const structural = rejects.map((r) => ({
          line: r.line,
          reason: `malformed row: ${r.message}`,
          raw: r.raw ?? undefined
        }))
        return {
          rowsRead: counted[0].n + structural.length,
          structural,
          lineOf: lineMapper(structural.map((r) => r.line))
        }
      })
    )
    .pipe(Effect.mapError((error) => (error._tag === "PipelineError" ? error : parseError(error.message))))
}
