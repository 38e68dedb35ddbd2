import type { CopyFacts } from "./facts.ts"

// The fact checker: whatever wrote the copy, it may only use numbers from
// our catalog and may not make promises we cannot back (coupon codes,
// shipping, guarantees, urgency). Applied to the LLM's answer before it is
// used, and by the tests to the template generator's output.

// 1,299.99 / 1.299,99 / 79.00 / 79,5 / 33 (a digit run with separators),
// and the group separators prices use in some locales (formatPrice):
// 1 041,99 kr (no-break or narrow no-break space), CHF 1'499.50 (apostrophe).
const GROUP = "[\u00a0\u202f'\u2019]"
const NUMBER = new RegExp(`\\d+(?:[.,]\\d+|${GROUP}\\d{3}(?!\\d))*`, "g")
const GROUPS = new RegExp(GROUP, "g")

/** The numeric value of a token such as "1,299.99", "1.299,99", "1 041,99", "79,50" or "4". */
export const parseNumber = (written: string): number => {
  const token = written.replace(GROUPS, "")
  const lastSep = Math.max(token.lastIndexOf("."), token.lastIndexOf(","))
  if (lastSep === -1) return Number(token)
  const decimals = token.length - lastSep - 1
  // One separator followed by exactly three digits is a thousands separator ("1,299").
  const separators = token.match(/[.,]/g)!.length
  if (decimals === 3 && (separators > 1 ? token[lastSep] === token[token.search(/[.,]/)] : true)) {
    return Number(token.replace(/[.,]/g, ""))
  }
  return Number(`${token.slice(0, lastSep).replace(/[.,]/g, "")}.${token.slice(lastSep + 1)}`)
}

/** Every number written in `text`, as values. */
export const numbersIn = (text: string): Array<number> => [...text.matchAll(NUMBER)].map((m) => parseNumber(m[0]))

const key = (value: number) => (Math.round(value * 100) / 100).toFixed(2)

/** The numbers copy may contain: prices, reference prices, discounts, and numbers in names (titles, brands, store). */
export const allowedNumbers = (facts: CopyFacts): ReadonlySet<string> => {
  const allowed = new Set<string>()
  const addText = (text: string | null) => {
    if (text !== null) for (const n of numbersIn(text)) allowed.add(key(n))
  }
  addText(facts.store)
  addText(facts.domain)
  addText(facts.category)
  for (const product of facts.products) {
    allowed.add(key(product.price))
    if (product.referencePrice !== null) allowed.add(key(product.referencePrice))
    if (product.discountPercent !== null) allowed.add(key(product.discountPercent))
    addText(product.title)
    addText(product.brand)
    addText(product.category)
  }
  return allowed
}

/** Numbers in `text` that are not facts (empty when the copy is clean). */
export const inventedNumbers = (text: string, facts: CopyFacts): Array<string> => {
  const allowed = allowedNumbers(facts)
  return [...text.matchAll(NUMBER)].map((m) => m[0]).filter((token) => !allowed.has(key(parseNumber(token))))
}

// Claims we never have facts for. Our catalog knows prices, reference prices,
// availability and names: nothing about codes, shipping, returns, stock
// counts, rankings or deadlines.
const UNSUPPORTED_CLAIMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(coupon|promo(tion(al)?)?\s*code|discount\s*code|voucher|use\s+code|redeem|code\s*:)/i, "coupon or promo code"],
  [/\bfree\s+(shipping|delivery|returns?|gift|trial)\b/i, "free shipping, returns or gifts"],
  [
    /\b(lowest|best)\s+price(s)?\s+(ever|guaranteed|anywhere|online)\b|\ball[-\s]time\s+low\b|\bprice\s+match/i,
    "price ranking"
  ],
  [/\bguarantee/i, "guarantee"],
  [
    /\b(limited[-\s]time|ends\s+(today|tonight|soon|midnight)|last\s+chance|only\s+\w+\s+left|while\s+(stocks?|supplies)\s+last|hurry)\b/i,
    "urgency or stock count"
  ],
  [/\b(top[-\s]rated|rated|rave\s+reviews|bestsell(er|ing)|number\s+one)\b|#1\b/i, "ratings or rankings"]
]

/** Unsupported claims found in `text`, by kind (empty when clean). */
export const unsupportedClaims = (text: string): Array<string> =>
  UNSUPPORTED_CLAIMS.filter(([pattern]) => pattern.test(text)).map(([, kind]) => kind)

/** Links are ours to place: generated text must not carry any. */
export const containsLink = (text: string): boolean => /(https?:\/\/|www\.)\S+/i.test(text)
