import type { CatalogRow } from "./catalog.ts"
import { derivePeopleJudgements } from "./derivePeople.ts"
import {
  satisfyingGroups,
  wordsOf,
  type Checks,
  type Constraints,
  type Judgement,
  type JudgementSet
} from "./judgement.ts"

// Derives the judged search set from catalog attributes alone, so it stays
// true when the samples change: product nouns are the last word of title
// heads ("... OLED Laptop, 16GB" -> laptop) shared by several models;
// categories are the catalog's category levels; prices, brands and the
// must-appear products are read from the rows. Deterministic: the same rows
// give the same file.

/** Must-appear lists stay well within a page of 8 results. */
const MAX_MUST_APPEAR = 4
const MAX_NOUNS = 36
/** Head nouns that name no product on their own ("Starter Kit", "Cookware Set", "Camera Body"). */
const GENERIC = new Set([
  "kit",
  "set",
  "body",
  "system",
  "station",
  "measure",
  "edition",
  "pack",
  "model",
  "series",
  "box",
  "bundle",
  "collection",
  "plus",
  "pro",
  "max",
  "mini",
  "ultra",
  "game"
])
/** Nouns with no singular in everyday use. */
const ONLY_PLURAL = new Set(["shorts", "pants", "leggings", "jeans", "sunglasses", "scissors", "headphones", "earbuds"])

const PRICE_MODIFIERS = ["cheap", "affordable", "budget", "inexpensive", "low cost"]
const QUALITY_MODIFIERS = ["best", "top rated", "good quality", "premium", "high end", "popular"]
const FILLERS: ReadonlyArray<(singular: string, plural: string) => string> = [
  (s) => `i need new ${s} please`,
  (s) => `looking for a ${s}`,
  (_, p) => `show me some ${p}`,
  (s) => `can you find me a good ${s}`,
  (s) => `recommend a ${s} for the money`,
  (_, p) => `something like ${p} please`
]
const AUDIENCES: ReadonlyArray<(plural: string) => string> = [
  (p) => `${p} gift for my dad`,
  (p) => `${p} for mom`,
  (p) => `birthday ${p} for my wife`,
  (p) => `christmas gift ${p} for a teen`,
  (p) => `${p} for my husband anniversary`,
  (p) => `${p} present for a friend`
]
const PRICE_PHRASES: Record<string, ReadonlyArray<(amount: number) => string>> = {
  USD: [(a) => `under $${a}`, (a) => `less than ${a} dollars`, (a) => `below ${a} usd`, (a) => `${a} bucks or less`],
  GBP: [(a) => `under £${a}`, (a) => `less than ${a} pounds`],
  EUR: [(a) => `under ${a} euros`, (a) => `less than €${a}`]
}

/** The brief's own examples, with the constraints a correct answer meets. */
const BRIEF: ReadonlyArray<readonly [string, Constraints]> = [
  ["wireless earbuds under $100 for running", { words: ["earbud", "earbuds"], maxPrice: 100, currency: "USD" }],
  ["gift for dad who likes coffee", { words: ["coffee", "espresso"] }],
  ["lego for a 10 year old", { brand: "LEGO" }],
  ["4k tv between 300 and 600 dollars", { words: ["tv", "tvs"], minPrice: 300, maxPrice: 600, currency: "USD" }],
  ["cheap electronics less than 358 dollars", { category: "Electronics", maxPrice: 358, currency: "USD" }],
  ["electronics less than 358 dollars", { category: "Electronics", maxPrice: 358, currency: "USD" }],
  ["cheap electronics under 358 dollars", { category: "Electronics", maxPrice: 358, currency: "USD" }],
  ["cheap shoes", { words: ["shoe", "shoes"] }],
  ["affordable shoes", { words: ["shoe", "shoes"] }],
  ["top rated shoes", { words: ["shoe", "shoes"] }],
  ["good quality shoes", { words: ["shoe", "shoes"] }],
  ["cheap jacket", { words: ["jacket", "jackets"] }],
  ["i need new jacket please", { words: ["jacket", "jackets"] }]
]

export const singularOf = (word: string): string =>
  !word.endsWith("s") || word.endsWith("ss")
    ? word
    : word.endsWith("ives")
      ? `${word.slice(0, -3)}fe`
      : word.endsWith("ies")
        ? `${word.slice(0, -3)}y`
        : /(?:ch|sh|x|ss)es$/.test(word)
          ? word.slice(0, -2)
          : word.slice(0, -1)

export const pluralOf = (word: string): string =>
  word.endsWith("s")
    ? word
    : /[^aeiou]y$/.test(word)
      ? `${word.slice(0, -1)}ies`
      : word.endsWith("fe")
        ? `${word.slice(0, -2)}ves`
        : /(?:ch|sh|x)$/.test(word)
          ? `${word}es`
          : `${word}s`

/** The title before its options: "Acer Swift Go 14 OLED Laptop, 16GB RAM" -> "Acer Swift Go 14 OLED Laptop". */
export const headOf = (title: string) => title.split(/,| with | by | for | - |\(/i)[0].trim()

export interface Noun {
  readonly singular: string
  readonly plural: string
  readonly rows: ReadonlyArray<CatalogRow>
}

export const productNouns = (rows: ReadonlyArray<CatalogRow>): Array<Noun> => {
  const models = new Map<string, Set<string>>()
  const makers = new Map<string, Set<string>>()
  for (const row of rows) {
    const words = wordsOf(headOf(row.title))
    const last = words[words.length - 1]
    if (last === undefined || !/^[a-z]{2,}$/.test(last) || GENERIC.has(singularOf(last))) continue
    const key = singularOf(last)
    models.set(key, (models.get(key) ?? new Set()).add(row.group))
    makers.set(key, (makers.get(key) ?? new Set()).add(row.brand ?? ""))
  }
  // A product noun is shared by several makers' models; a book title's last word belongs to one publisher.
  return [...models.entries()]
    .filter(([noun, groups]) => groups.size >= 2 && (makers.get(noun)?.size ?? 0) >= 2)
    .sort((a, b) => b[1].size - a[1].size || a[0].localeCompare(b[0]))
    .slice(0, MAX_NOUNS)
    .map(([singular]) => {
      const plural = pluralOf(singular)
      const forms = new Set([singular, plural])
      return { singular, plural, rows: rows.filter((row) => wordsOf(row.title).some((word) => forms.has(word))) }
    })
}

const nounWords = (noun: Noun) => [noun.singular, noun.plural]

/** Cheapest offer per group, ascending. */
const cheapestPerGroup = (rows: ReadonlyArray<CatalogRow>): Array<number> => {
  const min = new Map<string, number>()
  for (const row of rows) min.set(row.group, Math.min(min.get(row.group) ?? Infinity, row.price))
  return [...min.values()].sort((a, b) => a - b)
}

/** A typo a shopper makes in a word of 5+ letters: two letters swapped, or one left out (never the first). */
const typoOf = (word: string, kind: number) => {
  if (kind % 2 === 0) {
    const i = word.length - 3
    return word[i] === word[i + 1] ? undefined : `${word.slice(0, i)}${word[i + 1]}${word[i]}${word.slice(i + 2)}`
  }
  const i = Math.floor(word.length / 2)
  return `${word.slice(0, i)}${word.slice(i + 1)}`
}

export const deriveJudgements = (rows: ReadonlyArray<CatalogRow>): JudgementSet => {
  const out: Array<Judgement> = []
  const seen = new Set<string>()
  const add = (q: string, family: string, constraints: Constraints, checks?: Checks) => {
    if (seen.has(q)) return
    seen.add(q)
    const groups = satisfyingGroups(rows, constraints)
    out.push({
      q,
      family,
      constraints,
      mustAppear: groups.size <= MAX_MUST_APPEAR ? [...groups].sort() : [],
      satisfying: groups.size,
      ...(checks ? { checks } : {})
    })
  }

  for (const [q, constraints] of BRIEF) add(q, "brief", constraints)

  productNouns(rows).forEach((noun, n) => {
    const words = { words: nounWords(noun) }
    const singular = ONLY_PLURAL.has(noun.plural) ? noun.plural : noun.singular
    add(noun.plural, "plural", words)
    if (singular !== noun.plural) add(noun.singular, "singular", words)
    add(
      `${PRICE_MODIFIERS[n % PRICE_MODIFIERS.length]} ${n % 2 === 0 ? noun.plural : singular}`,
      "price-modifier",
      words
    )
    add(`${QUALITY_MODIFIERS[n % QUALITY_MODIFIERS.length]} ${noun.plural}`, "quality-modifier", words)
    add(FILLERS[n % FILLERS.length](singular, noun.plural), "filler", words)
    add(AUDIENCES[n % AUDIENCES.length](noun.plural), "recipient-occasion", words)
    // The typo is made in the form titles use: a typo in a plural the titles never spell is two edits away.
    const titleForm =
      noun.rows.filter((row) => wordsOf(row.title).includes(noun.plural)).length * 2 >= noun.rows.length
        ? noun.plural
        : noun.singular
    // A missing letter must leave 5 letters: Meilisearch allows a typo by the length of the word typed.
    if (titleForm.length >= (n % 2 === 0 ? 5 : 6)) {
      const typo = typoOf(titleForm, n)
      if (typo !== undefined) add(typo, "typo", words)
    }

    // A budget that three models meet (they must appear), and, for some nouns, one nothing meets.
    for (const [currency, phrases] of Object.entries(PRICE_PHRASES)) {
      const prices = cheapestPerGroup(noun.rows.filter((row) => row.currency === currency))
      if (prices.length === 0) continue
      const amount = Math.ceil(prices[Math.min(2, prices.length - 1)])
      const phrase = phrases[n % phrases.length](amount)
      add(`${noun.plural} ${phrase}`, "price", { ...words, maxPrice: amount, currency })
      if (currency === "USD" && n % 4 === 0) {
        const below = Math.max(1, Math.floor(prices[0] * 0.5))
        add(`${noun.plural} ${phrases[0](below)}`, "price-unmeetable", { ...words, maxPrice: below, currency })
      }
      if (currency === "USD" && n % 3 === 1) {
        add(`${PRICE_MODIFIERS[n % PRICE_MODIFIERS.length]} ${noun.plural} ${phrase}`, "modifier-price", {
          ...words,
          maxPrice: amount,
          currency
        })
      }
    }

    // The brand with the fewest models of this noun: a small set, so every one of them must appear.
    const byBrand = new Map<string, Set<string>>()
    for (const row of noun.rows)
      if (row.brand) byBrand.set(row.brand, (byBrand.get(row.brand) ?? new Set()).add(row.group))
    const brand = [...byBrand.entries()].sort((a, b) => a[1].size - b[1].size || a[0].localeCompare(b[0]))[0]
    if (brand !== undefined)
      add(`${brand[0].toLowerCase()} ${noun.plural}`, "brand-noun", { ...words, brand: brand[0] })
  })

  // Categories named by their own words: top levels and product types (leaves); middle levels are too vague.
  const levels = new Map<string, number>()
  for (const row of rows) {
    for (const level of new Set([row.top, row.leaf])) {
      if (level !== null) levels.set(level, (levels.get(level) ?? 0) + 1)
    }
  }
  const categories = [...levels.entries()]
    .filter(([, count]) => count >= 10)
    .map(([level]) => level)
    .sort()
  categories.forEach((category, i) => {
    const named = category.toLowerCase().replace(/'/g, "")
    add(i % 2 === 0 ? named : named.replace(/ & /g, " and "), "category", { category })
  })
  // Modifier, category and a price bound: the reading must not depend on the price phrasing.
  const topLevels = categories.filter((category) => rows.some((row) => row.top === category && row.currency === "USD"))
  topLevels.forEach((category, i) => {
    const prices = cheapestPerGroup(rows.filter((row) => row.categories.includes(category) && row.currency === "USD"))
    const amount = Math.ceil(prices[Math.floor(prices.length / 2)])
    const named = category.toLowerCase()
    for (const phrase of [PRICE_PHRASES.USD[i % 4](amount), PRICE_PHRASES.USD[(i + 1) % 4](amount)]) {
      add(`${PRICE_MODIFIERS[i % PRICE_MODIFIERS.length]} ${named} ${phrase}`, "category-price", {
        category,
        maxPrice: amount,
        currency: "USD"
      })
    }
  })

  // People and price words: their own families (derivePeople.ts).
  derivePeopleJudgements(rows, add)

  return {
    note:
      "Derived by scripts/search-eval/derive.ts from the sample catalog (npm run eval:search -- --write). " +
      "Do not edit by hand: change the derivation and regenerate.",
    judgements: out
  }
}
