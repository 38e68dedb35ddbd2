import { round2 } from "../money/round2.ts"

// Price constraints in a shopping phrase: "under $100", "between 20 and 40
// euros", "$30-$60", "less than 50", "over 200", "100 bucks or less".
// A number only counts as a price when a comparator or a currency says so:
// "4k tv", "55 inch", "10 year old" and "2 tb" are product words. The short
// comparators "max" and "min" also name models ("Air Max 90", "Pro Max 256"),
// so before a number they count only when a currency says it is money
// ("max $40", "min 20 euros").

export type Currency = "USD" | "EUR" | "GBP"

export interface PriceConstraint {
  readonly min?: number
  readonly max?: number
  readonly currency?: Currency
  /** The phrase that was understood, e.g. "under $100". */
  readonly phrase: string
}

const CURRENCY_WORD = String.raw`usd|us dollars?|dollars?|bucks|eur|euros?|€|£|gbp|pounds?|quid|\$`
const NUMBER = String.raw`\d[\d,]*(?:\.\d{1,2})?(?:\s?k\b)?`
const AMOUNT = String.raw`(?:(?:us\$|\$|€|£)\s?)?${NUMBER}(?:\s?(?:${CURRENCY_WORD})(?![a-z]))?`
/** An amount a currency marks as money: "$90", "90 euros", "£90 gbp". */
const MONEY = String.raw`(?:(?:us\$|\$|€|£)\s?${NUMBER}(?:\s?(?:${CURRENCY_WORD})(?![a-z]))?|${NUMBER}\s?(?:${CURRENCY_WORD})(?![a-z]))`

const currencyOf = (text: string): Currency | undefined => {
  if (/\$|usd|dollar|bucks/.test(text)) return "USD"
  if (/€|eur/.test(text)) return "EUR"
  if (/£|gbp|pound|quid/.test(text)) return "GBP"
  return undefined
}

interface Amount {
  readonly value: number
  readonly currency?: Currency
  readonly explicit: boolean
}

/** Far above any product price, and printed without an exponent. */
const MAX_AMOUNT = 1_000_000_000

const parseAmount = (text: string): Amount | undefined => {
  const currency = currencyOf(text)
  const digits = /\d[\d,]*(?:\.\d{1,2})?/.exec(text)
  if (digits === null) return undefined
  let value = Number(digits[0].replaceAll(",", ""))
  // "1k" only with a currency: "4k tv" is a resolution, "$1k" is money.
  if (/\d\s?k\b/.test(text)) {
    if (currency === undefined) return undefined
    value *= 1000
  }
  if (!Number.isFinite(value)) return undefined
  // A bound beyond any price is no bound, and must stay a plain decimal:
  // 1e23 would reach Meilisearch's filter parser in exponent form and fail.
  value = Math.min(value, MAX_AMOUNT)
  return currency === undefined ? { value, explicit: false } : { value, currency, explicit: true }
}

// Words after a bare number that make it a quantity, not a price.
const UNIT_AFTER =
  /^\s*(?:-\s*)?(?:years?|yrs?|yo\b|months?|weeks?|days?|hours?|inch|inches|in\b|"|''|cm|mm|m\b|ft|feet|gb|tb|mb|mp|hz|w\b|watts?|mah|v\b|volts?|pieces?|pcs|pack|players?|people|persons?|kg|g\b|lbs?|oz|ml|l\b|liters?|litres?|qt|quarts?|cups?|x\b|k\b|p\b|th\b|st\b|nd\b|rd\b|%|percent|seats?|ports?|speed|series|gen\b)/

const BEFORE_MAX = String.raw`under|below|less than|lower than|cheaper than|up to|upto|maximum|no more than|not more than|at most|within|budget(?: of)?|for less than|<=?`
const BEFORE_MIN = String.raw`over|above|at least|more than|greater than|minimum|starting at|from|upwards of|>=?`
const BEFORE_AROUND = String.raw`around|about|approximately|approx|roughly|~`
const AFTER_MAX = String.raw`or less|or under|or below|or cheaper|and under|and below|max|maximum|tops|at most`
const AFTER_MIN = String.raw`or more|or above|or over|and up|and above|and over|plus|\+`

const rangeBetween = new RegExp(String.raw`\b(?:between|from)\s+(${AMOUNT})\s*(?:and|to|-|–)\s*(${AMOUNT})`, "i")
const rangeDash = new RegExp(String.raw`(?<![\w.])(${AMOUNT})\s*(?:-|–|to)\s*(${AMOUNT})(?![\w])`, "i")
const beforeMax = new RegExp(String.raw`\b(?:${BEFORE_MAX})\s*(${AMOUNT})`, "i")
const beforeShortMax = new RegExp(String.raw`\bmax\s*(${MONEY})`, "i")
const beforeShortMin = new RegExp(String.raw`\bmin\s*(${MONEY})`, "i")
const beforeMin = new RegExp(String.raw`(?:\b|^)(?:${BEFORE_MIN})\s*(${AMOUNT})`, "i")
const beforeAround = new RegExp(String.raw`(?:\b|^)(?:${BEFORE_AROUND})\s*(${AMOUNT})`, "i")
const afterMax = new RegExp(String.raw`(?<![\w.])(${AMOUNT})\s*(?:${AFTER_MAX})(?![\w])`, "i")
const afterMin = new RegExp(String.raw`(?<![\w.])(${AMOUNT})\s*(?:${AFTER_MIN})`, "i")
const bare = new RegExp(String.raw`(?<![\w.])(${AMOUNT})(?![\w])`, "gi")

export interface PriceParse {
  readonly constraint?: PriceConstraint
  /** The phrase with the price words removed. */
  readonly rest: string
}

const isQuantity = (text: string, end: number, amount: Amount) => !amount.explicit && UNIT_AFTER.test(text.slice(end))

const remove = (text: string, match: RegExpExecArray) =>
  `${text.slice(0, match.index)} ${text.slice(match.index + match[0].length)}`.replace(/\s+/g, " ").trim()

export const parsePrice = (input: string): PriceParse => {
  const text = input.toLowerCase()

  // Ranges first: "between 20 and 40 euros", "$30-$60", "from 10 to 20 dollars".
  for (const pattern of [rangeBetween, rangeDash]) {
    const match = pattern.exec(text)
    if (match === null) continue
    const a = parseAmount(match[1])
    const b = parseAmount(match[2])
    if (a === undefined || b === undefined) continue
    // A bare "50-100" counts too, unless a unit follows ("3-5 years").
    if (isQuantity(text, match.index + match[0].length, b) || a.value === b.value) continue
    const currency = a.currency ?? b.currency
    const [min, max] = a.value <= b.value ? [a.value, b.value] : [b.value, a.value]
    return {
      constraint: { min, max, ...(currency ? { currency } : {}), phrase: match[0].trim() },
      rest: remove(text, match)
    }
  }

  const single = (pattern: RegExp, kind: "max" | "min" | "around") => {
    const match = pattern.exec(text)
    if (match === null) return undefined
    const amount = parseAmount(match[1])
    if (amount === undefined) return undefined
    const amountEnd = match.index + match[0].indexOf(match[1]) + match[1].length
    if (isQuantity(text, amountEnd, amount)) return undefined
    const currency = amount.currency ? { currency: amount.currency } : {}
    const bounds =
      kind === "max"
        ? { max: amount.value }
        : kind === "min"
          ? { min: amount.value }
          : { min: round2(amount.value * 0.8), max: round2(amount.value * 1.2) }
    return { constraint: { ...bounds, ...currency, phrase: match[0].trim() }, rest: remove(text, match) }
  }

  const found =
    single(afterMax, "max") ??
    single(afterMin, "min") ??
    single(beforeMax, "max") ??
    single(beforeShortMax, "max") ??
    single(beforeMin, "min") ??
    single(beforeShortMin, "min") ??
    single(beforeAround, "around")
  if (found !== undefined) return found

  // A bare amount with a currency ("a $50 gift") reads as a budget.
  for (const match of text.matchAll(bare)) {
    const amount = parseAmount(match[1])
    if (amount === undefined || !amount.explicit) continue
    return {
      constraint: {
        max: amount.value,
        ...(amount.currency ? { currency: amount.currency } : {}),
        phrase: match[0].trim()
      },
      rest: remove(text, match as RegExpExecArray)
    }
  }
  return { rest: text.replace(/\s+/g, " ").trim() }
}
