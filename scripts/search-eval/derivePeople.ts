import type { CatalogRow } from "./catalog.ts"
import { productNouns } from "./derive.ts"
import { satisfyingGroups, type Checks, type Constraints } from "./judgement.ts"

// The judged families for people and prices, derived from the catalog like
// the rest of the set (derive.ts): products named for women or men, gifts
// for a recipient with and without a product, ages, price words that must
// answer cheapest first, and empty answers whose suggestions must be true.

type Add = (q: string, family: string, constraints: Constraints, checks?: Checks) => void

const NOT_CHILDREN = ["newborn", "infant", "toddler", "kids"]
/** What a child's gift is: a toy, a children's book or bike, or anything a feed marks for kids. */
const CHILD = {
  notAgeGroups: ["newborn", "infant", "adult"],
  anyOf: {
    // a toy's own levels too: some feeds file board games and LEGO without a "Toys & Games" level
    categories: [
      "Toys & Games",
      "Board Games",
      "Building Toys",
      "LEGO",
      "Educational Toys",
      "STEM & Science Kits",
      "Children's Books",
      "Bikes"
    ],
    ageGroups: ["kids"]
  }
}
const TODDLER = {
  notAgeGroups: ["kids", "adult"],
  anyOf: { categories: ["Baby", "Toys & Games"], ageGroups: ["newborn", "infant", "toddler"] }
}
const TEEN = { notAgeGroups: NOT_CHILDREN }

const GENDER_PRODUCT: ReadonlyArray<readonly [(singular: string, plural: string) => string, "male" | "female"]> = [
  [(_, p) => `women's ${p}`, "female"],
  [(_, p) => `${p} women`, "female"],
  [(_, p) => `mens ${p}`, "male"],
  [(_, p) => `${p} for men`, "male"],
  [(s) => `womens ${s}`, "female"],
  [(_, p) => `men's ${p}`, "male"]
]
const RECIPIENT_PRODUCT: ReadonlyArray<readonly [(singular: string, plural: string) => string, "male" | "female"]> = [
  [(_, p) => `${p} for dad`, "male"],
  [(_, p) => `${p} for my wife`, "female"],
  [(s) => `${s} for my husband`, "male"],
  [(_, p) => `${p} for her`, "female"],
  [(_, p) => `${p} for him`, "male"],
  [(_, p) => `${p} gift for my girlfriend`, "female"]
]
const RECIPIENT_BROWSE: ReadonlyArray<readonly [string, "male" | "female"]> = [
  ["gift for dad", "male"],
  ["dad", "male"],
  ["gift for him", "male"],
  ["present for my husband", "male"],
  ["birthday gift for my boyfriend", "male"],
  ["gift for mom", "female"],
  ["gift for her", "female"],
  ["something for my wife", "female"],
  ["christmas gift for my girlfriend", "female"]
]
const AGES: ReadonlyArray<readonly [string, Constraints]> = [
  ["birthday present for 10 year old", CHILD],
  ["gift for a 7 year old", CHILD],
  ["kids", CHILD],
  ["gift for kids", CHILD],
  ["present for my son", { ...CHILD, gender: "male" }],
  ["gift for my daughter", { ...CHILD, gender: "female" }],
  ["toddler", TODDLER],
  ["gift for a toddler", TODDLER],
  ["toys for toddler", { ...TODDLER, anyOf: { categories: ["Toys & Games", "Building Toys", "LEGO"], ageGroups: [] } }],
  ["gift for a teen", TEEN],
  ["teen", TEEN],
  ["present for a 15 year old", TEEN],
  ["lego for a 7 year old", { brand: "LEGO", notAgeGroups: ["newborn", "infant", "adult"] }]
]
const PRICE_WORDS = ["cheapest", "low priced", "cheap", "budget", "affordable"]

/** The lowest price among rows (any currency: only to pick a bound below every price). */
const lowest = (rows: ReadonlyArray<CatalogRow>) => Math.min(...rows.map((row) => row.price))

export const derivePeopleJudgements = (rows: ReadonlyArray<CatalogRow>, add: Add) => {
  const nouns = productNouns(rows)
  const gendered = nouns.filter(
    (noun) => noun.rows.some((row) => row.gender === "male") && noun.rows.some((row) => row.gender === "female")
  )
  gendered.slice(0, 6).forEach((noun, n) => {
    const words = { words: [noun.singular, noun.plural] }
    const [phrase, gender] = GENDER_PRODUCT[n % GENDER_PRODUCT.length]
    add(phrase(noun.singular, noun.plural), "gender-product", { ...words, gender })
    const [forWhom, recipientGender] = RECIPIENT_PRODUCT[n % RECIPIENT_PRODUCT.length]
    add(forWhom(noun.singular, noun.plural), "recipient-product", { ...words, gender: recipientGender })
  })
  add("winter jacket women", "gender-product", { words: ["jacket", "jackets"], gender: "female" })
  for (const [q, gender] of RECIPIENT_BROWSE) add(q, "recipient-browse", { gender, notAgeGroups: NOT_CHILDREN })
  for (const [q, constraints] of AGES) add(q, "recipient-age", constraints)

  // Price words: cheapest first among the products that name the words.
  add("cheap running shoes", "cheap-order", { words: ["running"], category: "Running Shoes" }, { cheapestFirst: true })
  add("budget headphones", "cheap-order", { words: ["headphone", "headphones"] }, { cheapestFirst: true })
  // A noun that is also a category's name reads as that category ("cheap shoes": anything filed under Shoes).
  const levels = new Map(rows.flatMap((row) => row.categories).map((level) => [level.toLowerCase(), level]))
  nouns.slice(0, 20).forEach((noun, n) => {
    const category = levels.get(noun.plural) ?? levels.get(noun.singular)
    const constraints = category !== undefined ? { category } : { words: [noun.singular, noun.plural] }
    add(`${PRICE_WORDS[n % PRICE_WORDS.length]} ${noun.plural}`, "cheap-order", constraints, { cheapestFirst: true })
  })

  // A bound below every price in every currency: empty, with suggestions that must be true.
  add(
    "headphones under 50",
    "zero-suggestion",
    { words: ["headphone", "headphones"], maxPrice: 50 },
    { suggestions: true }
  )
  nouns.slice(0, 16).forEach((noun, n) => {
    if (n % 2 === 1) return
    const inStock = noun.rows.filter((row) => row.inStock)
    if (inStock.length === 0) return
    const below = Math.max(1, Math.floor(lowest(inStock) * 0.5))
    const words = [noun.singular, noun.plural]
    if (satisfyingGroups(rows, { words, maxPrice: below }).size > 0) return
    add(`${noun.plural} under ${below}`, "zero-suggestion", { words, maxPrice: below }, { suggestions: true })
  })
}

/** The words a judged phrase's products must name, for the checks that read a constraint without its price. */
export const withoutPriceBound = (c: Constraints): Constraints => {
  const { maxPrice: _max, minPrice: _min, ...rest } = c
  return rest
}
