// Category and brand words, matched against the catalog's own names (the
// facet values of the products index), so a filter can only name values that
// exist. Curated aliases map everyday words onto the words catalogs use.

export interface Vocabulary {
  readonly categories: ReadonlyArray<string>
  readonly brands: ReadonlyArray<string>
}

const ALIASES: Record<string, string> = {
  toy: "toys",
  clothes: "apparel",
  clothing: "apparel",
  fashion: "apparel",
  makeup: "beauty",
  cosmetics: "beauty",
  skincare: "beauty",
  tech: "electronics",
  gadgets: "electronics",
  gadget: "electronics",
  jewellery: "jewelry",
  pet: "pets",
  fitness: "sports",
  gym: "sports",
  gaming: "games",
  videogames: "games",
  book: "books",
  furniture: "furniture",
  kitchenware: "kitchen",
  cookware: "kitchen",
  gardening: "garden",
  outdoors: "outdoor"
}

// Category-name words too generic to select a category on their own.
const WEAK = new Set([
  "and",
  "the",
  "other",
  "accessories",
  "accessory",
  "supplies",
  "care",
  "personal",
  "more",
  "goods",
  "misc",
  "gear"
])

export const normalize = (text: string) =>
  text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()

const singular = (word: string) => (word.length > 4 && word.endsWith("s") ? word.slice(0, -1) : word)

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

export interface VocabularyMatch {
  readonly categories: ReadonlyArray<string>
  readonly brands: ReadonlyArray<string>
  readonly rest: string
}

// A category is named when the phrase holds its whole name ("running shoes")
// or one of its "&"-alternatives ("toys" for "Toys & Games"), singular or
// plural; a single shared word ("running") is not enough.
const categoryNames = (category: string): Array<Array<string>> =>
  category
    .split(/\s*(?:&|,|\band\b)\s*/i)
    .map((part) =>
      normalize(part)
        .split(" ")
        .filter((word) => word.length > 0)
        .map(singular)
    )
    .filter((words) => words.length > 0 && !(words.length === 1 && WEAK.has(words[0])))

const containsRun = (haystack: ReadonlyArray<string>, needle: ReadonlyArray<string>) => {
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (needle.every((word, j) => haystack[i + j] === word)) return i
  }
  return -1
}

/**
 * `interests` are words that describe the person ("who likes coffee"): they
 * rank products but never select a category, since a coffee lover's gift may
 * be a mug as well as a coffee machine.
 */
interface CompiledVocabulary {
  readonly brands: ReadonlyArray<{ readonly brand: string; readonly pattern: RegExp }>
  readonly categories: ReadonlyArray<{ readonly category: string; readonly names: Array<Array<string>> }>
}

// Compiled once per vocabulary object (the search service swaps the object
// when it reloads names), not once per query: hundreds of brand patterns.
const compiled = new WeakMap<Vocabulary, CompiledVocabulary>()
const compile = (vocabulary: Vocabulary): CompiledVocabulary => {
  let found = compiled.get(vocabulary)
  if (found === undefined) {
    found = {
      // Longest names first, so "Philips Hue" wins over "Philips".
      brands: [...vocabulary.brands]
        .sort((a, b) => b.length - a.length)
        .map((brand) => ({ brand, name: normalize(brand) }))
        .filter(({ name }) => name.length >= 2)
        .map(({ brand, name }) => ({ brand, pattern: new RegExp(` ${escape(name)} `) })),
      categories: vocabulary.categories.map((category) => ({ category, names: categoryNames(category) }))
    }
    compiled.set(vocabulary, found)
  }
  return found
}

/**
 * `interests` are words that describe the person ("who likes coffee"): they
 * rank products but never select a category, since a coffee lover's gift may
 * be a mug as well as a coffee machine.
 */
export const matchVocabulary = (
  input: string,
  vocabulary: Vocabulary,
  interests: ReadonlyArray<string> = []
): VocabularyMatch => {
  const protectedWords = new Set(interests.flatMap((interest) => normalize(interest).split(" ").map(singular)))
  const { brands: brandPatterns, categories: categoryPatterns } = compile(vocabulary)
  let text = ` ${normalize(input)} `
  const brands: Array<string> = []
  for (const { brand, pattern } of brandPatterns) {
    if (pattern.test(text)) {
      brands.push(brand)
      text = text.replace(pattern, " ")
    }
  }

  const words = text
    .trim()
    .split(/\s+/)
    .filter((word) => word.length > 0)
  const canonical = words.map((word) => singular(ALIASES[word] ?? word))
  const used = new Set<number>()
  const categories: Array<string> = []
  const matchedNames: Array<Array<string>> = []
  for (const { category, names } of categoryPatterns) {
    for (const name of names) {
      const at = containsRun(canonical, name)
      if (at < 0 || name.every((word) => protectedWords.has(word))) continue
      matchedNames.push(name)
      if (!categories.includes(category)) categories.push(category)
      for (let i = at; i < at + name.length; i++) used.add(i)
    }
  }
  // A category named by its head noun also covers the categories that end
  // with it: "shoes" is Shoes and Running Shoes, whichever tree a feed uses.
  for (const name of matchedNames) {
    for (const { category, names } of categoryPatterns) {
      if (categories.includes(category)) continue
      if (
        names.some(
          (other) =>
            other.length > name.length && name.every((word, i) => other[other.length - name.length + i] === word)
        )
      ) {
        categories.push(category)
      }
    }
  }
  const rest = words.filter((_, i) => !used.has(i)).join(" ")
  return { categories, brands, rest }
}
