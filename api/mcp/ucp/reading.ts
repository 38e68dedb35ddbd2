import type { Intent } from "../../../domain/intent/parseIntent.ts"
import { searchAttempts } from "../../../discovery/relaxation.ts"
import type { Context, Filters } from "./filters.ts"

// How search_catalog reads a request, with the intent reader of /api/search
// (domain/intent/parseIntent.ts): `query` gives the product words and any
// price, recipient or preference in them; `context.intent` is background
// ("a gift under $50"): its price, recipient and preference apply, its words
// are searched only when there is no query. Structured filters win over
// words: a `filters.price` (or `context.currency`) replaces a price read from
// the words, `filters.categories` and `filters.brand` the category and brand
// read from them. Pure.

/** The field a Meilisearch expression constrains ("price <= 100" -> "price"). */
const fieldOf = (expression: string) => expression.split(" ", 1)[0]

/** Fields the structured filters set, which the words must not set again. */
const structuredFields = (filters: Filters | undefined, context: Context | undefined) => {
  const fields = new Set<string>()
  if (filters?.price !== undefined || context?.currency !== undefined) fields.add("price").add("currency")
  if (filters?.categories !== undefined) fields.add("categories")
  if (filters?.brand !== undefined) fields.add("brand")
  return fields
}

export interface Reading {
  /** The intent searched: the query's words, with the background's constraints it lacks. */
  readonly intent: Intent
  /** Expressions the words set (price, category, brand), without those the structured filters replace. */
  readonly wordFilters: ReadonlyArray<string>
  /** How the request was read, for the answer's messages. */
  readonly explanation: string
}

export const readRequest = (
  query: Intent | undefined,
  background: Intent | undefined,
  filters: Filters | undefined,
  context: Context | undefined
): Reading | undefined => {
  const main = query ?? background
  if (main === undefined) return undefined
  const fromQuery = new Set(main.filters.map(fieldOf))
  // the background's constraints the query does not state itself (its words are not searched)
  const extra =
    query !== undefined && background !== undefined
      ? background.filters.filter((f) => !fromQuery.has(fieldOf(f)) && !["categories", "brand"].includes(fieldOf(f)))
      : []
  const overridden = structuredFields(filters, context)
  const all = [...main.filters, ...extra]
  const wordFilters = all.filter((f) => !overridden.has(fieldOf(f)))
  const replaced = [...new Set(all.filter((f) => overridden.has(fieldOf(f))).map(fieldOf))]
  const preference = main.preference ?? (query !== undefined ? background?.preference : undefined)
  const intent: Intent = { ...main, filters: wordFilters, ...(preference ? { preference } : {}) }
  const parts = [
    query !== undefined ? `query read as: ${query.interpretation}` : undefined,
    background !== undefined ? `context.intent read as: ${background.interpretation}` : undefined,
    query !== undefined && background !== undefined
      ? "the words of context.intent rank nothing; its price, recipient and preference apply"
      : undefined,
    replaced.length > 0 ? `filters given replace what the words said about: ${replaced.join(", ")}` : undefined
  ]
  return { intent, wordFilters, explanation: parts.filter((part) => part !== undefined).join(". ") }
}

/** The search steps of a reading, strictest first, in stock only (an agent should not offer what cannot be bought). */
export const readingSteps = (reading: Reading) =>
  searchAttempts(reading.intent, undefined).filter((attempt) => attempt.inStock)
