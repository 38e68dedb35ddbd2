import type { SearchParams } from "meilisearch"
import type { Intent } from "../domain/intent/parseIntent.ts"
import { cheapestFirst, SAME_CURRENCY, type PriceComparison } from "./priceOrder.ts"
import { namesTheProduct } from "./relaxation.ts"
import { type DealModel, type DealOffer, offerDocument, variantsOf } from "../readModel/modelDocuments.ts"
import { type PriceChoice, priceChoice } from "../readModel/offerFilter.ts"
import type { EmbeddedDealOffer } from "../readModel/offerRows.ts"
import { shownOffer } from "./shownOffers.ts"

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

/** True when the texts hold every word of `q` (singular or plural). */
export const namesEveryWord = (texts: ReadonlyArray<string>, q: string): boolean => {
  const tokens = texts.flatMap(tokensOf)
  return tokensOf(q).every((word) => {
    const wanted = stem(word)
    return tokens.some((token) => token === word || stem(token) === wanted)
  })
}

/** An offer of a model as a result shows it. */
const asShown = (hit: DealModel, offer: EmbeddedDealOffer | undefined): DealOffer | undefined =>
  offer === undefined ? undefined : { ...offerDocument(hit, offer), variants: variantsOf(hit) }

/** A model's offer that meets the filter and is cheapest by `comparison`'s amounts (the leading group first). */
const cheapestConverted = (
  hit: DealModel,
  choice: PriceChoice<EmbeddedDealOffer>,
  comparison: PriceComparison
): DealOffer | undefined => {
  const leads = (o: DealOffer) => comparison.groupOf(o) === comparison.leading
  let best: DealOffer | undefined
  for (const currency of choice.currencies) {
    const offer = asShown(hit, choice.cheapestIn(currency))
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
): Array<DealOffer> => {
  const filter = params.filter as string | undefined
  // Price words sort by price (relaxation.ts sortFor): each model's offers are then read once for
  // the offer shown and its cheapest in one or every currency (offerFilter.ts priceChoice).
  const byPrice = params.sort?.[0] === "price:asc"
  const shown = hits.flatMap((hit) => {
    if (!namesTheProduct(hit)) return []
    const choice = priceChoice(hit, filter, q)
    const offer = byPrice ? asShown(hit, choice.cheapest()) : shownOffer(hit, params, q)
    return offer === undefined ? [] : [{ hit, offer, choice }]
  })
  // The title names the product; failing that a category level ("cheap electronics"); a misspelt
  // word names nothing, and then the engine's own matching is the floor.
  const byTitle = namedCategory ? [] : shown.filter(({ offer }) => namesEveryWord([offer.title], q))
  const byCategory =
    byTitle.length > 0 ? byTitle : shown.filter(({ offer }) => namesEveryWord([offer.title, ...offer.categories], q))
  const pool = byCategory.length > 0 ? byCategory : shown
  if (comparison.converted !== undefined)
    // each product at its cheapest offer once converted: its offers in every currency compete
    return cheapestFirst(
      pool.map(({ hit, offer, choice }) => cheapestConverted(hit, choice, comparison) ?? offer),
      comparison
    )
  if (comparison !== SAME_CURRENCY || pool.length === 0)
    return cheapestFirst(
      pool.map(({ offer }) => offer),
      comparison
    )
  const currency = pool[0].offer.currency
  return cheapestFirst(
    pool.map(({ hit, offer, choice }) => asShown(hit, choice.cheapestIn(currency)) ?? offer),
    SAME_CURRENCY
  )
}
