// Programme categories. The first eleven are the product feeds' top-level
// categories (products.category); the rest describe merchants that sell
// across categories or sell services rather than products.
export const PRODUCT_CATEGORIES = [
  "Electronics",
  "Home & Kitchen",
  "Sports & Outdoors",
  "Toys & Games",
  "Beauty",
  "Fashion",
  "Books",
  "Garden",
  "Baby",
  "Pet Supplies",
  "Tools"
] as const

export const MERCHANT_ONLY_CATEGORIES = [
  "Department Stores",
  "Marketplace",
  "Travel",
  "Software & Services",
  "Education"
] as const

export type Category = (typeof PRODUCT_CATEGORIES)[number] | (typeof MERCHANT_ONLY_CATEGORIES)[number]

export const ALL_CATEGORIES: ReadonlyArray<Category> = [...PRODUCT_CATEGORIES, ...MERCHANT_ONLY_CATEGORIES]

/** Short codes keep the merchant tables on one line each. */
export const CATEGORY_CODES: Readonly<Record<string, Category>> = {
  elec: "Electronics",
  home: "Home & Kitchen",
  sport: "Sports & Outdoors",
  toys: "Toys & Games",
  beauty: "Beauty",
  fashion: "Fashion",
  books: "Books",
  garden: "Garden",
  baby: "Baby",
  pets: "Pet Supplies",
  tools: "Tools",
  dept: "Department Stores",
  market: "Marketplace",
  travel: "Travel",
  sw: "Software & Services",
  edu: "Education"
}
