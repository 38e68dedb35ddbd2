import { Clock, Context, Effect, Layer } from "effect"
import type { ProductFact } from "../../domain/copy/facts.ts"
import { type CopyFacts, storeName } from "../../domain/copy/facts.ts"
import type { CatalogProgram } from "../../domain/matching/catalog.ts"
import { Database, type DatabaseError, type DatabaseShape } from "../../infra/Database.ts"
import { productDocument, type ProductRow } from "../../readModel/documents.ts"
import { PRODUCT_FACT_JOINS, PRODUCT_ROW_COLUMNS, productFactsCtes } from "../../readModel/productFactsSql.ts"
import { hasVerifiedSaving } from "../../discovery/present.ts"
import { round2 } from "../../domain/money/round2.ts"

// A programme's facts for copy: its store and its best current products, read
// from the store (DuckDB or PostgreSQL). Prices and savings go through the very code the discovery feed
// uses (productDocument -> dealFacts over price history), so copy never shows
// a saving the feed would not: the feed's own "was" price is never used.

/** Products named in the copy (and in the prompt). */
export const FEATURED_PRODUCTS = 5
// SQL pre-ranks by an approximate saving so a large merchant costs one bounded
// read; dealFacts then decides which savings are real and the final order.
const CANDIDATES = 200

// A partner writing several pieces for one programme reads its facts once:
// the price-history query costs ~100 ms on the sample catalog (bench:ai-content)
// while prices change only with a feed load; a minute of staleness is covered
// by the disclosure's "prices can change".
const CACHE_TTL_MS = 60_000
const CACHE_MAX = 1_000

const STOCK_RANK: Record<string, number> = { in_stock: 0, preorder: 1, backorder: 1, out_of_stock: 2 }

// Products of the programme's store: store_domain (or, when a feed has none,
// the link's host) equal to one of its domains or a subdomain of one.
// The link's host by regexp_replace, which both dialects spell alike (DuckDB's
// regexp_extract has no PostgreSQL twin). Product links are http(s), so it
// always matches; anything else would stay whole instead of becoming "".
const LINK_HOST = `regexp_replace(link, '^https?://([^/:?#]+).*$', '\\1')`
const productsSql = (db: DatabaseShape) => `
  WITH ${productFactsCtes(`WHERE EXISTS (
    SELECT 1 FROM ${db.jsonList("$1")} AS d(domain)
    WHERE lower(coalesce(store_domain, ${LINK_HOST})) IN (d.domain, 'www.' || d.domain)
       OR lower(coalesce(store_domain, ${LINK_HOST})) LIKE '%.' || d.domain
  )`)}
  SELECT ${PRODUCT_ROW_COLUMNS}
  FROM p
  ${PRODUCT_FACT_JOINS}
  ORDER BY (p.availability = 'out_of_stock'),
    CASE WHEN ref.ref_price > p.current_price THEN (ref.ref_price - p.current_price) / ref.ref_price ELSE 0 END DESC,
    p.id
  LIMIT ${CANDIDATES}`

export const normaliseDomain = (domain: string) =>
  domain
    .trim()
    .toLowerCase()
    .replace(/^www\.(?=.+\..+)/, "")

/** The most common category among the products: the programme's own category is often just "General". */
const mainCategory = (rows: ReadonlyArray<ProductRow>): string | null => {
  const counts = new Map<string, number>()
  for (const row of rows)
    if (row.category !== null && row.category.trim() !== "")
      counts.set(row.category, (counts.get(row.category) ?? 0) + 1)
  let best: string | null = null
  for (const [category, count] of counts) if (best === null || count > counts.get(best)!) best = category
  return best
}

export class ProgramFacts extends Context.Service<
  ProgramFacts,
  {
    factsFor(program: CatalogProgram): Effect.Effect<CopyFacts, DatabaseError>
  }
>()("app/ai/content/ProgramFacts") {
  static readonly layer = Layer.effect(
    ProgramFacts,
    Effect.gen(function* () {
      const db = yield* Database
      // Keyed by id, valid only for the same catalog object: a catalog reload (new domains, new name) misses.
      const cache = new Map<
        string,
        { readonly at: number; readonly program: CatalogProgram; readonly facts: CopyFacts }
      >()
      const read = Effect.fn("ProgramFacts.read")(function* (program: CatalogProgram) {
        const domains = [...new Set(program.domains.map(normaliseDomain).filter((d) => d.length > 0))]
        const rows = domains.length === 0 ? [] : yield* db.query<ProductRow>(productsSql(db), [JSON.stringify(domains)])
        const now = new Date(yield* Clock.currentTimeMillis)
        const ranked = rows
          .map((row) => productDocument(row, now))
          .map((doc) => ({ doc, saving: hasVerifiedSaving(doc) ? doc.discount : 0 }))
          .sort(
            (a, b) =>
              (STOCK_RANK[a.doc.availability] ?? 1) - (STOCK_RANK[b.doc.availability] ?? 1) ||
              b.saving - a.saving ||
              b.doc.deal_score - a.doc.deal_score ||
              (a.doc.product_id < b.doc.product_id ? -1 : 1)
          )
        const products: Array<ProductFact> = ranked.slice(0, FEATURED_PRODUCTS).map(({ doc, saving }) => ({
          id: doc.product_id,
          title: doc.title,
          brand: doc.brand,
          category: doc.category,
          price: round2(doc.price),
          currency: doc.currency,
          referencePrice: saving > 0 && doc.reference_price !== null ? round2(doc.reference_price) : null,
          discountPercent: saving > 0 ? saving : null,
          availability: doc.availability,
          url: doc.link
        }))
        return {
          store: storeName(program.name),
          domain: domains[0] ?? "",
          category: mainCategory(rows),
          products
        } satisfies CopyFacts
      })
      const factsFor = (program: CatalogProgram) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const hit = cache.get(program.id)
          if (hit !== undefined && hit.program === program && now - hit.at < CACHE_TTL_MS)
            return Effect.succeed(hit.facts)
          return Effect.tap(read(program), (facts) =>
            Effect.map(Clock.currentTimeMillis, (at) => {
              cache.delete(program.id)
              if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!)
              cache.set(program.id, { at, program, facts })
            })
          )
        })
      return ProgramFacts.of({ factsFor })
    })
  )
}
