// Category and brand words, matched against the catalog's own names (the
// facet values of the products index), so a filter can only name values that
// exist. Curated aliases map everyday words onto the words catalogs use.

export interface Vocabulary {
  readonly categories: ReadonlyArray<string>
  readonly brands: ReadonlyArray<string>
}

const ALIASES: Record<string, string> = {
  toy: "toys", clothes: "apparel", clothing: "apparel", fashion: "apparel", makeup: "beauty", cosmetics: "beauty",
  skincare: "beauty", tech: "electronics", gadgets: "electronics", gadget: "electronics", jewellery: "jewelry",
  pet: "pets", fitness: "sports", gym: "sports", gaming: "games", videogames: "games", book: "books",
  furniture: "furniture", kitchenware: "kitchen", cookware: "kitchen", gardening: "garden", outdoors: "outdoor"
}

// Category-name words too generic to select a category on their own.
const WEAK = new Set(["and", "the", "other", "accessories", "supplies", "care", "personal", "more", "goods", "misc"])

export const normalize = (text: string) =>
  text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, " ").trim()

const singular = (word: string) => (word.length > 4 && word.endsWith("s") ? word.slice(0, -1) : word)

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

export interface VocabularyMatch {
  readonly categories: ReadonlyArray<string>
  readonly brands: ReadonlyArray<string>
  readonly rest: string
}

export const matchVocabulary = (input: string, vocabulary: Vocabulary): VocabularyMatch => {
  let text = ` ${normalize(input)} `
  const brands: Array<string> = []
  // Longest names first, so "Philips Hue" wins over "Philips".
  for (const brand of [...vocabulary.brands].sort((a, b) => b.length - a.length)) {
    const name = normalize(brand)
    if (name.length < 2) continue
    const pattern = new RegExp(` ${escape(name)} `)
    if (pattern.test(text)) {
      brands.push(brand)
      text = text.replace(pattern, " ")
    }
  }

  const categories: Array<string> = []
  const words = text.trim().split(/\s+/).filter((word) => word.length > 0)
  const used = new Set<string>()
  for (const category of vocabulary.categories) {
    const name = normalize(category)
    if (name.length === 0) continue
    const tokens = name.split(" ").filter((token) => token.length >= 4 && !WEAK.has(token)).map(singular)
    for (const word of words) {
      const candidate = singular(ALIASES[word] ?? word)
      if (name === word || tokens.includes(candidate)) {
        if (!categories.includes(category)) categories.push(category)
        used.add(word)
      }
    }
  }
  const rest = words.filter((word) => !used.has(word)).join(" ")
  return { categories, brands, rest }
}
