import { historyFor, type Observation } from "../scripts/products/history.ts"
import { AS_OF, type Product } from "../scripts/products/product.ts"
import { productDocument, type ProductDocument, type ProductRow } from "../readModel/documents.ts"

// Benchmark documents, built the way SearchSync builds them (productDocument
// over the same row shape) but straight from the deterministic generator and
// its price history, without loading 1M rows into DuckDB first: the search
// benchmark measures queries, not ingestion (bench:ingest does that).

const DAY = 86_400_000

/** The price-history facts SearchSync's SQL computes, from one product's observations. */
export const historyFacts = (series: ReadonlyArray<Observation>, now: number) => {
  const since = series[series.length - 1][0]
  const windowStart = since - 30 * DAY
  let ref: { price: number; at: number; days: number } | undefined
  for (let i = 0; i < series.length - 1; i++) {
    const [at, price] = series[i]
    const until = series[i + 1][0]
    if (!(at < since && until > windowStart)) continue
    const winAt = Math.max(at, windowStart)
    if (ref === undefined || price < ref.price || (price === ref.price && winAt > ref.at)) {
      ref = { price, at: winAt, days: (until - winAt) / DAY }
    }
  }
  let low90: number | null = null
  for (let i = 0; i < series.length; i++) {
    const until = series[i + 1]?.[0] ?? now
    if (until > now - 90 * DAY) low90 = low90 === null ? series[i][1] : Math.min(low90, series[i][1])
  }
  return { since, first: series[0][0], ref, low90 }
}

/** Products whose generated history fails its own consistency check (a generator issue) get none. */
export let productsWithoutHistory = 0

const seriesFor = (key: string, p: Product): ReadonlyArray<Observation> => {
  try {
    return historyFor(key, p)
  } catch {
    productsWithoutHistory++
    return [[AS_OF - DAY, p.current]]
  }
}

export const benchDocument = (feed: string, p: Product): ProductDocument => {
  const facts = historyFacts(seriesFor(`${feed}:${p.id}`, p), AS_OF)
  const row: ProductRow = {
    id: `${feed}:${p.id}`,
    feed,
    title: p.title,
    description: p.description,
    link: p.link,
    image_link: p.imageLink,
    brand: p.brand,
    gtin: p.gtin,
    category: p.leaf.path.split(" > ")[0],
    product_type: p.leaf.path,
    store: p.store.name,
    store_domain: p.store.host,
    currency: p.currency,
    price: p.price,
    current_price: p.current,
    feed_was_price: p.rrp,
    availability: p.availability,
    condition: p.condition,
    color: p.color,
    size: p.size,
    item_group_id: p.itemGroupId,
    updated_at: new Date(AS_OF),
    since: new Date(facts.since),
    first_at: new Date(facts.first),
    ref_price: facts.ref?.price ?? null,
    ref_at: facts.ref === undefined ? null : new Date(facts.ref.at),
    ref_days: facts.ref?.days ?? null,
    low90: facts.low90
  }
  return productDocument(row, new Date(AS_OF))
}
