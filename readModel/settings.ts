import type { Settings } from "meilisearch"
import { createHash } from "node:crypto"

// Index settings for shopping search. A change here changes `settingsHash`,
// and the next sync rebuilds the index into a fresh one and swaps it in, so a
// settings change never leaves a half-configured index serving queries.

// Words shoppers use interchangeably. Multi-word synonyms are allowed.
const synonymGroups: ReadonlyArray<ReadonlyArray<string>> = [
  ["earbuds", "earphones", "in-ear headphones", "ear buds"],
  ["headphones", "headset"],
  ["tv", "television"],
  ["laptop", "notebook"],
  ["phone", "smartphone", "mobile phone", "cell phone"],
  ["smartphones", "phones", "mobile phones", "cell phones"],
  ["sneakers", "trainers", "running shoes"],
  ["sofa", "couch"],
  ["fridge", "refrigerator"],
  ["hoodie", "sweatshirt"],
  ["speaker", "loudspeaker"],
  ["watch", "wristwatch"],
  ["smartwatch", "smart watch", "fitness tracker"],
  ["vacuum", "hoover", "vacuum cleaner"],
  ["mug", "cup"],
  ["backpack", "rucksack"],
  ["coffee maker", "coffee machine", "espresso machine"],
  ["pants", "trousers"],
  ["purse", "handbag"],
  ["lego", "building blocks", "building set"]
]

// Singular and plural forms that typo tolerance and prefix search do not
// already join: words under 5 letters get no typo, and an irregular plural
// is more than one typo away (knife/knives). Regular plurals of longer words
// ("jacket"/"jackets") match within one typo, the last query word also by prefix.
const pluralPairs: ReadonlyArray<readonly [string, string]> = [
  ["tv", "tvs"],
  ["mat", "mats"],
  ["bag", "bags"],
  ["cap", "caps"],
  ["toy", "toys"],
  ["pan", "pans"],
  ["pot", "pots"],
  ["mug", "mugs"],
  ["kit", "kits"],
  ["bed", "beds"],
  ["pen", "pens"],
  ["hat", "hats"],
  ["box", "boxes"],
  ["game", "games"],
  ["shoe", "shoes"],
  ["boot", "boots"],
  ["bike", "bikes"],
  ["tent", "tents"],
  ["oven", "ovens"],
  ["lamp", "lamps"],
  ["sock", "socks"],
  ["dress", "dresses"],
  ["watch", "watches"],
  ["brush", "brushes"],
  ["glass", "glasses"],
  ["knife", "knives"],
  ["shelf", "shelves"],
  ["battery", "batteries"],
  ["accessory", "accessories"],
  ["mouse", "mice"],
  ["lens", "lenses"],
  ["bench", "benches"],
  ["torch", "torches"],
  ["sandal", "sandals"],
  ["serum", "serums"],
  ["fryer", "fryers"],
  ["mower", "mowers"],
  ["phone", "phones"],
  ["drone", "drones"],
  ["grill", "grills"],
  ["gun", "guns"],
  ["seat", "seats"],
  ["food", "foods"],
  ["set", "sets"],
  ["ball", "balls"],
  ["book", "books"],
  ["sofa", "sofas"],
  ["desk", "desks"],
  ["rug", "rugs"],
  ["cup", "cups"],
  ["bowl", "bowls"],
  ["fan", "fans"],
  ["vest", "vests"],
  ["coat", "coats"],
  ["top", "tops"],
  ["bra", "bras"],
  ["tee", "tees"],
  ["kid", "kids"]
]

const synonyms = (): Record<string, Array<string>> => {
  const out: Record<string, Array<string>> = {}
  const join = (group: ReadonlyArray<string>) => {
    for (const word of group)
      out[word] = [...new Set([...(out[word] ?? []), ...group.filter((other) => other !== word)])]
  }
  synonymGroups.forEach(join)
  pluralPairs.forEach(join)
  return out
}

// One document per model (modelDocuments.ts): filterable and sortable fields
// are arrays of the model's offers' values.
export const productSettings: Settings = {
  // Description last: intent search tells a hit only its description mentions by that rank (discovery/relaxation.ts).
  searchableAttributes: ["title", "brand", "category", "product_type", "store", "description"],
  filterableAttributes: [
    "category",
    "categories",
    "store",
    "brand",
    "price",
    "currency",
    // where offers sell: a market's answer (discovery/marketIntent.ts)
    "countries",
    "availability",
    "in_stock",
    "discount",
    "is_deal",
    "feed",
    "store_domain",
    "model_key",
    "offer_ids",
    // a product id (readModel/productIds.ts) names the model document
    "id",
    // who a product is for (recipients and ages: domain/intent/people.ts)
    "gender",
    "age_group"
  ],
  sortableAttributes: ["price", "discount", "deal_score"],
  // Relevance first; among equally relevant products the better deal wins.
  rankingRules: ["words", "typo", "proximity", "attribute", "sort", "exactness", "deal_score:desc"],
  displayedAttributes: ["*"],
  // One typo (a swapped, missing or wrong letter) from 5 letters on, two from 9:
  // shorter words have too many one-letter neighbours ("guns" and "gums");
  // their plurals are synonyms above.
  typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 } },
  synonyms: synonyms(),
  faceting: { maxValuesPerFacet: 1000 },
  pagination: { maxTotalHits: 10_000 }
}

export const programSettings: Settings = {
  searchableAttributes: ["name", "domains", "network_name", "category"],
  filterableAttributes: ["network_id", "status", "country", "category", "commission_type", "domains"],
  sortableAttributes: ["commission_rate", "epc"],
  // Fuzzy link matching (POST /api/v1/ai/match-link) looks merchants up by a
  // mistyped domain label: one typo from 4 letters on ("nkie" finds Nike),
  // two from 8 ("bestbyuu"). The scorer, not the index, decides what counts.
  typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 4, twoTypos: 8 } }
}

/** Stable hash of a settings object (key order independent). */
export const settingsHash = (settings: Settings): string => {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value !== null && typeof value === "object"
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, canonical((value as Record<string, unknown>)[key])])
          )
        : value
  return createHash("sha256")
    .update(JSON.stringify(canonical(settings)))
    .digest("hex")
    .slice(0, 16)
}
