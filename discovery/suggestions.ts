import type { Intent } from "../domain/intent/parseIntent.ts"
import type { DealOffer } from "../readModel/modelDocuments.ts"

// The ways forward from an empty answer, each one a phrase (and category)
// to search next that the catalog is known to answer: the cheapest match in
// each currency when a price bound excluded everything ("headphones from
// 79.99 USD"), the phrase without its price limit, and the words in every
// category when the category parameter excluded everything. The figures come
// from the products found, never from the phrase.

export type SuggestionKind = "cheapest_match" | "without_price_limit" | "other_category"

export interface Suggestion {
  readonly kind: SuggestionKind
  /** What to show the shopper: "headphones from 79.99 USD". */
  readonly text: string
  /** The phrase to search next. */
  readonly q: string
  /** The category to search next (absent: every category). */
  readonly category?: string
  /** cheapest_match: the cheapest matching product's price in that currency, and its title. */
  readonly price?: { readonly amount: number; readonly currency: string }
  readonly title?: string
}

const money = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`

/** The phrase without the words its price bound was read from ("headphones under 50" -> "headphones"). */
export const withoutPrice = (phrase: string, intent: Intent): string => {
  const words = intent.price?.phrase
  const rest = words === undefined ? phrase : phrase.replace(words, " ")
  const cleaned = rest.replace(/\s+/g, " ").trim()
  return cleaned === "" ? intent.broadQuery : cleaned
}

/** The cheapest offer per currency among `offers`, by currency code. */
export const cheapestPerCurrency = (offers: ReadonlyArray<DealOffer>): Array<DealOffer> => {
  const cheapest = new Map<string, DealOffer>()
  for (const offer of offers) {
    const known = cheapest.get(offer.currency)
    if (known === undefined || offer.price < known.price) cheapest.set(offer.currency, offer)
  }
  return [...cheapest.values()].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0))
}

export interface SuggestionFacts {
  readonly phrase: string
  readonly intent: Intent
  readonly category: string | undefined
  /** Cheapest match per currency once the price bound (and its currency) is dropped. */
  readonly cheapest: ReadonlyArray<DealOffer>
  /** Products matching the words outside the category parameter. */
  readonly outsideCategory: number
}

export const suggestionsFor = ({ phrase, intent, category, cheapest, outsideCategory }: SuggestionFacts) => {
  const out: Array<Suggestion> = []
  const inCategory = category === undefined || category.trim() === "" ? {} : { category: category.trim() }
  if (intent.price !== undefined && cheapest.length > 0) {
    const unbounded = withoutPrice(phrase, intent)
    const named = intent.broadQuery === "" ? "matches" : intent.broadQuery
    for (const offer of cheapest.slice(0, 3)) {
      out.push({
        kind: "cheapest_match",
        text: `${named} from ${money(offer.price, offer.currency)}`,
        // a bound that admits this product, in its currency
        q: `${unbounded} under ${Math.ceil(offer.price)} ${offer.currency.toLowerCase()}`,
        ...inCategory,
        price: { amount: offer.price, currency: offer.currency },
        title: offer.title
      })
    }
    out.push({
      kind: "without_price_limit",
      text: `${unbounded} at any price`,
      q: unbounded,
      ...inCategory
    })
  }
  if (category !== undefined && category.trim() !== "" && outsideCategory > 0) {
    out.push({
      kind: "other_category",
      text: `${phrase} in another category (${outsideCategory} product${outsideCategory === 1 ? "" : "s"})`,
      q: phrase
    })
  }
  return out
}
