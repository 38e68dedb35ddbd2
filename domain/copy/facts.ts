import { formatPrice } from "../money/formatPrice.ts"

// What generated copy may say: the programme and its products as plain
// values from our catalog. Every number a piece of copy contains must be one
// of these (checkFacts.ts), so neither generator can invent a price.

export const COPY_TYPES = ["social", "email", "blog", "deal_alert"] as const
export type CopyType = (typeof COPY_TYPES)[number]

export const TONES = ["casual", "professional", "enthusiastic", "informative"] as const
export type Tone = (typeof TONES)[number]

export interface ProductFact {
  readonly id: string
  readonly title: string
  readonly brand: string | null
  readonly category: string | null
  /** What a shopper pays now. */
  readonly price: number
  readonly currency: string
  /** Our own 30-day reference price, only when the current price is verifiably below it (domain/deals/deal.ts). */
  readonly referencePrice: number | null
  /** Percent below referencePrice; null exactly when referencePrice is. */
  readonly discountPercent: number | null
  readonly availability: string
  /** The product page at the merchant. */
  readonly url: string
}

export interface CopyFacts {
  /** The store as shoppers know it (the programme name without a network suffix). */
  readonly store: string
  /** The merchant's main domain, e.g. "example-store.com". */
  readonly domain: string
  /** The most common category among the products, if any. */
  readonly category: string | null
  /** Best first: in stock, then deepest verified discount. */
  readonly products: ReadonlyArray<ProductFact>
}

/** Products with a verified saving, best first. */
export const dealsOf = (facts: CopyFacts): ReadonlyArray<ProductFact> =>
  facts.products.filter((product) => product.referencePrice !== null && product.discountPercent !== null)

/**
 * Programme names often carry the network or country as a suffix
 * ("Example Store (CJ)"); shoppers know the store by the rest.
 */
export const storeName = (programName: string): string => {
  const stripped = programName.replace(/\s*\([^)]*\)\s*$/, "").trim()
  return stripped.length > 0 ? stripped : programName.trim()
}

/**
 * "$79.00", "£1,041.99", "153,99 €", "CHF 1'499.50": as people write prices in
 * that currency; the number checker reads each back as the fact's value.
 */
export const money = formatPrice

/**
 * A product title short enough for copy: the part before the first comma,
 * dash or bar, cut at a word boundary. Words are never split, so no number
 * in the result is a fragment of a longer one.
 */
export const shortTitle = (title: string, max = 60): string => {
  const head = title.split(/\s*(?:,|\s[-–|]\s|:)\s*/)[0]?.trim() || title.trim()
  if (head.length <= max) return head
  const words = head.split(/\s+/)
  let out = ""
  for (const word of words) {
    if ((out.length === 0 ? word.length : out.length + 1 + word.length) > max) break
    out = out.length === 0 ? word : `${out} ${word}`
  }
  return out.length > 0 ? out : head.slice(0, max)
}
