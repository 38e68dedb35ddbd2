import { Effect } from "effect"
import { Database, type DatabaseShape } from "../../infra/Database.ts"
import { PipelineError } from "../errors.ts"
import type { FeedDefinition } from "../FeedConfig.ts"
import type { FeedLoader, LoadInput, LoadResult } from "../FeedLoaders.ts"
import { checkThreshold, describeIssues, type Rejection, recordRejections } from "../Rejections.ts"
import { productRecordSchema, sqlPrecheck, STAGED_COLUMNS, type StagedRecord } from "./ProductRecord.ts"
import { AWIN_CSV, GMC_TSV, type Staged, stageDelimited } from "./stageDelimited.ts"
import { stageXml } from "./stageXml.ts"

// Products: stage (format-specific) -> judge (SQL pre-check, zod on flagged
// rows) -> record rejections -> threshold -> replace the feed's rows in one
// transaction. The staging tables are plain tables named after the feed (the
// runner's per-feed lock keeps two runs of a feed apart) and are dropped
// whatever happens.

const tableFor = (feed: string) => `_stage_products_${feed.replace(/[^a-z0-9_]/g, "_")}`
const sqlString = (value: string) => `'${value.replace(/'/g, "''")}'`

const stage = (db: DatabaseShape, input: LoadInput, table: string): Effect.Effect<Staged & { rename: Record<string, string> }, PipelineError> => {
  const { feed, file, gzip } = input
  switch (feed.format) {
    case "gmc-tsv":
      return stageDelimited(db, feed, GMC_TSV, file, gzip, table).pipe(Effect.map((s) => ({ ...s, rename: GMC_TSV.rename })))
    case "awin-csv":
      return stageDelimited(db, feed, AWIN_CSV, file, gzip, table).pipe(Effect.map((s) => ({ ...s, rename: AWIN_CSV.rename })))
    case "gmc-xml":
      return stageXml(db, feed, file, gzip, table, input.progress).pipe(Effect.map((s) => ({ ...s, rename: {} })))
    default:
      return Effect.fail(new PipelineError({ feed: feed.name, stage: "parse", message: `no product parser for format ${feed.format}` }))
  }
}

/** Staged rows the pre-check flags (or whose id repeats), judged by zod. */
const judge = (db: DatabaseShape, feed: FeedDefinition, table: string, staged: Staged & { rename: Record<string, string> }) =>
  Effect.gen(function*() {
    const currency = feed.options.currency ?? null
    const flagged = yield* db.query<StagedRecord & { k: number; first_k: number | null }>(`
      WITH dups AS (SELECT id, min(rowid) AS first_k FROM ${table} WHERE id IS NOT NULL GROUP BY id HAVING count(*) > 1),
      checked AS (SELECT rowid AS k, *, NOT coalesce(${sqlPrecheck(currency)}, false) AS bad FROM ${table})
      SELECT s.k::BIGINT AS k, ${STAGED_COLUMNS.map((c) => `s.${c}`).join(", ")}, d.first_k::BIGINT AS first_k
      FROM checked s LEFT JOIN dups d ON s.id = d.id AND s.k <> d.first_k
      WHERE s.bad OR d.first_k IS NOT NULL
      ORDER BY k`)
    const schema = productRecordSchema(currency)
    const rejections: Array<Rejection> = [...staged.structural]
    const rejectedKeys: Array<number> = []
    for (const row of flagged) {
      const k = Number(row.k)
      const record = {} as StagedRecord
      for (const column of STAGED_COLUMNS) record[column] = row[column]
      const result = schema.safeParse(record)
      const reason = !result.success
        ? describeIssues(result.error, staged.rename)
        : row.first_k !== null
        ? `duplicate id ${record.id} (first on line ${staged.lineOf(Number(row.first_k))})`
        : undefined
      if (reason === undefined) continue // the pre-check is stricter than zod here: zod decides, the row loads
      rejectedKeys.push(k)
      rejections.push({ line: staged.lineOf(k), reason, raw: JSON.stringify(record) })
    }
    return { rejections, rejectedKeys }
  })

// What a shopper pays now, and the columns the search index carries (hashed
// so an unchanged product is recognisably unchanged across runs).
const parsedProducts = (table: string, rejectedTable: string, feed: FeedDefinition) => {
  // GMC writes dates like 2016-02-24T11:07+0100; DuckDB wants seconds and a colon in the offset.
  const timestamp = (text: string) =>
    `TRY_CAST(regexp_replace(regexp_replace(${text}, 'T([0-9]{2}:[0-9]{2})(Z|[+-]|$)', 'T\\1:00\\2'), '([+-][0-9]{2})([0-9]{2})$', '\\1:\\2') AS TIMESTAMPTZ)`
  const amount = (column: string) => `CAST(regexp_extract(${column}, '^[0-9]+(\\.[0-9]+)?') AS DECIMAL(18,4))`
  const defaultCurrency = feed.options.currency === undefined ? "NULL" : sqlString(feed.options.currency)
  const store = feed.options.store === undefined ? "store" : `coalesce(store, ${sqlString(feed.options.store)})`
  return `
    WITH s AS (SELECT * FROM ${table} WHERE rowid NOT IN (SELECT k FROM ${rejectedTable})),
    p AS (
      SELECT $feed || ':' || id AS id, id AS item_id, title, description, link, image_link, brand, gtin, mpn,
        coalesce(category, nullif(trim(split_part(product_type, '>', 1)), ''),
          CASE WHEN NOT regexp_full_match(google_product_category, '[0-9]+') THEN nullif(trim(split_part(google_product_category, '>', 1)), '') END
        ) AS category,
        product_type, google_product_category, ${store} AS store,
        nullif(regexp_replace(lower(regexp_extract(link, '^https?://([^/:?#]+)', 1)), '^www\\.', ''), '') AS store_domain,
        coalesce(nullif(regexp_extract(price, ' ([A-Z]{3})$', 1), ''), currency, ${defaultCurrency}) AS currency,
        ${amount("price")} AS price,
        ${amount("sale_price")} AS sale_price,
        ${amount("was_price")} AS feed_was_price,
        sale_price IS NOT NULL AND ${amount("sale_price")} < ${amount("price")} AND (
          sale_price_effective_date IS NULL OR coalesce(
            $now::TIMESTAMPTZ BETWEEN ${timestamp("split_part(sale_price_effective_date, '/', 1)")}
                                  AND ${timestamp("split_part(sale_price_effective_date, '/', 2)")}, false)
        ) AS on_sale,
        replace(lower(availability), ' ', '_') AS availability,
        lower(condition) AS condition
      FROM s
    )
    SELECT *, CASE WHEN on_sale THEN sale_price ELSE price END AS current_price FROM p`
}

const replaceProducts = (db: DatabaseShape, feed: FeedDefinition, runId: string, table: string, rejectedTable: string) =>
  db.transaction((tx) =>
    Effect.gen(function*() {
      const params = { feed: feed.name, now: new Date().toISOString(), run: runId }
      const work = `${table}_new`
      yield* tx.run(`
        CREATE OR REPLACE TEMP TABLE ${work} AS
        WITH n AS (${parsedProducts(table, rejectedTable, feed)}),
        h AS (SELECT *, md5(concat_ws(chr(31), title, description, link, image_link, brand, gtin, mpn, category, product_type,
          google_product_category, store, store_domain, currency, price::VARCHAR, sale_price::VARCHAR, current_price::VARCHAR,
          feed_was_price::VARCHAR, availability, condition)) AS content_hash FROM n),
        o AS (SELECT id, first_seen_at, updated_at, content_hash AS old_hash, current_price AS old_price, currency AS old_currency
              FROM products WHERE feed = $feed)
        SELECT h.*, coalesce(o.first_seen_at, $now::TIMESTAMPTZ) AS first_seen_at,
          CASE WHEN o.old_hash = h.content_hash THEN o.updated_at ELSE $now::TIMESTAMPTZ END AS updated_at,
          o.old_price, o.old_currency
        FROM h LEFT JOIN o USING (id)`, { feed: params.feed, now: params.now })
      yield* tx.run(`
        INSERT INTO price_history
        SELECT id, $now::TIMESTAMPTZ, current_price, currency, $run FROM ${work}
        WHERE old_price IS NULL OR old_price <> current_price OR old_currency <> currency`, { now: params.now, run: runId })
      const deleted = yield* tx.query<{ n: number }>(
        `SELECT count(*)::INTEGER AS n FROM products p WHERE feed = $feed AND NOT EXISTS (SELECT 1 FROM ${work} w WHERE w.id = p.id)`,
        { feed: params.feed }
      )
      yield* tx.run(`DELETE FROM products WHERE feed = $feed`, { feed: params.feed })
      yield* tx.run(`
        INSERT INTO products (id, feed, item_id, title, description, link, image_link, brand, gtin, mpn, category, product_type,
          google_product_category, store, store_domain, currency, price, sale_price, current_price, feed_was_price, availability,
          condition, content_hash, first_seen_at, updated_at)
        SELECT id, $feed, item_id, title, description, link, image_link, brand, gtin, mpn, category, product_type,
          google_product_category, store, store_domain, currency, price, sale_price, current_price, feed_was_price, availability,
          condition, content_hash, first_seen_at, updated_at FROM ${work}`, { feed: params.feed })
      const loaded = yield* tx.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${work}`)
      yield* tx.run(`DROP TABLE ${work}`)
      return { loaded: loaded[0].n, vanished: deleted[0].n }
    })
  )

export const loadProducts = (db: DatabaseShape, input: LoadInput): Effect.Effect<LoadResult, PipelineError> => {
  const { feed, runId } = input
  const table = tableFor(feed.name)
  const rejectedTable = `${table}_rejected`
  const loadError = (message: string) => new PipelineError({ feed: feed.name, stage: "load", message })
  const dropStaging = Effect.all([
    db.run(`DROP TABLE IF EXISTS ${table}`),
    db.run(`DROP TABLE IF EXISTS ${rejectedTable}`)
  ]).pipe(Effect.ignore)
  return Effect.gen(function*() {
    const staged = yield* stage(db, input, table)
    input.progress(staged.rowsRead)
    const { rejections, rejectedKeys } = yield* judge(db, feed, table, staged).pipe(Effect.mapError((e) => loadError(e.message)))
    yield* recordRejections(db, runId, feed.name, rejections)
    yield* checkThreshold(feed, staged.rowsRead, rejections.length)
    yield* db.run(`CREATE OR REPLACE TABLE ${rejectedTable} (k BIGINT)`).pipe(Effect.mapError((e) => loadError(e.message)))
    if (rejectedKeys.length > 0) {
      yield* db.append(rejectedTable, (appender) => {
        for (const k of rejectedKeys) {
          appender.appendBigInt(BigInt(k))
          appender.endRow()
        }
      }).pipe(Effect.mapError((e) => loadError(e.message)))
    }
    const { loaded } = yield* replaceProducts(db, feed, runId, table, rejectedTable).pipe(
      Effect.mapError((e) => loadError(e.message))
    )
    return { rowsRead: staged.rowsRead, rowsLoaded: loaded, rowsRejected: rejections.length }
  }).pipe(Effect.ensuring(dropStaging))
}

export const ProductLoader = Effect.gen(function*() {
  const db = yield* Database
  return { kind: "products", load: (input) => loadProducts(db, input) } satisfies FeedLoader
})
