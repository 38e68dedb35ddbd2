// Words that say what kind of offer the shopper prefers, not what product:
// "cheap shoes" asks for shoes, lower prices first; "top rated jacket" asks
// for a jacket, the stronger offers first. They are never words to match.

export type Preference = "lower_price" | "stronger_offer"

export interface Modifier {
  /** The words as the shopper typed them ("top rated"). */
  readonly words: string
  readonly preference: Preference
}

// Longest phrases first, so "low cost" is read before "low" could be.
const PHRASES: ReadonlyArray<readonly [string, Preference]> = [
  ["best value", "lower_price"],
  ["value for money", "lower_price"],
  ["low cost", "lower_price"],
  ["low-cost", "lower_price"],
  ["low priced", "lower_price"],
  ["low price", "lower_price"],
  ["cheapest", "lower_price"],
  ["cheaper", "lower_price"],
  ["cheap", "lower_price"],
  ["affordable", "lower_price"],
  ["budget", "lower_price"],
  ["inexpensive", "lower_price"],
  ["bargain", "lower_price"],
  ["economical", "lower_price"],
  ["top rated", "stronger_offer"],
  ["top-rated", "stronger_offer"],
  ["highly rated", "stronger_offer"],
  ["best rated", "stronger_offer"],
  ["well reviewed", "stronger_offer"],
  ["good quality", "stronger_offer"],
  ["high quality", "stronger_offer"],
  ["quality", "stronger_offer"],
  ["high end", "stronger_offer"],
  ["high-end", "stronger_offer"],
  ["best selling", "stronger_offer"],
  ["bestselling", "stronger_offer"],
  ["best", "stronger_offer"],
  ["premium", "stronger_offer"],
  ["popular", "stronger_offer"],
  ["top", "stronger_offer"],
  ["luxury", "stronger_offer"],
  ["reliable", "stronger_offer"]
]

const PATTERNS = PHRASES.map(([words, preference]) => ({
  words,
  preference,
  pattern: new RegExp(`(?<![\\p{L}\\p{N}'-])${words}(?![\\p{L}\\p{N}'-])`, "gu")
}))

export const PREFERENCE_TEXT: Record<Preference, string> = {
  lower_price: "prefer lower prices among equally relevant products",
  stronger_offer: "prefer stronger offers (deal score, in stock) among equally relevant products"
}

export interface ModifierParse {
  readonly modifiers: ReadonlyArray<Modifier>
  /** What the shopper asked for when modifiers disagree: the first one said wins. */
  readonly preference?: Preference
  readonly rest: string
}

/** Removes modifier words from a lower-case phrase and says how each was read. */
export const parseModifiers = (input: string): ModifierParse => {
  let text = input
  const found: Array<{ at: number; modifier: Modifier }> = []
  for (const { words, preference, pattern } of PATTERNS) {
    text = text.replace(pattern, (match, at: number) => {
      found.push({ at, modifier: { words, preference } })
      return " ".repeat(match.length)
    })
  }
  const modifiers = found.sort((a, b) => a.at - b.at).map(({ modifier }) => modifier)
  return {
    modifiers,
    ...(modifiers.length > 0 ? { preference: modifiers[0].preference } : {}),
    rest: text.replace(/\s+/g, " ").trim()
  }
}
