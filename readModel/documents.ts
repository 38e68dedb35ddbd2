import { dealFacts } from "../domain/deals/deal.ts"
import { groupKey } from "../domain/catalog/modelKey.ts"
import { ageGroupOf, genderOf, type AgeGroup, type Gender } from "../domain/catalog/productAudience.ts"
import { sellingCountries } from "../domain/markets/markets.ts"

// The search documents. A product document carries everything /api/search,
// /api/deals and the landing page show, so a search is one Meilisearch query
// with no DuckDB look-ups per result.

/** Bumped whenever the document shape changes: every document is resent. */
export const DOCUMENT_VERSION = "m6"

/** Meilisearch ids allow only [A-Za-z0-9_-]; catalog ids ('{feed}:{item}') do not. */
export const documentId = (catalogId: string): string => Buffer.from(catalogId, "utf8").toString("base64url")
export const catalogIdOf = (documentId: string): string | undefined =>
  /^[A-Za-z0-9_-]{1,400}$/.test(documentId) ? Buffer.from(documentId, "base64url").toString("utf8") : undefined

export interface ProductDocument {
  readonly id: string
  readonly product_id: string
  readonly feed: string
  readonly title: string
  readonly description: string
  readonly brand: string | null
  readonly category: string | null
  readonly product_type: string | null
  /**
   * The category and every level of the merchant's product_type path, so a
   * filter on "Electronics" and one on "Earbuds" both find a pair of earbuds,
   * whichever level a feed chose as its category.
   */
  readonly categories: ReadonlyArray<string>
  readonly store: string
  readonly store_domain: string | null
  /**
   * Same product, other offers: for a colour/size variant the model (its
   * title without its colour and size), else the GTIN when the feed has one,
   * else the normalised title. Feed searches show one offer per group.
   */
  readonly group_key: string
  readonly link: string
  readonly image: string | null
  /** What a shopper pays now. */
  readonly price: number
  readonly currency: string
  /** The feed's regular price (before its sale price). */
  readonly regular_price: number
  /** The feed's "was"/RRP claim: untrusted, context only. */
  readonly feed_was_price: number | null
  readonly availability: string
  readonly in_stock: boolean
  readonly condition: string | null
  /** The variant's colour and size as the feed names them (absent in documents built by hand). */
  readonly color?: string | null
  readonly size?: string | null
  /** Who it is for (productAudience.ts): the feed's value or what the title names; null when not said. */
  readonly gender?: Gender | null
  readonly age_group?: AgeGroup | null
  /** Where the offer sells (ISO 3166-1 codes): a market's answer holds only offers sold in its country. */
  readonly countries: ReadonlyArray<string>
  readonly reference_price: number | null
  readonly reference_observed_at: string | null
  readonly reference_kind: "full" | "partial" | null
  readonly low_90: number | null
  readonly discount: number
  readonly is_deal: boolean
  readonly deal_score: number
  /** When the current price was first observed (ISO date-time). */
  readonly price_since: string | null
  /** When the feed last confirmed this price (ISO date-time). */
  readonly price_checked_at: string
}

/** One row of the sync query (products joined with price-history facts). */
export interface ProductRow {
  readonly id: string
  readonly feed: string
  readonly title: string
  readonly description: string | null
  readonly link: string
  readonly image_link: string | null
  readonly brand: string | null
  readonly gtin: string | null
  readonly category: string | null
  readonly product_type: string | null
  readonly store: string
  readonly store_domain: string | null
  readonly currency: string
  readonly price: number
  readonly current_price: number
  readonly feed_was_price: number | null
  readonly availability: string
  readonly condition: string | null
  /** Variant attributes (absent where a caller builds rows by hand). */
  readonly color?: string | null
  readonly size?: string | null
  readonly item_group_id?: string | null
  /** Google Merchant gender and age_group as loaded (absent where a caller builds rows by hand). */
  readonly gender?: string | null
  readonly age_group?: string | null
  /** Where it sells, comma-separated ISO codes as loaded; null when its feed said nowhere (absent in rows built by hand). */
  readonly countries?: string | null
  /** The row's group key when the query already keyed it (the search sync keys each distinct title/variant once). */
  readonly model_key?: string | null
  readonly updated_at: Date
  readonly since: Date | null
  readonly first_at: Date | null
  readonly ref_price: number | null
  readonly ref_at: Date | null
  readonly ref_days: number | null
  readonly low90: number | null
}

const DAY = 86_400_000
// Long descriptions only cost index size and response bytes.
const MAX_DESCRIPTION = 600

export const categoryLevels = (category: string | null, productType: string | null): Array<string> => {
  const levels = [category, ...(productType ?? "").split(/\s*>\s*/)]
    .map((level) => level?.trim() ?? "")
    .filter((level) => level.length > 0 && level.length <= 100)
  return [...new Set(levels)]
}

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value))

export const productDocument = (row: ProductRow, now: Date): ProductDocument => {
  const current = Number(row.current_price)
  const since = row.since ?? row.updated_at
  const facts = dealFacts({
    currentPrice: current,
    availability: row.availability,
    referencePrice: num(row.ref_price),
    referenceObservedAt: row.ref_at,
    referenceDays: num(row.ref_days),
    historyDaysBefore: row.first_at === null ? 0 : (since.getTime() - row.first_at.getTime()) / DAY,
    low90: num(row.low90),
    daysSinceChange: Math.max(0, (now.getTime() - since.getTime()) / DAY)
  })
  const description = row.description ?? ""
  return {
    id: documentId(row.id),
    product_id: row.id,
    feed: row.feed,
    title: row.title,
    description: description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION - 1)}…` : description,
    brand: row.brand,
    category: row.category,
    product_type: row.product_type,
    categories: categoryLevels(row.category, row.product_type),
    store: row.store,
    store_domain: row.store_domain,
    group_key:
      row.model_key ?? groupKey(row.gtin, row.title, { color: row.color, size: row.size, condition: row.condition }),
    link: row.link,
    image: row.image_link,
    price: current,
    currency: row.currency,
    regular_price: Number(row.price),
    feed_was_price: num(row.feed_was_price),
    availability: row.availability,
    in_stock: row.availability !== "out_of_stock",
    condition: row.condition,
    color: row.color ?? null,
    size: row.size ?? null,
    gender: genderOf(row.gender, row.title),
    age_group: ageGroupOf(row.age_group, row.title, categoryLevels(row.category, row.product_type)),
    countries: sellingCountries(row.countries, row.currency),
    reference_price: facts.referencePrice,
    reference_observed_at: facts.referenceObservedAt,
    reference_kind: facts.referenceKind,
    low_90: num(row.low90),
    discount: facts.discount,
    is_deal: facts.isDeal,
    deal_score: facts.dealScore,
    price_since: row.since === null ? null : row.since.toISOString(),
    price_checked_at: row.updated_at.toISOString()
  }
}

export interface ProgramDocument {
  readonly id: string
  readonly program_id: string
  readonly network_id: string
  readonly network_name: string | null
  readonly merchant_id: string
  readonly name: string
  readonly domains: ReadonlyArray<string>
  readonly country: string | null
  readonly category: string | null
  readonly commission_type: string
  readonly commission_rate: number
  readonly commission_currency: string | null
  readonly cookie_days: number | null
  readonly status: string
  readonly deep_link_allowed: boolean
  readonly epc: number | null
}
