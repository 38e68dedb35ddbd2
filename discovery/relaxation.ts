import type { Hit, SearchParams } from "meilisearch"
import { describePrice, quote, type Intent } from "../domain/intent/parseIntent.ts"
import { type DealOffer, DEAL_RETRIEVED_FIELDS } from "../readModel/modelDocuments.ts"
import { productSettings } from "../readModel/settings.ts"

// The relaxation ladder of an intent search, as plain data. The strict
// reading answers almost every request in one query. Only when it finds
// nothing are the later steps sent, all together in one multi-search, and
// the first step that finds products answers:
//
//   0. strict        every product word, every filter, in stock; hits whose words all
//                    matched in the description only are set aside (namesTheProduct): a
//                    description that mentions "oven-safe" does not make a skillet an oven,
//                    while "wireless" may come from the description of earbuds so titled
//   1. descriptions  the same hits, when only descriptions matched (no further query)
//   2. most_words    Meilisearch drops the most frequent words first (matchingStrategy "frequency")
//   3. without_vocabulary  the brand and category read from the phrase's words stop being
//                 filters (the words still rank them first): "toys under $11" finds a toy
//                 filed under Baby
//   4. out_of_stock  the loosest step above, out-of-stock products included
//
// Modifiers and filler never reach the query, so they need no step. Hard
// constraints (a price bound, a currency, the `category` parameter) are never
// relaxed: when they exclude everything the answer is empty, and probes in
// the same multi-search say what they excluded ("nothing with price at most
// 20 USD; the cheapest match is 24.99 USD (...)").

export type LadderStep = "strict" | "descriptions" | "most_words" | "without_vocabulary" | "out_of_stock"

export const STEP_TEXT: Record<LadderStep, string> = {
  strict: "every word matched",
  descriptions: "nothing named every word in its title or category, so descriptions count too",
  most_words: "no product matched every word, so these match most of them (the rarest words kept)",
  without_vocabulary: "nothing matched with the brand or category read from the words as filters, so they only rank",
  out_of_stock: "nothing in stock matched, so out-of-stock products are included"
}

export interface Attempt {
  readonly step: LadderStep
  readonly q: string
  readonly filters: ReadonlyArray<string>
  readonly strategy: "all" | "frequency"
  readonly inStock: boolean
  readonly sort?: ReadonlyArray<string>
}

/**
 * Meilisearch's attribute rule scores where the words matched, from 1 (all
 * in the first searchable attribute, the title) down to 1/n (all in the
 * last, the description). A hit at that floor is only mentioned by its
 * description: a skillet "oven-safe to 500F" is not an oven. Read from
 * `showRankingScoreDetails`, which costs about nothing (showMatchesPosition
 * made each query ~2x slower here).
 */
const DESCRIPTION_ONLY = 1 / (productSettings.searchableAttributes?.length ?? 1)

export const namesTheProduct = (hit: Hit<object>): boolean => {
  // (client 0.62 types an older shape of this detail; Meilisearch 1.21 sends attributeRankingOrderScore)
  const attribute = hit._rankingScoreDetails?.attribute as { readonly attributeRankingOrderScore?: unknown } | undefined
  const score = attribute?.attributeRankingOrderScore
  return typeof score !== "number" || score > DESCRIPTION_ONLY + 1e-9
}

export const and = (filters: ReadonlyArray<string>) => (filters.length === 0 ? undefined : filters.join(" AND "))

/** `field = "value"` for a request parameter, or nothing when it is absent or blank. */
export const paramFilter = (field: string, value: string | undefined) =>
  value === undefined || value.trim() === "" ? [] : [`${field} = ${quote(value.trim())}`]

const isVocabulary = (filter: string) => filter.startsWith("brand ") || filter.startsWith("categories IN ")
const isPrice = (filter: string) => filter.startsWith("price ") || filter.startsWith("currency ")
const isCategory = (filter: string) => filter.startsWith("categories ")

/** The intent's filters with the `category` parameter, which wins over category words in the phrase. */
export const filtersWithCategoryParam = (intent: Intent, category: string | undefined) => [
  ...paramFilter("categories", category),
  ...(category === undefined || category.trim() === "" ? intent.filters : intent.filters.filter((f) => !isCategory(f)))
]

/** Modifiers order results within relevance; a phrase with no product words browses the best deals. */
const sortFor = (intent: Intent, q: string): ReadonlyArray<string> | undefined =>
  intent.preference === "lower_price"
    ? ["price:asc"]
    : intent.preference === "stronger_offer" || q === ""
      ? ["deal_score:desc"]
      : undefined

/** The ladder for an intent, in order; the first element is the strict reading. */
export const searchAttempts = (intent: Intent, category: string | undefined): ReadonlyArray<Attempt> => {
  const q = intent.broadQuery
  const filters = filtersWithCategoryParam(intent, category)
  const sort = sortFor(intent, q)
  const base = { q, ...(sort ? { sort } : {}) }
  const strict: Attempt = { ...base, step: "strict", filters, strategy: "all", inStock: true }
  const ladder: Array<Attempt> = [strict]
  const manyWords = q.split(" ").length >= 2
  if (manyWords) ladder.push({ ...strict, step: "most_words", strategy: "frequency" })
  if (filters.some(isVocabulary)) {
    const hard = filters.filter((f) => !isVocabulary(f))
    ladder.push({ ...strict, step: "without_vocabulary", filters: hard, strategy: manyWords ? "frequency" : "all" })
  }
  ladder.push({ ...ladder[ladder.length - 1], step: "out_of_stock", inStock: false })
  return ladder
}

/** Meilisearch search parameters of one attempt (`limit * OVERFETCH` models, each with its offers). */
export const attemptParams = (attempt: Attempt, limit: number): SearchParams => ({
  filter: and([...attempt.filters, ...(attempt.inStock ? ["in_stock = true"] : [])]),
  limit: Math.ceil(limit * OVERFETCH),
  attributesToRetrieve: DEAL_RETRIEVED_FIELDS,
  matchingStrategy: attempt.strategy,
  ...(attempt.sort ? { sort: [...attempt.sort] } : {}),
  // where the words matched, so a hit found only by its description can be told apart (namesTheProduct)
  ...(attempt.step === "strict" && attempt.q !== "" ? { showRankingScoreDetails: true } : {})
})

// The index holds one document per model, so hits are distinct products.
// A few more are asked for than shown: a strict hit only its description
// names is set aside (namesTheProduct), as is a model whose offers met the
// filter's clauses only between them (no single offer meets them all).
export const OVERFETCH = 1.5

/**
 * What a hard constraint excluded, asked alongside the relaxation steps: the
 * loosest reading without the price bound (cheapest first), without the
 * currency too, and without the category.
 */
export interface Probe {
  /** cheapest/dearest: without the price bound; currency: without price or currency; category: without the category. */
  readonly kind: "cheapest" | "dearest" | "currency" | "category"
  readonly params: SearchParams & { q: string }
}

/** Models the cheapest-match probe reads: the cheapest in each currency is among them on catalogs like the samples. */
export const CHEAPEST_PROBE_MODELS = 60

export const constraintProbes = (intent: Intent, loosest: Attempt): ReadonlyArray<Probe> => {
  const probe = (kind: Probe["kind"], keep: (filter: string) => boolean, sort?: Array<string>, limit = 1): Probe => ({
    kind,
    params: {
      q: loosest.q,
      filter: and(loosest.filters.filter(keep)),
      limit,
      attributesToRetrieve: DEAL_RETRIEVED_FIELDS,
      matchingStrategy: loosest.strategy,
      ...(sort ? { sort } : {})
    }
  })
  const price = intent.price
  const probes: Array<Probe> = []
  const withoutBound = (f: string) => !f.startsWith("price ")
  // Without the bound (its currency kept, when it names one), cheapest first: enough models to find the
  // cheapest match in each currency (a model's price sort reads its lowest offer in any currency).
  if (price?.max !== undefined) probes.push(probe("cheapest", withoutBound, ["price:asc"], CHEAPEST_PROBE_MODELS))
  if (price?.min !== undefined) probes.push(probe("dearest", withoutBound, ["price:desc"]))
  if (price?.currency !== undefined) probes.push(probe("currency", (f) => !isPrice(f), ["price:asc"]))
  if (loosest.filters.some(isCategory)) probes.push(probe("category", (f) => !isCategory(f)))
  return probes
}

const money = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`

/** The sentence that says which hard constraint left the answer empty, from the probes' first hits. */
export const unmetConstraint = (
  intent: Intent,
  categoryParam: string | undefined,
  probes: ReadonlyArray<{ readonly probe: Probe; readonly hit: DealOffer | undefined; readonly total: number }>,
  /** The cheapest match in each currency without the price bound (default: the cheapest probe's first hit). */
  cheapestPerCurrency: ReadonlyArray<DealOffer> = []
): string | undefined => {
  const found = (kind: Probe["kind"]) => probes.find((p) => p.probe.kind === kind && p.hit !== undefined)?.hit
  const first = found("cheapest")
  const cheapest = cheapestPerCurrency.length > 0 ? cheapestPerCurrency : first !== undefined ? [first] : []
  const price = intent.price
  const dearest = found("dearest")
  if (price !== undefined && (cheapest.length > 0 || dearest !== undefined)) {
    const nothing = `nothing with ${describePrice(price)}`
    const each = cheapest.map((hit) => `${money(hit.price, hit.currency)} (${hit.title})`)
    if (cheapest.length > 0 && dearest !== undefined && cheapest.length === 1) {
      return `${nothing}; matches cost from ${money(cheapest[0].price, cheapest[0].currency)} to ${money(dearest.price, dearest.currency)}`
    }
    if (cheapest.length > 1) return `${nothing}; the cheapest match in each currency: ${each.join(", ")}`
    if (cheapest.length === 1) return `${nothing}; the cheapest match is ${each[0]}`
    return `${nothing}; the most expensive match is ${money(dearest!.price, dearest!.currency)} (${dearest!.title})`
  }
  const currency = found("currency")
  if (price?.currency !== undefined && currency !== undefined) {
    return `nothing priced in ${price.currency}; matches exist in ${currency.currency} (from ${money(currency.price, currency.currency)})`
  }
  const category = probes.find((p) => p.probe.kind === "category" && p.hit !== undefined)
  if (category !== undefined) {
    const named = categoryParam?.trim() || intent.categories.join(" or ")
    return `nothing in ${named}; ${category.total} product${category.total === 1 ? "" : "s"} outside it match the words`
  }
  return undefined
}
