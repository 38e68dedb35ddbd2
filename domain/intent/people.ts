import type { Audience } from "./audience.ts"
import { normalize, type Vocabulary } from "./vocabulary.ts"

// Who a gift is for, used (audience.ts only reads it): the person's gender
// and age become filters on the products' own gender and age_group (Google
// Merchant values, readModel/modelDocuments.ts), and a phrase that names a
// person but no product ("gift for dad", "birthday present for 10 year old")
// browses the categories people give such a person, not the whole catalog.

/** Which age band a recipient or an age falls in. */
export type AgeBand = "baby" | "kid" | "teen" | "adult"

const ADULTS = new Set([
  "mom",
  "dad",
  "wife",
  "husband",
  "girlfriend",
  "boyfriend",
  "grandparent",
  "friend",
  "him",
  "her"
])

export const ageBandOf = (audience: Audience): AgeBand | undefined => {
  if (audience.age !== undefined)
    return audience.age < 3 ? "baby" : audience.age < 13 ? "kid" : audience.age < 18 ? "teen" : "adult"
  const recipient = audience.recipient
  if (recipient === "baby" || recipient === "kid" || recipient === "teen") return recipient
  return recipient !== undefined && ADULTS.has(recipient) ? "adult" : undefined
}

/**
 * The age groups that are wrong for a band (Google Merchant: kids are about
 * 5 to 13, teens shop adult sizes). Products that say no age group stay: a
 * pair of headphones suits anyone.
 */
const WRONG_AGES: Record<AgeBand, ReadonlyArray<string>> = {
  baby: ["kids", "adult"],
  kid: ["newborn", "infant", "adult"],
  teen: ["newborn", "infant", "toddler", "kids"],
  adult: ["newborn", "infant", "toddler", "kids"]
}

/**
 * The categories people give each kind of person, as the catalog names them
 * (only those the catalog has are used). A child's also admits any product a
 * feed marks for kids.
 */
const GIFT_CATEGORIES: Record<"male" | "female" | "anyone" | "teen" | "kid" | "baby", ReadonlyArray<string>> = {
  male: [
    "Headphones",
    "Earbuds",
    "Speakers",
    "Wearables",
    "Cameras",
    "Consoles",
    "Coffee Machines",
    "Power Tools",
    "Sneakers & Boots",
    "Running Shoes",
    "Jackets",
    "Fiction & Non-Fiction",
    "Board Games"
  ],
  female: [
    "Skincare",
    "Makeup & Hair",
    "Jackets",
    "Activewear",
    "Sneakers & Boots",
    "Running Shoes",
    "Headphones",
    "Earbuds",
    "Wearables",
    "Coffee Machines",
    "Yoga Mats",
    "Fiction & Non-Fiction"
  ],
  anyone: [
    "Headphones",
    "Earbuds",
    "Speakers",
    "Wearables",
    "Cameras",
    "Coffee Machines",
    "Fiction & Non-Fiction",
    "Board Games"
  ],
  teen: [
    "Headphones",
    "Earbuds",
    "Speakers",
    "Consoles",
    "Wearables",
    "Sneakers & Boots",
    "Board Games",
    "LEGO",
    "Fiction & Non-Fiction"
  ],
  // a toy's own levels too: some feeds file board games and LEGO without a "Toys & Games" level
  kid: [
    "Toys & Games",
    "Board Games",
    "Building Toys",
    "Educational Toys",
    "STEM & Science Kits",
    "Children's Books",
    "Bikes"
  ],
  baby: ["Baby", "Toys & Games", "Building Toys"]
}

const quote = (value: string) => `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`
const list = (values: ReadonlyArray<string>) => `[${values.map(quote).join(", ")}]`

export interface PeopleReading {
  /** Meilisearch filter expressions on the products' gender and age group (and gift categories when browsing). */
  readonly filters: ReadonlyArray<string>
  /** What was used, for the guidance ("only men's or unisex products"). */
  readonly used: ReadonlyArray<string>
  /** The gift categories browsed, when the phrase named a person but no product. */
  readonly giftCategories: ReadonlyArray<string>
}

const NONE: PeopleReading = { filters: [], used: [], giftCategories: [] }

/**
 * The filters for the person a phrase names. `browsing`: the phrase has no
 * product, category or brand words, so the gift categories for that person
 * are the catalog to browse.
 */
export const peopleReading = (audience: Audience, browsing: boolean, vocabulary: Vocabulary): PeopleReading => {
  const band = ageBandOf(audience)
  const gender = audience.gender
  if (band === undefined && gender === undefined) return NONE
  const filters: Array<string> = []
  const used: Array<string> = []
  if (gender !== undefined) {
    filters.push(`gender != ${quote(gender === "male" ? "female" : "male")}`)
    used.push(gender === "male" ? "only men's or unisex products" : "only women's or unisex products")
  }
  // An adult's age only matters when browsing: "baby carrier for mom" is for mom to use.
  if (band !== undefined && (band !== "adult" || browsing)) {
    filters.push(`age_group NOT IN ${list(WRONG_AGES[band])}`)
    used.push(
      band === "baby"
        ? "products for babies and toddlers"
        : band === "kid"
          ? "products for children"
          : band === "teen"
            ? "no products for young children"
            : "no products for children"
    )
  }
  if (!browsing) return { filters, used, giftCategories: [] }
  const kind =
    band === "baby" || band === "kid" || band === "teen"
      ? band
      : gender === "male" || gender === "female"
        ? gender
        : "anyone"
  const known = new Map(vocabulary.categories.map((name) => [normalize(name), name]))
  const giftCategories = GIFT_CATEGORIES[kind].flatMap((name) => known.get(normalize(name)) ?? [])
  if (giftCategories.length > 0) {
    const inCategories = `categories IN ${list(giftCategories)}`
    // a child's gift may be any product a feed marks for children, whatever its category
    filters.push(band === "kid" ? `(${inCategories} OR age_group = "kids")` : inCategories)
    used.push(`browsing gift categories: ${giftCategories.join(", ")}`)
  }
  return { filters, used, giftCategories }
}
