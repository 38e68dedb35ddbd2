import { describeAudience, parseAudience, type Audience } from "./audience.ts"
import { peopleReading } from "./people.ts"
import { parseModifiers, PREFERENCE_TEXT, type Modifier, type Preference } from "./modifiers.ts"
import { parsePrice, type PriceConstraint } from "./price.ts"
import { dropFillerPhrases, isStopWord } from "./stopWords.ts"
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
  /** The gift categories browsed when the phrase named a person but no product (else empty). */
  readonly giftCategories: ReadonlyArray<string>
  /** Words read as a preference ("cheap", "top rated"): they order results, they are never matched. */
  readonly modifiers: ReadonlyArray<Modifier>
  /** The preference the modifiers express (the first one typed wins). */
  readonly preference?: Preference
  /** Filler dropped from the query ("i need", "please"), in the order typed. */
  readonly ignored: ReadonlyArray<string>
  /** Meilisearch filter expressions, to be AND-ed (stock is the caller's concern). */
  readonly filters: ReadonlyArray<string>
  /** Human-readable reading of the phrase, for `guidance`. */
  readonly interpretation: string
}

/** Meilisearch string literal: double quotes, with quotes and backslashes escaped. */
export const quote = (value: string) => `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`

const money = (value: number, currency?: string) =>
  `${Number.isInteger(value) ? value : value.toFixed(2)}${currency ? ` ${currency}` : ""}`

export const describePrice = (price: PriceConstraint) =>
  price.min !== undefined && price.max !== undefined
    ? `price between ${money(price.min, price.currency)} and ${money(price.max, price.currency)}`
    : price.max !== undefined
      ? `price at most ${money(price.max, price.currency)}`
      : `price at least ${money(price.min ?? 0, price.currency)}`

const wordsOf = (text: string) =>
  text
    .replace(/[^\p{L}\p{N}\s'&+.-]/gu, " ")
    .split(/\s+/)
    .map((word) => word.replace(/^['.&+-]+|['.&+-]+$/g, ""))
    .filter((word) => word.length > 0)

const productWords = (text: string) => [...new Set(wordsOf(text).filter((word) => !isStopWord(word)))].join(" ")

/**
 * The reading, in a fixed order, each step removing what it understood:
 * price, then who it is for, then modifiers (a preference, never words to
 * match), then brand and category words, then filler. Every step sees the
 * same text whatever follows it, so "cheap electronics" reads the same
 * before any price phrasing.
 */
export const parseIntent = (phrase: string, vocabulary: Vocabulary = { categories: [], brands: [] }): Intent => {
  const original = phrase.trim().replace(/\s+/g, " ")
  const priced = parsePrice(original)
  const { audience, rest: afterAudience } = parseAudience(priced.rest)
  const { modifiers, preference, rest: afterModifiers } = parseModifiers(afterAudience)
  // Brands before filler: "new" is filler, "New Balance" a brand.
  let vocabularyMatch = matchVocabulary(afterModifiers, vocabulary, audience.interests)
  if (productWords(afterModifiers) === "" && vocabularyMatch.categories.length + vocabularyMatch.brands.length === 0) {
    // A phrase that is nothing but a recipient word may name a category ("baby", "kids").
    const whole = matchVocabulary(parseModifiers(priced.rest).rest, vocabulary)
    if (whole.categories.length + whole.brands.length > 0) vocabularyMatch = { ...whole, rest: "" }
  }
  const { categories, brands, rest: afterVocabulary } = vocabularyMatch
  const filler = dropFillerPhrases(afterVocabulary)
  const ignored = [...filler.ignored, ...wordsOf(filler.rest).filter(isStopWord)]
  const query = productWords(filler.rest)
  const broadQuery = productWords(dropFillerPhrases(afterModifiers).rest)

  const filters: Array<string> = []
  const price = priced.constraint
  if (price?.min !== undefined) filters.push(`price >= ${price.min}`)
  if (price?.max !== undefined) filters.push(`price <= ${price.max}`)
  if (price?.currency !== undefined) filters.push(`currency = ${quote(price.currency)}`)
  if (categories.length > 0) filters.push(`categories IN [${categories.map(quote).join(", ")}]`)
  if (brands.length > 0) filters.push(`brand IN [${brands.map(quote).join(", ")}]`)
  // The person a gift is for narrows the products; naming no product, the phrase browses their gift categories.
  const browsing = broadQuery === "" && categories.length === 0 && brands.length === 0
  const people = peopleReading(audience, browsing, vocabulary)
  filters.push(...people.filters)

  const parts: Array<string> = [
    broadQuery.length > 0
      ? `searching for "${broadQuery}"`
      : people.giftCategories.length > 0
        ? "no product words (browsing the best-rated deals in gift categories for that person)"
        : "no product words (browsing the best deals)"
  ]
  if (price !== undefined) parts.push(`${describePrice(price)} (from "${price.phrase}")`)
  if (categories.length > 0) parts.push(`category: ${categories.join(" or ")}`)
  if (brands.length > 0) parts.push(`brand: ${brands.join(" or ")}`)
  const who = describeAudience(audience)
  if (who !== undefined) parts.push(who)
  if (people.used.length > 0) parts.push(`used: ${people.used.join("; ")}`)
  for (const modifier of modifiers) parts.push(`read "${modifier.words}" as: ${PREFERENCE_TEXT[modifier.preference]}`)
  if (ignored.length > 0)
    parts.push(`ignored as filler: ${[...new Set(ignored)].map((words) => `"${words}"`).join(", ")}`)

  return {
    query,
    broadQuery,
    ...(price ? { price } : {}),
    categories,
    brands,
    audience,
    giftCategories: people.giftCategories,
    modifiers,
    ...(preference ? { preference } : {}),
    ignored,
    filters,
    interpretation: parts.join("; ")
  }
}
