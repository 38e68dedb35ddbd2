import type { SearchParams } from "meilisearch"
import type { Intent } from "../domain/intent/parseIntent.ts"
import { cheapestFirst, SAME_CURRENCY, type PriceComparison } from "./priceOrder.ts"
import { namesTheProduct } from "./relaxation.ts"
import { type DealModel, type DealOffer, offerDocument, variantsOf } from "../readModel/modelDocuments.ts"
import { categoryLevelsOf, offerFor, type PriceChoice, priceChoice } from "../readModel/offerFilter.ts"
import type { EmbeddedDealOffer } from "../readModel/offerRows.ts"

// "Cheap running shoes": the cheapest products that are running shoes. A
// relevance floor first: the product's title (or, when the words named a
// catalog category, the title and its category levels) names every word
// (a synonym or a description is not enough: skate shoes are not running
// shoes, though the index joins sneakers and running shoes), then price.
// With no conversion, the answer's currency is that of the most relevant
// product, each product shows its cheapest offer in that currency, and the
// products sold only in other currencies follow, each currency cheapest
// first on its own.

/**
 * Models a search with price words reads before ordering by price: every
 * product naming the words, up to this many, so the first result is the
 * cheapest of them and not the cheapest of the first page by relevance.
 */
const CHEAP_POOL = 200

/** Price words ("cheap", "budget") over product words: cheapest first among products that name them. */
export const cheapestWanted = (intent: Intent) => intent.preference === "lower_price" && intent.broadQuery !== ""

/**
 * How many models an intent search's strict request asks for to show
 * results up to `want`: the price-word pool, or the page's end. Shared with
 * bench:search, whose direct Meilisearch query must be the one sent here.
 */
export const strictModels = (intent: Intent, want: number) =>
  cheapestWanted(intent) ? Math.max(CHEAP_POOL, want) : want

const tokensOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/['\u2019]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 0)

/** A word's stem for a plural-tolerant match ("shoes" -> "shoe", "boxes" -> "box"). */
const stem = (word: string) =>
  word.length > 4 && word.endsWith("es") && /(?:x|ch|sh|ss)es$/.test(word)
    ? word.slice(0, -2)
    : word.length > 3 && word.endsWith("s") && !word.endsWith("ss")
      ? word.slice(0, -1)
      : word

/** A text's tokens with their stems. */
interface Tokens {
  readonly tokens: ReadonlyArray<string>
  readonly stems: ReadonlyArray<string>
}

// A price-word search tests the title (and category levels) of each of up
// to 300 pooled models against the phrase, and popular titles and category
// paths recur from search to search: each text is split and stemmed once.
const TOKENS_KEPT = 20_000
const tokensMemo = new Map<string, Tokens>()
const tokensOfText = (text: string): Tokens => {
  let known = tokensMemo.get(text)
  if (known === undefined) {
    const tokens = tokensOf(text)
    known = { tokens, stems: tokens.map(stem) }
    if (tokensMemo.size >= TOKENS_KEPT) tokensMemo.clear()
    tokensMemo.set(text, known)
  }
  return known
}

/** True when the texts hold every word of `q` (singular or plural). */
export const namesEveryWord = (texts: ReadonlyArray<string>, q: string): boolean => {
  const read = texts.map(tokensOfText)
  return tokensOfText(q).tokens.every((word) => {
    const wanted = stem(word)
    return read.some(({ tokens, stems }) => tokens.some((token, i) => token === word || stems[i] === wanted))
  })
}

/** An offer of a model as a result shows it. */
const asShown = (hit: DealModel, offer: EmbeddedDealOffer): DealOffer => ({
  ...offerDocument(hit, offer),
  variants: variantsOf(hit)
})

/** A model's offer that meets the filter and is cheapest by `comparison`'s amounts (the leading group first). */
const cheapestConverted = (
  choice: PriceChoice<EmbeddedDealOffer>,
  comparison: PriceComparison
): EmbeddedDealOffer | undefined => {
  const leads = (o: EmbeddedDealOffer) => comparison.groupOf(o) === comparison.leading
  let best: EmbeddedDealOffer | undefined
  for (const currency of choice.currencies) {
    const offer = choice.cheapestIn(currency)
    if (offer === undefined) continue
    if (
      best === undefined ||
      (leads(offer) && !leads(best)) ||
      (leads(offer) === leads(best) && comparison.amountOf(offer) < comparison.amountOf(best))
    )
      best = offer
  }
  return best
}

/** A pooled model and the offer it is ordered by. */
interface Ranked {
  readonly hit: DealModel
  readonly offer: EmbeddedDealOffer
}

/**
 * A price-word answer, cheapest first: every pooled product counts (its
 * length is the answer's total), but only the page asked for is rendered as
 * results. The pool holds up to 300 models and a page shows eight: building
 * each one's result (offer document, category levels, catalog id), with
 * each title split anew, made "cheap shoes" at 1M products 12.3 ms of CPU
 * from Meilisearch's answer to ours, against 9.9 ms now (in process).
 */
export class CheapestAnswer {
  private readonly ranked: ReadonlyArray<Ranked>
  constructor(ranked: ReadonlyArray<Ranked>) {
    this.ranked = ranked
  }

  get length() {
    return this.ranked.length
  }

  /** The results from `start` up to (not including) `end`, as Array.prototype.slice reads them. */
  slice(start?: number, end?: number): Array<DealOffer> {
    return this.ranked.slice(start, end).map(({ hit, offer }) => asShown(hit, offer))
  }
}

/**
 * The strict hits of a price-word search as its answer: the relevance floor,
 * then cheapest first. `comparison` converts or groups prices (priceOrder.ts);
 * the default compares only within one currency.
 */
export const cheapestAnswer = (
  hits: ReadonlyArray<DealModel>,
  params: SearchParams,
  q: string,
  /** The words named a catalog category ("cheap shoes"): a product filed under it names the product too. */
  namedCategory: boolean,
  comparison: PriceComparison = SAME_CURRENCY
): CheapestAnswer => {
  const filter = params.filter as string | undefined
  // Price words sort by price (relaxation.ts sortFor): each model's offers are then read once for
  // the offer shown and its cheapest in one or every currency (offerFilter.ts priceChoice).
  const byPrice = params.sort?.[0] === "price:asc"
  const shown: Array<Ranked & { readonly choice: PriceChoice<EmbeddedDealOffer> }> = []
  for (const hit of hits) {
    if (!namesTheProduct(hit)) continue
    const choice = priceChoice(hit, filter, q)
    const offer = byPrice ? choice.cheapest() : offerFor<EmbeddedDealOffer>(hit, filter, params.sort, q)
    if (offer !== undefined) shown.push({ hit, offer, choice })
  }
  // The title names the product; failing that a category level ("cheap electronics"); a misspelt
  // word names nothing, and then the engine's own matching is the floor.
  const byTitle = namedCategory ? [] : shown.filter(({ offer }) => namesEveryWord([offer.title], q))
  const byCategory =
    byTitle.length > 0
      ? byTitle
      : shown.filter(({ offer }) =>
          namesEveryWord([offer.title, ...categoryLevelsOf(offer.category, offer.product_type)], q)
        )
  const pool = byCategory.length > 0 ? byCategory : shown
  const ordered = (ranked: Array<Ranked>) => new CheapestAnswer(cheapestFirst(ranked, comparison, ({ offer }) => offer))
  if (comparison.converted !== undefined)
    // each product at its cheapest offer once converted: its offers in every currency compete
    return ordered(
      pool.map(({ hit, offer, choice }) => ({ hit, offer: cheapestConverted(choice, comparison) ?? offer }))
    )
  if (comparison !== SAME_CURRENCY || pool.length === 0) return ordered(pool.map(({ hit, offer }) => ({ hit, offer })))
  const currency = pool[0].offer.currency
  return ordered(pool.map(({ hit, offer, choice }) => ({ hit, offer: choice.cheapestIn(currency) ?? offer })))
}
