import { MARKET_COUNTRIES } from "../../domain/markets/markets.ts"
import { feedCurrency } from "../FeedRequest.ts"
import { Clock, Effect, Schema } from "effect"
import { join } from "node:path"
import { AppConfig } from "../../infra/AppConfig.ts"
import { CountRow } from "../../infra/columns.ts"
import type { DuckDbShape } from "../../infra/Database.ts"
import { byFeed, type CatalogPublisherShape, type PublishStep } from "../publish/CatalogPublisher.ts"
import { type LoaderStores, loaderStores } from "../publish/LoaderStores.ts"
import { PipelineError } from "../errors.ts"
import type { FeedDefinition } from "../FeedConfig.ts"
import type { FeedLoader, LoadInput, LoadResult } from "../FeedLoaders.ts"
import { checkThreshold, type Rejection, recordRejections } from "../Rejections.ts"
import { forEachFlaggedPage } from "../flaggedRows.ts"
import { productRecordValidator, sqlPrecheck, sqlString } from "./ProductRecord.ts"
import { STAGED_COLUMNS, type StagedRecord } from "./stagedColumns.ts"
import { AWIN_CSV, GMC_TSV, type Staged, stageDelimited } from "./stageDelimited.ts"
import { stageXml, type XmlScratch } from "./stageXml.ts"

// Products: stage (format-specific) -> judge (SQL pre-check, Schema on flagged
// rows) -> record rejections -> threshold -> replace the feed's rows in one
// transaction. The staging tables are plain tables named after the feed (the
// runner's per-feed lock keeps two runs of a feed apart) and are dropped
// whatever happens.

/**
 * Logs a step's duration and the process's CPU time in it at Debug level
 * (LOG_LEVEL=Debug shows where a run spends its time; on a busy machine the
 * CPU time is the steadier figure).
 */
const timed = <A, E, R>(step: string, feed: string, effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const started = performance.now()
    const cpu = process.cpuUsage()
    const result = yield* effect
    const used = process.cpuUsage(cpu)
    yield* Effect.logDebug("pipeline step").pipe(
      Effect.annotateLogs({
        feed,
        step,
        ms: Math.round(performance.now() - started),
        cpuMs: Math.round((used.user + used.system) / 1000)
      })
    )
    return result
  })

const RepeatRow = Schema.Struct({ k: Schema.Number, first_k: Schema.Number })

const tableFor = (feed: string) => `_stage_products_${feed.replace(/[^a-z0-9_]/g, "_")}`

const stage = (
  db: DuckDbShape,
  input: LoadInput,
  table: string,
  xmlScratch: XmlScratch
): Effect.Effect<Staged & { rename: Record<string, string> }, PipelineError> => {
  const { feed, file, gzip } = input
  const precheck = sqlPrecheck(feedCurrency(feed) ?? null)
  switch (feed.format) {
    case "gmc-tsv":
      return stageDelimited(db, feed, GMC_TSV, file, gzip, table, precheck).pipe(
        Effect.map((s) => ({ ...s, rename: GMC_TSV.rename }))
      )
    case "awin-csv":
      return stageDelimited(db, feed, AWIN_CSV, file, gzip, table, precheck).pipe(
        Effect.map((s) => ({ ...s, rename: AWIN_CSV.rename }))
      )
    case "gmc-xml":
      return stageXml(db, feed, input, table, precheck, input.progress, xmlScratch).pipe(
        Effect.map((s) => ({ ...s, rename: {} }))
      )
    default:
      return Effect.fail(
        new PipelineError({ feed: feed.name, stage: "parse", message: `no product parser for format ${feed.format}` })
      )
  }
}

/** Staged rows the pre-check flags (or whose id repeats), judged by the Schema rule. */
const judge = (
  db: DuckDbShape,
  feed: FeedDefinition,
  table: string,
  staged: Staged & { rename: Record<string, string> }
) =>
  Effect.gen(function* () {
    const validate = productRecordValidator(feedCurrency(feed) ?? null, staged.rename)
    const rejections: Array<Rejection> = [...staged.structural]
    const rejectedKeys: Array<number> = []
    // The staging table is TEMP (writer connection only): read it inside a transaction.
    // Two narrow queries rather than one join carrying every column of every
    // row: repeated ids first (usually none), then only the rows to judge.
    yield* db.transaction((tx) =>
      Effect.gen(function* () {
        const repeats = yield* tx.queryAs(
          RepeatRow,
          `WITH firsts AS (SELECT id, min(rowid) AS first_k FROM ${table} WHERE id IS NOT NULL GROUP BY id HAVING count(*) > 1)
          SELECT s.rowid::INTEGER AS k, f.first_k::INTEGER AS first_k FROM ${table} s JOIN firsts f ON s.id = f.id AND s.rowid <> f.first_k`
        )
        const firstOf = new Map(repeats.map((r) => [r.k, r.first_k]))
        const repeated = repeats.length > 0 ? ` OR id IN (SELECT id FROM ${table} GROUP BY id HAVING count(*) > 1)` : ""
        yield* forEachFlaggedPage<StagedRecord & { k: number }>(
          tx,
          table,
          STAGED_COLUMNS,
          `NOT ok${repeated}`,
          (rows) => {
            for (const row of rows) {
              const k = row.k
              const record = {} as StagedRecord
              for (const column of STAGED_COLUMNS) record[column] = row[column]
              const first = firstOf.get(k)
              const reason =
                validate(record) ??
                (first !== undefined ? `duplicate id ${record.id} (first on line ${staged.lineOf(first)})` : undefined)
              if (reason === undefined) continue // the first of a repeated id, or a row the Schema accepts: it loads
              rejectedKeys.push(k)
              rejections.push({ line: staged.lineOf(k), reason, raw: JSON.stringify(record) })
            }
          }
        )
      })
    )
    return { rejections, rejectedKeys }
  })

// Who a product is for, in Google Merchant's values: Awin's "suitable for"
// column spells them Mens/Womens, and a value we cannot read is stored as
// unknown (NULL) rather than rejecting a product that is otherwise fine.
const GENDER_SQL = `CASE regexp_replace(lower(trim(gender)), '[^a-z]', '', 'g')
          WHEN 'male' THEN 'male' WHEN 'men' THEN 'male' WHEN 'mens' THEN 'male' WHEN 'man' THEN 'male'
          WHEN 'female' THEN 'female' WHEN 'women' THEN 'female' WHEN 'womens' THEN 'female' WHEN 'woman' THEN 'female'
          WHEN 'ladies' THEN 'female' WHEN 'unisex' THEN 'unisex' END`
const AGE_GROUP_SQL = `CASE WHEN lower(trim(age_group)) IN ('newborn', 'infant', 'toddler', 'kids', 'adult') THEN lower(trim(age_group)) END`

// Where an offer sells, as sorted comma-separated ISO 3166-1 codes (shoppers
// and feeds write UK for GB). A market's answer holds only offers sold in its
// country (discovery/marketIntent.ts), so the most specific word wins: the
// row's own Google Merchant shipping countries; else the feed definition's
// country; else the country its link's domain names (zalando.de); else the
// country of the store's programme when every programme on that domain is in
// one (fnac.com is Fnac's French programme; nike.com, with a US and a UK
// programme, says none). None of them: NULL, and the offer counts as sold in
// every market of its currency (readModel/documents.ts).
const countryCode = (code: string) => `CASE WHEN ${code} = 'UK' THEN 'GB' ELSE ${code} END`
const SHIPPING_COUNTRIES_SQL = `nullif(array_to_string(list_sort(list_distinct(list_filter(
          list_transform(string_split(coalesce(shipping, ''), ','), s -> ${countryCode("upper(trim(split_part(s, ':', 1)))")}),
          c -> regexp_full_match(c, '[A-Z]{2}')))), ','), '')`
const DOMAIN_COUNTRY_SQL = `CASE WHEN ${countryCode("upper(regexp_extract(store_domain, '\\.([a-z]{2})$', 1))")}
          IN (${MARKET_COUNTRIES.map(sqlString).join(", ")})
          THEN ${countryCode("upper(regexp_extract(store_domain, '\\.([a-z]{2})$', 1))")} END`
const PROGRAMME_COUNTRIES_SQL = `SELECT d.domain, min(upper(pr.country)) AS country
      FROM program_domains d JOIN programs pr ON pr.id = d.program_id
      WHERE pr.country IS NOT NULL GROUP BY d.domain HAVING count(DISTINCT upper(pr.country)) = 1`

// What a shopper pays now, and the columns the search index carries (hashed
// so an unchanged product is recognisably unchanged across runs).
const parsedProducts = (table: string, feed: FeedDefinition) => {
  // GMC writes dates like 2016-02-24T11:07+0100; DuckDB wants seconds and a colon in the offset.
  const timestamp = (text: string) =>
    `TRY_CAST(regexp_replace(regexp_replace(${text}, 'T([0-9]{2}:[0-9]{2})(Z|[+-]|$)', 'T\\1:00\\2'), '([+-][0-9]{2})([0-9]{2})$', '\\1:\\2') AS TIMESTAMPTZ)`
  // validated already ("15.00" or "15.00 USD"): the amount is the text before the space
  const amount = (column: string) => `CAST(split_part(${column}, ' ', 1) AS DECIMAL(18,4))`
  const currency = feedCurrency(feed)
  const defaultCurrency = currency === undefined ? "NULL" : sqlString(currency)
  const store = feed.options.store === undefined ? "store" : `coalesce(store, ${sqlString(feed.options.store)})`
  const feedCountry = feed.options.country === undefined ? "NULL" : sqlString(feed.options.country)
  return `
    WITH p AS (
      SELECT $feed || ':' || id AS id, id AS item_id, title, description, link, image_link, brand, gtin, mpn,
        coalesce(category, nullif(trim(split_part(product_type, '>', 1)), ''),
          CASE WHEN NOT regexp_full_match(google_product_category, '[0-9]+') THEN nullif(trim(split_part(google_product_category, '>', 1)), '') END
        ) AS category,
        product_type, google_product_category, ${store} AS store,
        nullif(regexp_replace(lower(regexp_extract(link, '^https?://([^/:?#]+)', 1)), '^www\\.', ''), '') AS store_domain,
        coalesce(nullif(split_part(price, ' ', 2), ''), currency, ${defaultCurrency}) AS currency,
        ${amount("price")} AS price,
        ${amount("sale_price")} AS sale_price,
        ${amount("was_price")} AS feed_was_price,
        sale_price IS NOT NULL AND ${amount("sale_price")} < ${amount("price")} AND (
          sale_price_effective_date IS NULL OR coalesce(
            $now::TIMESTAMPTZ BETWEEN ${timestamp("split_part(sale_price_effective_date, '/', 1)")}
                                  AND ${timestamp("split_part(sale_price_effective_date, '/', 2)")}, false)
        ) AS on_sale,
        -- most feeds already write the stored spelling: skip lower() and replace() for those
        CASE WHEN availability IN ('in_stock', 'out_of_stock', 'preorder', 'backorder') THEN availability
          ELSE replace(lower(availability), ' ', '_') END AS availability,
        lower(condition) AS condition,
        color, size, item_group_id,
        ${GENDER_SQL} AS gender,
        ${AGE_GROUP_SQL} AS age_group,
        ${SHIPPING_COUNTRIES_SQL} AS shipping_countries
      FROM ${table}
    )
    SELECT p.*, CASE WHEN on_sale THEN sale_price ELSE price END AS current_price,
      coalesce(shipping_countries, ${feedCountry}, ${DOMAIN_COUNTRY_SQL}, pc.country) AS countries
    FROM p LEFT JOIN (${PROGRAMME_COUNTRIES_SQL}) pc ON pc.domain = p.store_domain`
}

/** What a products run publishes: the feed's products, and the rows of price_history this run wrote. */
const publishedBy = (feed: string, runId: string): ReadonlyArray<PublishStep> => [
  ...byFeed(feed, ["products"]),
  { table: "price_history", copy: { where: "run_id = $1", params: [runId] } }
]

const replaceProducts = (
  publisher: CatalogPublisherShape,
  feed: FeedDefinition,
  runId: string,
  table: string,
  rejectedKeys: ReadonlyArray<number>
) =>
  publisher.replace(
    feed.name,
    (tx) =>
      Effect.gen(function* () {
        // Rejected rows leave the staging table (few, usually none) rather than
        // being filtered out of every row of the insert below.
        for (let i = 0; i < rejectedKeys.length; i += 1000) {
          yield* tx.run(
            `DELETE FROM ${table} WHERE rowid IN (${rejectedKeys
              .slice(i, i + 1000)
              .map((k) => Math.trunc(k))
              .join(", ")})`
          )
        }
        const params = { feed: feed.name, now: new Date(yield* Clock.currentTimeMillis).toISOString(), run: runId }
        // One pass writes the new rows: keep what we need of the old ones
        // (first seen, last change, price) aside, delete, insert the transformed
        // staging rows, then diff prices against the kept ones.
        const old = `${table}_old`
        yield* timed(
          "replace.keep",
          feed.name,
          tx.run(
            `
        CREATE OR REPLACE TEMP TABLE ${old} AS
        SELECT id, first_seen_at, updated_at, content_hash, current_price, currency, first_price, first_currency
        FROM products WHERE feed = $feed`,
            { feed: params.feed }
          )
        )
        yield* timed(
          "replace.delete",
          feed.name,
          tx.run(`DELETE FROM products WHERE feed = $feed`, { feed: params.feed })
        )
        yield* timed(
          "replace.insert",
          feed.name,
          tx.run(
            `
        INSERT INTO products (id, feed, item_id, title, description, link, image_link, brand, gtin, mpn, category, product_type,
          google_product_category, store, store_domain, currency, price, sale_price, current_price, feed_was_price, availability,
          condition, color, size, item_group_id, gender, age_group, countries, content_hash, first_seen_at, updated_at, first_price, first_currency)
        WITH n AS (${parsedProducts(table, feed)}),
        -- DuckDB's 64-bit hash, not md5: it only has to notice a change, and md5 cost ~15% of the load at 1M rows
        h AS (SELECT *, hash(title, description, link, image_link, brand, gtin, mpn, category, product_type,
          google_product_category, store, store_domain, currency, price, sale_price, current_price,
          feed_was_price, availability, condition, color, size, item_group_id, gender, age_group, countries)::VARCHAR AS content_hash FROM n)
        SELECT h.id, $feed, item_id, title, description, link, image_link, brand, gtin, mpn, category, product_type,
          google_product_category, store, store_domain, h.currency, price, sale_price, h.current_price, feed_was_price, availability,
          condition, color, size, item_group_id, gender, age_group, countries, h.content_hash, coalesce(o.first_seen_at, $now::TIMESTAMPTZ),
          CASE WHEN o.content_hash = h.content_hash THEN o.updated_at ELSE $now::TIMESTAMPTZ END,
          CASE WHEN o.id IS NULL THEN h.current_price ELSE o.first_price END,
          CASE WHEN o.id IS NULL THEN h.currency ELSE o.first_currency END
        FROM h LEFT JOIN ${old} o ON o.id = h.id`,
            { feed: params.feed, now: params.now }
          )
        )
        yield* timed(
          "replace.history",
          feed.name,
          tx.run(
            `
        INSERT INTO price_history
        SELECT p.id, $now::TIMESTAMPTZ, p.current_price, p.currency, $run FROM products p JOIN ${old} o ON o.id = p.id
        WHERE p.feed = $feed AND (o.current_price <> p.current_price OR o.currency <> p.currency)`,
            { feed: params.feed, now: params.now, run: runId }
          )
        )
        // A vanished product's first observation leaves with its row of
        // products: keep it in price_history, as the product's later ones are.
        // It is written by this run (so this run publishes it) but keeps the
        // time it was made.
        yield* tx.run(
          `
        INSERT INTO price_history
        SELECT o.id, o.first_seen_at, o.first_price, o.first_currency, $run FROM ${old} o
        WHERE o.first_price IS NOT NULL AND NOT EXISTS (SELECT 1 FROM products p WHERE p.feed = $feed AND p.id = o.id)`,
          { feed: params.feed, run: runId }
        )
        const loaded = yield* tx.queryAs(CountRow, `SELECT count(*)::INTEGER AS n FROM products WHERE feed = $feed`, {
          feed: params.feed
        })
        yield* tx.run(`DROP TABLE ${old}`)
        return { loaded: loaded[0].n }
      }),
    () => publishedBy(feed.name, runId)
  )

/** Stages and judges in `staging`, records rejections in `db` (the system of record), replaces and publishes. */
export const loadProducts = (
  { db, staging, publisher }: LoaderStores,
  input: LoadInput,
  xmlScratch: XmlScratch
): Effect.Effect<LoadResult, PipelineError> => {
  const { feed, runId } = input
  const table = tableFor(feed.name)
  const loadError = (message: string) => new PipelineError({ feed: feed.name, stage: "load", message })
  const dropStaging = staging.run(`DROP TABLE IF EXISTS ${table}`).pipe(Effect.ignore)
  return Effect.gen(function* () {
    const staged = yield* timed("stage", feed.name, stage(staging, input, table, xmlScratch))
    input.progress(staged.rowsRead)
    const { rejections, rejectedKeys } = yield* timed("judge", feed.name, judge(staging, feed, table, staged)).pipe(
      Effect.mapError((e) => loadError(e.message))
    )
    yield* recordRejections(db, runId, feed.name, rejections)
    yield* checkThreshold(feed, staged.rowsRead, rejections.length)
    const { loaded } = yield* timed("replace", feed.name, replaceProducts(publisher, feed, runId, table, rejectedKeys))
    return { rowsRead: staged.rowsRead, rowsLoaded: loaded, rowsRejected: rejections.length }
  }).pipe(Effect.ensuring(dropStaging))
}

export const ProductLoader = Effect.gen(function* () {
  const stores = yield* loaderStores
  const { dataDir, backgroundNice } = yield* AppConfig
  // beside the downloads (FeedSource.ts)
  const xmlScratch = { dir: join(dataDir, "tmp", "feeds"), nice: backgroundNice }
  return { kind: "products", load: (input) => loadProducts(stores, input, xmlScratch) } satisfies FeedLoader
})
