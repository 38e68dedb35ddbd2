import { categoryLevels, type ProductDocument } from "./documents.ts"
import type { EmbeddedOffer, ModelHit, OfferList } from "./modelDocuments.ts"

// Which offer of a model answers a filtered search. Meilisearch matched the
// model because some offer passes each clause of the filter; the offer shown
// must pass all of them at once (filter store = X shows X's offer, a price
// bound shows an offer within it). This reads the filter expressions the
// service itself writes: clauses joined by AND, each `field = value`,
// `field != value`, `field IN [values]` or `field <op> number`. A clause it
// cannot read is treated as met (Meilisearch already applied it to the model).

/**
 * The fields a filter reads: an offer document, or an offer embedded in a
 * model document (whole, or the part of one a Deal search reads). A field
 * the offer does not carry counts as absent.
 */
type Filterable = Pick<ProductDocument, "category" | "product_type"> & { readonly categories?: ReadonlyArray<string> }

type Clause = (offer: Filterable) => boolean

const VALUE = String.raw`"(?:[^"\\]|\\.)*"|[^\s\],]+`
const CLAUSE = new RegExp(String.raw`^\s*([a-z_]+)\s*(=|!=|>=|<=|>|<|IN)\s*(\[.*\]|${VALUE})\s*$`, "s")

const unquote = (token: string): string | number | boolean => {
  if (token.startsWith('"')) return token.slice(1, -1).replace(/\\(.)/g, "$1")
  if (token === "true" || token === "false") return token === "true"
  const number = Number(token)
  return Number.isFinite(number) ? number : token
}

/**
 * Small memo for per-offer strings on the search path: offers of one model
 * (and of popular models) repeat their titles, brands and category paths,
 * so a search folds or splits each once, not once per offer and request.
 */
const memo = <A>(size: number, compute: (key: string) => A) => {
  const values = new Map<string, A>()
  return (key: string): A => {
    let value = values.get(key)
    if (value === undefined) {
      if (values.size >= size) values.clear()
      value = compute(key)
      values.set(key, value)
    }
    return value
  }
}

const levelsMemo = memo(5_000, (key) => {
  const [category, productType] = key.split("\u0000")
  return categoryLevels(category, productType)
})
// The offers of one model almost always share their category path: the
// last one is kept, so a model's offers cost one comparison each, not a
// key string and a lookup each (the offer choice runs for every offer of a
// dozen models per search).
let lastLevels: { category: string | null; productType: string | null; levels: ReadonlyArray<string> } | undefined
/** categoryLevels(category, productType), memoized: the same array for the same path (read it, never change it). */
export const categoryLevelsOf = (category: string | null, productType: string | null): ReadonlyArray<string> => {
  if (lastLevels === undefined || lastLevels.category !== category || lastLevels.productType !== productType)
    lastLevels = { category, productType, levels: levelsMemo(`${category ?? ""}\u0000${productType ?? ""}`) }
  return lastLevels.levels
}

/** True when the offer's `field` (one value, or any of its values) passes `test`. */
const anyValue = (offer: Filterable, field: string, test: (value: unknown) => boolean): boolean => {
  // an embedded offer leaves its category levels to be derived
  if (field === "categories" && offer.categories === undefined)
    return categoryLevelsOf(offer.category ?? null, offer.product_type ?? null).some(test)
  // the field name comes from a filter string, so it is read as a plain property
  const value: unknown = Reflect.get(offer, field)
  return Array.isArray(value) ? value.some(test) : test(value)
}

/**
 * A value's test for equality with a filter's value: two strings regardless
 * of case, anything else by its text (`in_stock = true` holds for "true").
 * The filter's side is folded once per filter, not once per offer.
 */
const sameAs = (wanted: string | number | boolean): ((value: unknown) => boolean) => {
  if (typeof wanted === "string") {
    const lower = wanted.toLowerCase()
    return (value) =>
      typeof value === "string"
        ? value === wanted || value === lower || value.toLowerCase() === lower
        : String(value) === wanted
  }
  const text = String(wanted)
  return (value) => value === wanted || String(value) === text
}

/** Splits on AND outside quotes and brackets. */
const splitAnd = (filter: string): Array<string> => {
  const parts: Array<string> = []
  let depth = 0
  let quoted = false
  let start = 0
  for (let i = 0; i < filter.length; i++) {
    const char = filter[i]
    if (quoted) {
      if (char === "\\") i++
      else if (char === '"') quoted = false
    } else if (char === '"') quoted = true
    else if (char === "[" || char === "(") depth++
    else if (char === "]" || char === ")") depth--
    else if (depth === 0 && filter.startsWith(" AND ", i)) {
      parts.push(filter.slice(start, i))
      start = i + 5
      i += 4
    }
  }
  parts.push(filter.slice(start))
  return parts
}

/** Fields a model carries for all its offers (modelDocuments.ts): Meilisearch's match already settled them. */
const MODEL_LEVEL = new Set(["gender", "age_group"])

const clauseOf = (text: string): Clause => {
  const match = CLAUSE.exec(text)
  if (match === null) return () => true
  const [, field, op, raw] = match
  if (MODEL_LEVEL.has(field)) return () => true
  if (op === "IN") {
    const tests = [...raw.slice(1, -1).matchAll(new RegExp(VALUE, "g"))].map((m) => sameAs(unquote(m[0])))
    const inList = (value: unknown) => tests.some((test) => test(value))
    return (offer) => anyValue(offer, field, inList)
  }
  const wanted = unquote(raw)
  const equal = sameAs(wanted)
  if (op === "=") return (offer) => anyValue(offer, field, equal)
  if (op === "!=") return (offer) => !anyValue(offer, field, equal)
  if (typeof wanted !== "number") return () => true
  const compare =
    op === ">="
      ? (v: number) => v >= wanted
      : op === "<="
        ? (v: number) => v <= wanted
        : op === ">"
          ? (v: number) => v > wanted
          : (v: number) => v < wanted
  const inRange = (value: unknown) => typeof value === "number" && compare(value)
  return (offer) => anyValue(offer, field, inRange)
}

const cache = new Map<string, ReadonlyArray<Clause>>()
const clausesOf = (filter: string | undefined): ReadonlyArray<Clause> => {
  if (filter === undefined || filter.trim() === "") return []
  let clauses = cache.get(filter)
  if (clauses === undefined) {
    clauses = splitAnd(filter).map(clauseOf)
    if (cache.size >= 2_000) cache.delete(cache.keys().next().value as string)
    cache.set(filter, clauses)
  }
  return clauses
}

/** True when one offer passes every clause of the filter. */
export const offerMatches = (offer: Filterable, filter: string | undefined) =>
  clausesOf(filter).every((clause) => clause(offer))

/** Lower case without accents, as Meilisearch compares words ("Günstig" holds "guns"). */
const folded = (text: string) =>
  (/^[\x00-\x7f]*$/.test(text) ? text : text.normalize("NFD").replace(/\p{M}/gu, "")).toLowerCase()
const foldedField = memo(20_000, folded)

/** The query's words a shown offer should name (a search asks this once per hit of one query). */
const wordsOf = memo(2_000, (q) =>
  folded(q)
    .split(/\s+/)
    .filter((word) => word.length > 1)
)

/** What the offer choice reads of an offer besides the filter's fields. */
type ChoosableOffer = Filterable &
  Pick<
    EmbeddedOffer,
    "title" | "brand" | "category" | "product_type" | "store" | "price" | "deal_score" | "description_at"
  >

/** The offer's own fields a query word may be named by, besides its description. */
const NAMING_FIELDS = ["title", "brand", "category", "product_type", "store"] as const

const fieldNames = (offer: Pick<EmbeddedOffer, (typeof NAMING_FIELDS)[number]>, word: string): boolean => {
  for (const field of NAMING_FIELDS) {
    const value = offer[field]
    if (value !== null && foldedField(value).includes(word)) return true
  }
  return false
}

/**
 * The offer of a model a result shows: among the offers that pass the whole
 * filter, those whose own searchable fields name most of the query's words
 * (the white variant for "white earbuds"); of these the best (or, under a
 * price or deal sort, the cheapest or best-deal) one. None when no single
 * offer passes every clause (different offers met different clauses), or
 * when the query's words are named only by offers that fail the filter (a
 * EUR offer's store names "guns", the USD offer does not): then the model
 * does not match.
 */
export const offerFor = <O extends ChoosableOffer>(
  model: { readonly offer_list: OfferList<O>; readonly description: ModelHit["description"] },
  filter: string | undefined,
  sort?: ReadonlyArray<string>,
  q = ""
): O | undefined => {
  const offers = model.offer_list
  const words = wordsOf(q)
  const clauses = clausesOf(filter)
  const passes = (offer: O) => clauses.every((clause) => clause(offer))
  const descriptions: Array<string | undefined> = []
  const descriptionOf = (at: number) => (descriptions[at] ??= folded(model.description[at] ?? ""))
  // A query word has no spaces, so it is named by one field or not at all.
  // The offer's own fields first: a title names most words, and a word it
  // names needs no description folded (the costliest fold, per request).
  const wordsNamed = (offer: O) => {
    let n = 0
    for (const word of words) if (fieldNames(offer, word) || descriptionOf(offer.description_at).includes(word)) n++
    return n
  }
  const by = sort?.[0]
  const ordered = by === "price:asc" || by === "deal_score:desc"
  // The words each offer names, -1 for an offer that fails the filter; each
  // offer is read once. Best first, unsorted: the first passing offer that
  // names every word is the answer (no later one names more), so most
  // models cost one or two offers.
  // (offers are read by index: a Deal search's offer is built when first read, modelHits.ts)
  const offerAt = (i: number) => offers.at(i) as O
  const named: Array<number> = []
  for (let i = 0; i < offers.length; i++) {
    const offer = offerAt(i)
    const n = passes(offer) ? wordsNamed(offer) : -1
    if (!ordered && n === words.length) return offer
    named.push(n)
  }
  let most = -1
  for (const n of named) if (n > most) most = n
  if (most < 0) return undefined
  if (most === 0)
    for (let i = 0; i < offers.length; i++) if (named[i] < 0 && wordsNamed(offerAt(i)) > 0) return undefined
  // of the offers naming the most words: the first (offer_list is best first), or the cheapest or best deal
  let chosen: O | undefined
  for (let i = 0; i < offers.length; i++) {
    if (named[i] !== most) continue
    const offer = offerAt(i)
    if (
      chosen === undefined ||
      (by === "price:asc" && offer.price < chosen.price) ||
      (by === "deal_score:desc" && offer.deal_score > chosen.deal_score)
    )
      chosen = offer
  }
  return chosen
}

/** A model's offers read once for price-first choices (priceChoice). */
export interface PriceChoice<O> {
  /** offerFor(model, filter, ["price:asc"], q) */
  readonly cheapest: () => O | undefined
  /** offerFor(model, `<filter> AND currency = "X"`, ["price:asc"], q) */
  readonly cheapestIn: (currency: string) => O | undefined
  /** The currencies of the model's offers, in the order the offers first carry them. */
  readonly currencies: ReadonlyArray<string>
}

/**
 * The choices offerFor makes under a price sort, for the filter alone and
 * for the filter in each currency, from one reading of the model's offers:
 * each offer is read, tested against the filter and has its words counted
 * once. A price-word search (discovery/cheapest.ts) asks every model of a
 * pool of up to 200 for its cheapest offer, then for its cheapest in one or
 * every currency: one offerFor pass each read every offer again.
 */
export const priceChoice = <O extends ChoosableOffer & { readonly currency: string }>(
  model: { readonly offer_list: OfferList<O>; readonly description: ModelHit["description"] },
  filter: string | undefined,
  q = ""
): PriceChoice<O> => {
  const offers = model.offer_list
  const words = wordsOf(q)
  const clauses = clausesOf(filter)
  const descriptions: Array<string | undefined> = []
  const descriptionOf = (at: number) => (descriptions[at] ??= folded(model.description[at] ?? ""))
  const all: Array<O> = []
  const passing: Array<boolean> = []
  const counted: Array<number | undefined> = []
  /** The words offer i names, counted when first asked (as offerFor counts them). */
  const wordsNamed = (i: number) => {
    let n = counted[i]
    if (n === undefined) {
      n = 0
      for (const word of words) if (fieldNames(all[i], word) || descriptionOf(all[i].description_at).includes(word)) n++
      counted[i] = n
    }
    return n
  }
  const currencies: Array<string> = []
  for (let i = 0; i < offers.length; i++) {
    const offer = offers.at(i) as O
    all.push(offer)
    passing.push(clauses.every((clause) => clause(offer)))
    if (!currencies.includes(offer.currency)) currencies.push(offer.currency)
  }
  /** offerFor's choice under price:asc among the offers `within` keeps (the rest count as failing the filter). */
  const cheapestWhere = (within: (offer: O) => boolean): O | undefined => {
    const named = all.map((offer, i) => (passing[i] && within(offer) ? wordsNamed(i) : -1))
    let most = -1
    for (const n of named) if (n > most) most = n
    if (most < 0) return undefined
    // no kept offer names a word, but an excluded one does: the words belong to that one
    if (most === 0 && named.some((n, i) => n < 0 && wordsNamed(i) > 0)) return undefined
    let cheapest: O | undefined
    for (let i = 0; i < all.length; i++)
      if (named[i] === most && (cheapest === undefined || all[i].price < cheapest.price)) cheapest = all[i]
    return cheapest
  }
  return {
    cheapest: () => cheapestWhere(() => true),
    // the `currency = "X"` clause as clauseOf reads it (sameAs: strings regardless of case)
    cheapestIn: (currency) => {
      const inCurrency = sameAs(currency)
      return cheapestWhere((offer) => inCurrency(offer.currency))
    },
    currencies
  }
}

/** What offerFor(model, `<filter> AND currency = "X"`, ["price:asc"], q) answers for each currency X of the model's offers. */
export const cheapestOfferByCurrency = <O extends ChoosableOffer & { readonly currency: string }>(
  model: { readonly offer_list: OfferList<O>; readonly description: ModelHit["description"] },
  filter: string | undefined,
  q = ""
): Map<string, O | undefined> => {
  const choice = priceChoice(model, filter, q)
  return new Map(choice.currencies.map((currency) => [currency, choice.cheapestIn(currency)]))
}
