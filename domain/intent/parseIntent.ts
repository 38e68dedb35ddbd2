import { describeAudience, parseAudience, type Audience } from "./audience.ts"
import { parsePrice, type PriceConstraint } from "./price.ts"
import { matchVocabulary, type Vocabulary } from "./vocabulary.ts"

// Turns a free-text shopping phrase into a Meilisearch filter, a cleaned
// query and a sentence saying how it was understood. Pure: the catalog's
// category and brand names come in as a Vocabulary.

export interface Intent {
  /** The product words left once category and brand words became filters (may be empty). */
  readonly query: string
  /** Every product word, category and brand words included: what to send as `q`, so they also rank. */
  readonly broadQuery: string
  readonly price?: PriceConstraint
  readonly categories: ReadonlyArray<string>
  readonly brands: ReadonlyArray<string>
  readonly audience: Audience
  /** Meilisearch filter expressions, to be AND-ed (stock is the caller's concern). */
  readonly filters: ReadonlyArray<string>
  /** Human-readable reading of the phrase, for `guidance`. */
  readonly interpretation: string
}

// Words that frame a request but name no product.
const FILLER = new Set([
  "a", "an", "the", "for", "my", "me", "i", "im", "i'm", "need", "want", "wants", "looking", "find", "show", "some",
  "something", "good", "best", "great", "nice", "top", "buy", "to", "who", "that", "is", "are", "of", "on", "please",
  "gift", "gifts", "present", "presents", "idea", "ideas", "recommend", "recommendation", "recommendations", "any",
  "get", "what", "whats", "what's", "can", "you", "suggest", "with", "budget", "price", "priced", "costing", "cost",
  "in", "under", "year", "old", "and", "or", "our", "his", "her", "their", "likes", "like", "loves", "into", "s"
])

/** Meilisearch string literal: double quotes, with quotes and backslashes escaped. */
export const quote = (value: string) => `"${value.replaceAll("\\", "\\\\").replaceAll("\"", "\\\"")}"`

const money = (value: number, currency?: string) =>
  `${Number.isInteger(value) ? value : value.toFixed(2)}${currency ? ` ${currency}` : ""}`

export const describePrice = (price: PriceConstraint) =>
  price.min !== undefined && price.max !== undefined
    ? `price between ${money(price.min, price.currency)} and ${money(price.max, price.currency)}`
    : price.max !== undefined
    ? `price at most ${money(price.max, price.currency)}`
    : `price at least ${money(price.min ?? 0, price.currency)}`

const productWords = (text: string) => {
  const words = text
    .replace(/[^\p{L}\p{N}\s'&+.-]/gu, " ")
    .split(/\s+/)
    .map((word) => word.replace(/^['.&+-]+|['.&+-]+$/g, ""))
    .filter((word) => word.length > 0 && !FILLER.has(word))
  return [...new Set(words)].join(" ")
}

export const parseIntent = (phrase: string, vocabulary: Vocabulary = { categories: [], brands: [] }): Intent => {
  const original = phrase.trim().replace(/\s+/g, " ")
  const priced = parsePrice(original)
  const { audience, rest: afterAudience } = parseAudience(priced.rest)
  const { categories, brands, rest: afterVocabulary } = matchVocabulary(afterAudience, vocabulary, audience.interests)
  const query = productWords(afterVocabulary)
  const broadQuery = productWords(afterAudience)

  const filters: Array<string> = []
  const price = priced.constraint
  if (price?.min !== undefined) filters.push(`price >= ${price.min}`)
  if (price?.max !== undefined) filters.push(`price <= ${price.max}`)
  if (price?.currency !== undefined) filters.push(`currency = ${quote(price.currency)}`)
  if (categories.length > 0) filters.push(`categories IN [${categories.map(quote).join(", ")}]`)
  if (brands.length > 0) filters.push(`brand IN [${brands.map(quote).join(", ")}]`)

  const parts: Array<string> = [broadQuery.length > 0 ? `searching for "${broadQuery}"` : "no product words (browsing the best deals)"]
  if (price !== undefined) parts.push(`${describePrice(price)} (from "${price.phrase}")`)
  if (categories.length > 0) parts.push(`category: ${categories.join(" or ")}`)
  if (brands.length > 0) parts.push(`brand: ${brands.join(" or ")}`)
  const who = describeAudience(audience)
  if (who !== undefined) parts.push(who)

  return {
    query,
    broadQuery,
    ...(price ? { price } : {}),
    categories,
    brands,
    audience,
    filters,
    interpretation: parts.join("; ")
  }
}
