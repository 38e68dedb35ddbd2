import { quote } from "../../../domain/intent/parseIntent.ts"
import { countryFilter } from "../../../discovery/marketIntent.ts"
import type { ProductDocument } from "../../../readModel/documents.ts"
import type { SearchCatalogParams } from "../toolDefinitions.ts"
import { fromMinor } from "./products.ts"

// UCP search filters and context -> Meilisearch filter expressions (search),
// or a predicate on documents already fetched (lookup, get_product).

type Catalog = (typeof SearchCatalogParams.Type)["catalog"]
export type Filters = NonNullable<Catalog["filters"]>
export type Context = NonNullable<Catalog["context"]>

const anyOf = (field: string, values: ReadonlyArray<string> | undefined) =>
  values === undefined ? [] : [`${field} IN [${values.map((value) => quote(value.trim())).join(", ")}]`]

export const filterExpressions = (filters: Filters | undefined, context: Context | undefined): Array<string> => {
  const currency = context?.currency
  const country = context?.address_country
  return [
    // the shopper's market: offers sold in its country (discovery/marketIntent.ts)
    ...(country !== undefined ? [countryFilter(country.trim().toUpperCase())] : []),
    ...anyOf("categories", filters?.categories),
    ...anyOf("brand", filters?.brand),
    ...(filters?.price?.min !== undefined ? [`price >= ${fromMinor(filters.price.min, currency)}`] : []),
    ...(filters?.price?.max !== undefined ? [`price <= ${fromMinor(filters.price.max, currency)}`] : []),
    ...(currency !== undefined ? [`currency = ${quote(currency)}`] : []),
    // Out-of-stock offers only when asked for: an agent should not recommend what cannot be bought.
    ...(filters?.availability !== undefined ? anyOf("availability", filters.availability) : ["in_stock = true"])
  ]
}

const lower = (values: ReadonlyArray<string>) => values.map((value) => value.trim().toLowerCase())

/** The same filters on one document; without availability filter, out-of-stock offers stay (an id asked for is shown). */
export const matchesFilters = (doc: ProductDocument, filters: Filters | undefined, context: Context | undefined) => {
  const currency = context?.currency
  if (currency !== undefined && doc.currency !== currency) return false
  const country = context?.address_country?.trim().toUpperCase()
  if (country !== undefined && !doc.countries.includes(country)) return false
  if (filters?.categories && !lower(doc.categories).some((category) => lower(filters.categories!).includes(category)))
    return false
  if (filters?.brand && !lower(filters.brand).includes(doc.brand?.toLowerCase() ?? "")) return false
  if (filters?.price?.min !== undefined && doc.price < fromMinor(filters.price.min, doc.currency)) return false
  if (filters?.price?.max !== undefined && doc.price > fromMinor(filters.price.max, doc.currency)) return false
  if (filters?.availability && !(filters.availability as ReadonlyArray<string>).includes(doc.availability)) return false
  return true
}
