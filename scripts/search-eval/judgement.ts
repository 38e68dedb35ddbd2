import type { CatalogRow } from "./catalog.ts"

// What a correct answer to a judged query must satisfy, and the check itself.

export interface Constraints {
  /** Any of these words (lower case, singular or plural form) in the title or a category level. */
  readonly words?: ReadonlyArray<string>
  /** A category level the product sits under ("Electronics", "Earbuds"). */
  readonly category?: string
  readonly brand?: string
  readonly minPrice?: number
  readonly maxPrice?: number
  readonly currency?: string
  /** Who the results must suit: never a product of the other gender (unisex and unsaid are fine). */
  readonly gender?: "male" | "female"
  /** Age groups a result must not have (products that say none are fine). */
  readonly notAgeGroups?: ReadonlyArray<string>
  /** A result must sit under one of these categories or have one of these age groups. */
  readonly anyOf?: { readonly categories: ReadonlyArray<string>; readonly ageGroups: ReadonlyArray<string> }
}

/** What a judged query checks besides its constraints. */
export interface Checks {
  /** Price words: results cheapest first within a currency, the first the cheapest that meets the constraints. */
  readonly cheapestFirst?: boolean
  /** An empty answer: its cheapest-match suggestions must be true (the product exists, nothing matching is cheaper). */
  readonly suggestions?: boolean
}

export interface Judgement {
  readonly q: string
  /** Which phrasing family the query tests (plural, modifier, filler, typo, ...). */
  readonly family: string
  readonly constraints: Constraints
  /** Products (search groups: one per model) that must be among the first 8 results. */
  readonly mustAppear: ReadonlyArray<string>
  /** How many products (groups) meet the constraints; 0 means the right answer is empty. */
  readonly satisfying: number
  readonly checks?: Checks
}

export interface JudgementSet {
  readonly note: string
  readonly judgements: ReadonlyArray<Judgement>
}

/** Lower-case words of a text (apostrophes dropped: "kids'" -> "kids"). */
export const wordsOf = (text: string): Array<string> =>
  text
    .toLowerCase()
    .replace(/['\u2019]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)

const rowWords = new WeakMap<CatalogRow, Set<string>>()
const wordSet = (row: CatalogRow) => {
  let words = rowWords.get(row)
  if (words === undefined) {
    words = new Set([...wordsOf(row.title), ...row.categories.flatMap(wordsOf)])
    rowWords.set(row, words)
  }
  return words
}

export const meets = (row: CatalogRow, c: Constraints): boolean =>
  (c.words === undefined || c.words.some((word) => wordSet(row).has(word))) &&
  (c.category === undefined || row.categories.includes(c.category)) &&
  (c.brand === undefined || row.brand === c.brand) &&
  (c.minPrice === undefined || row.price >= c.minPrice) &&
  (c.maxPrice === undefined || row.price <= c.maxPrice) &&
  (c.currency === undefined || row.currency === c.currency) &&
  (c.gender === undefined || !isOppositeGender(row, c.gender)) &&
  (c.notAgeGroups === undefined || row.ageGroup === null || !c.notAgeGroups.includes(row.ageGroup)) &&
  (c.anyOf === undefined ||
    c.anyOf.categories.some((category) => row.categories.includes(category)) ||
    (row.ageGroup !== null && c.anyOf.ageGroups.includes(row.ageGroup)))

/** A product made for the other gender than the one asked for. */
export const isOppositeGender = (row: CatalogRow, gender: "male" | "female"): boolean =>
  row.gender === (gender === "male" ? "female" : "male")

/**
 * The groups (one per model) with an offer meeting the constraints: in stock
 * when any is, since search shows out-of-stock offers only when nothing in
 * stock matches.
 */
export const satisfyingGroups = (rows: ReadonlyArray<CatalogRow>, c: Constraints): Set<string> => {
  const meeting = rows.filter((row) => meets(row, c))
  const inStock = meeting.filter((row) => row.inStock)
  return new Set((inStock.length > 0 ? inStock : meeting).map((row) => row.group))
}
