import { Effect } from "effect"
import { Database } from "../../infra/Database.ts"
import { groupKey } from "../../domain/catalog/modelKey.ts"
import { ageGroupOf, genderOf, type AgeGroup, type Gender } from "../../domain/catalog/productAudience.ts"
import { sellingCountries } from "../../domain/markets/markets.ts"
import { categoryLevels } from "../../readModel/documents.ts"

// The catalog attributes the judged search set is derived from and checked
// against: read from the service's own DuckDB after the samples were ingested,
// so judgements and evaluation see exactly what the index was built from.

export interface CatalogRow {
  readonly id: string
  readonly title: string
  readonly brand: string | null
  /** Category and every product_type level ("Electronics", "Audio", "Earbuds"). */
  readonly categories: ReadonlyArray<string>
  /** The feed's top-level category when its product_type path starts with it, and the path's last level. */
  readonly top: string | null
  readonly leaf: string | null
  readonly price: number
  readonly currency: string
  readonly inStock: boolean
  /** The search's one-result-per-model key (documents.ts groupKey). */
  readonly group: string
  /** Who the product is for: the feed's gender/age_group, else what its title names (productAudience.ts). */
  readonly gender: Gender | null
  readonly ageGroup: AgeGroup | null
  /** Where it sells (ISO codes): the loader's countries, or every market of its currency when its feed said none. */
  readonly countries: ReadonlyArray<string>
}

interface Row {
  readonly id: string
  readonly title: string
  readonly brand: string | null
  readonly category: string | null
  readonly product_type: string | null
  readonly price: number
  readonly currency: string
  readonly availability: string
  readonly gtin: string | null
  readonly color: string | null
  readonly size: string | null
  readonly condition: string | null
  readonly gender: string | null
  readonly age_group: string | null
  readonly countries: string | null
}

const SQL = `SELECT id, title, brand, category, product_type, current_price::DOUBLE AS price, currency, availability,
  gtin, color, size, condition, gender, age_group, countries FROM products ORDER BY id`

const levelsOf = (row: Row) => {
  const path = (row.product_type ?? "").split(/\s*>\s*/).filter((level) => level.length > 0)
  return {
    top: row.category !== null && path[0] === row.category ? row.category : null,
    leaf: path[path.length - 1] ?? null
  }
}

export const catalogRows = Database.use((db) => db.query<Row>(SQL)).pipe(
  Effect.map((rows) =>
    rows.map((row): CatalogRow => ({
      id: row.id,
      title: row.title,
      brand: row.brand,
      categories: categoryLevels(row.category, row.product_type),
      ...levelsOf(row),
      price: Number(row.price),
      currency: row.currency,
      inStock: row.availability !== "out_of_stock",
      group: groupKey(row.gtin, row.title, { color: row.color, size: row.size, condition: row.condition }),
      gender: genderOf(row.gender, row.title),
      ageGroup: ageGroupOf(row.age_group, row.title, categoryLevels(row.category, row.product_type)),
      countries: sellingCountries(row.countries, row.currency)
    }))
  )
)
