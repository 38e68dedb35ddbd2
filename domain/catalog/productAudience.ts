// Who a product is for, in Google Merchant's words: gender (male, female,
// unisex) and age group (newborn, infant, toddler, kids, adult). The feed's
// own value wins; a feed without the columns (Awin's standard download has
// none) still names the person in its titles ("Men's Sneakers", "Kids'
// Bike"), and search must not offer a women's jacket for dad because the
// feed left the column out.

export type Gender = "male" | "female" | "unisex"
export type AgeGroup = "newborn" | "infant" | "toddler" | "kids" | "adult"

export const GENDERS: ReadonlyArray<Gender> = ["male", "female", "unisex"]
export const AGE_GROUPS: ReadonlyArray<AgeGroup> = ["newborn", "infant", "toddler", "kids", "adult"]

// "women's" before "men's": the longer word holds the shorter one.
const FEMALE_TITLE = /\b(?:women'?s|womens|women|ladies'?|girls'?)(?![\p{L}])/iu
const MALE_TITLE = /\b(?:men'?s|mens|men|boys'?)(?![\p{L}])/iu
const UNISEX_TITLE = /\bunisex\b/i
const KIDS_TITLE = /\b(?:kids'?|children'?s|boys'?|girls'?|junior)(?![\p{L}])/iu
const BABY_TITLE = /\b(?:baby|babies|infant|newborn|toddler)\b/i

const known = <A extends string>(values: ReadonlyArray<A>, value: string | null | undefined): A | null =>
  value !== null && value !== undefined && (values as ReadonlyArray<string>).includes(value) ? (value as A) : null

/** The product's gender: the feed's value, else the one its title names (null: for anyone). */
export const genderOf = (feedValue: string | null | undefined, title: string): Gender | null =>
  known(GENDERS, feedValue) ??
  (UNISEX_TITLE.test(title)
    ? "unisex"
    : FEMALE_TITLE.test(title) && MALE_TITLE.test(title.replace(FEMALE_TITLE, ""))
      ? "unisex"
      : FEMALE_TITLE.test(title)
        ? "female"
        : MALE_TITLE.test(title)
          ? "male"
          : null)

/** The product's age group: the feed's value, else the one its title or categories name (null: not said). */
export const ageGroupOf = (
  feedValue: string | null | undefined,
  title: string,
  categories: ReadonlyArray<string>
): AgeGroup | null =>
  known(AGE_GROUPS, feedValue) ??
  (KIDS_TITLE.test(title) || categories.some((c) => /^(?:children'?s books|kids)$/i.test(c))
    ? "kids"
    : BABY_TITLE.test(title) || categories.some((c) => /^baby$/i.test(c))
      ? "infant"
      : null)
