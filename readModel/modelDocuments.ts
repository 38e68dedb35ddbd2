import { createHash } from "node:crypto"
import { catalogIdOf, categoryLevels, type ProductDocument } from "./documents.ts"
import { type EmbeddedDealOffer, type MoreOfferRow, offerRows, offersOf } from "./offerRows.ts"

// One search document per product model (the offers sharing a group key:
// the colours, sizes, conditions and stores of one product). Search, ranking
// and filters run on the model; what a result shows is one of its offers,
// embedded whole, so a search is one Meilisearch query and no DuckDB read.
//
// Filterable fields hold every offer's value (store: every store, price:
// every price, in_stock: true when any offer is), so a filter matches a model
// when one of its offers matches; the API then shows the best offer that
// matches the whole filter (offerFilter.ts). Sorting on an array uses its
// lowest value ascending and its highest descending: price:asc ranks by the
// cheapest offer, deal_score:desc by the best deal.

/**
 * An offer inside a model document, without what the model or the offer
 * already says (a search reads back every offer of each hit, so bytes count):
 * its description is the model's `description[description_at]`, its group
 * key the model key, its catalog id decoded from its id, its categories
 * derived from its category and product type. Who it is for (gender, age
 * group) is filtered on the model only, so an offer does not repeat it.
 */
export type EmbeddedOffer = Omit<
  ProductDocument,
  "description" | "group_key" | "product_id" | "categories" | "gender" | "age_group"
> & {
  readonly description_at: number
}

export interface ModelDocument {
  /** md5 of the model key: Meilisearch ids allow only [A-Za-z0-9_-]. */
  readonly id: string
  readonly model_key: string
  /** Every offer's title, the best offer's first (colour variants name their colour). */
  readonly title: ReadonlyArray<string>
  /** Every distinct offer description, the best offer's first (stores word one product differently). */
  readonly description: ReadonlyArray<string>
  readonly brand: ReadonlyArray<string>
  readonly category: ReadonlyArray<string>
  readonly product_type: ReadonlyArray<string>
  readonly categories: ReadonlyArray<string>
  readonly store: ReadonlyArray<string>
  readonly store_domain: ReadonlyArray<string>
  readonly feed: ReadonlyArray<string>
  readonly price: ReadonlyArray<number>
  readonly currency: ReadonlyArray<string>
  /** Every country some offer sells in (the market filter; each offer says its own). */
  readonly countries: ReadonlyArray<string>
  readonly availability: ReadonlyArray<string>
  readonly in_stock: ReadonlyArray<boolean>
  readonly discount: ReadonlyArray<number>
  readonly is_deal: ReadonlyArray<boolean>
  readonly deal_score: ReadonlyArray<number>
  /** Document ids of the offers (deal ids), so a landing page finds its model in one filtered query. */
  readonly offer_ids: ReadonlyArray<string>
  /** Number of offers. */
  readonly offers: number
  /** Number of distinct stores. */
  readonly stores: number
  /** Lowest and highest offer price per currency. */
  readonly price_min: Readonly<Record<string, number>>
  readonly price_max: Readonly<Record<string, number>>
  readonly colors: ReadonlyArray<string>
  readonly sizes: ReadonlyArray<string>
  /** Who the offers are for (productAudience.ts), for recipient and age filters; empty when no offer says. */
  readonly gender: ReadonlyArray<string>
  readonly age_group: ReadonlyArray<string>
  /** The distinct texts of the offers' DEAL_OFFER_FIELDS rows (offerRows.ts: offerTexts). */
  readonly offer_strings: ReadonlyArray<string>
  /**
   * Every offer, best first (in stock, deepest verified saving, lowest price): the JSON
   * text of its DEAL_OFFER_FIELDS values (a DealOfferRow: texts as indexes in offer_strings).
   */
  readonly offer_rows: ReadonlyArray<string>
  /** The same offers' MORE_OFFER_FIELDS values, in the same order. */
  readonly offer_more: ReadonlyArray<MoreOfferRow>
}

/** What a Deal says about the rest of its model. */
export interface ModelVariants {
  readonly colors: ReadonlyArray<string>
  readonly sizes: ReadonlyArray<string>
  readonly offers: number
  readonly stores: number
}

/** What a model search reads of a model besides its offers. */
const MODEL_FIELDS = ["id", "model_key", "description", "offers", "stores", "colors", "sizes"] as const

/** The fields a Deal search reads back (offers as DEAL_OFFER_FIELDS rows): the filter arrays stay in the index. */
export const DEAL_RETRIEVED_FIELDS = [...MODEL_FIELDS, "offer_strings", "offer_rows"]

/** The fields a search for whole offers reads back (the catalog tools, landing pages). */
export const MODEL_RETRIEVED_FIELDS = [...DEAL_RETRIEVED_FIELDS, "offer_more"]

/** A model document as a search reads it back: its offers as objects again (readModel/modelHits.ts). */
export type ModelHit = Pick<ModelDocument, (typeof MODEL_FIELDS)[number]> & {
  readonly offer_list: ReadonlyArray<EmbeddedOffer>
}

/** Offers read one at a time: a Deal search reads an offer's row when the offer choice first reaches it. An array is one. */
export interface OfferList<O> {
  readonly length: number
  at(index: number): O | undefined
}

/** A model document as the Deal searches read it. */
export type DealModel = Omit<ModelHit, "offer_list"> & { readonly offer_list: OfferList<EmbeddedDealOffer> }

export const modelDocumentId = (modelKey: string) => createHash("md5").update(modelKey).digest("hex")

type OfferFacts = Pick<ProductDocument, "in_stock" | "reference_price" | "price" | "discount" | "id">

const verifiedSaving = (offer: OfferFacts) =>
  offer.reference_price !== null && offer.reference_price > offer.price && offer.discount > 0 ? offer.discount : 0

/** The order a shopper should meet offers in: in stock, deepest verified saving, lowest price (then a stable id). */
export const bestOfferFirst = (a: OfferFacts, b: OfferFacts) =>
  Number(b.in_stock) - Number(a.in_stock) ||
  verifiedSaving(b) - verifiedSaving(a) ||
  a.price - b.price ||
  (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

const distinct = <A>(values: Iterable<A | null | undefined>): Array<A> => {
  const out = new Set<A>()
  for (const value of values) if (value !== null && value !== undefined && value !== "") out.add(value)
  return [...out]
}

/** The model document of one model's offers (all sharing a group key). */
export const modelDocument = (offers: ReadonlyArray<ProductDocument>): ModelDocument => {
  const sorted = [...offers].sort(bestOfferFirst)
  const best = sorted[0]
  const priceMin: Record<string, number> = {}
  const priceMax: Record<string, number> = {}
  for (const offer of sorted) {
    priceMin[offer.currency] = Math.min(priceMin[offer.currency] ?? Infinity, offer.price)
    priceMax[offer.currency] = Math.max(priceMax[offer.currency] ?? -Infinity, offer.price)
  }
  const descriptions = distinct(sorted.map((offer) => offer.description))
  const descriptionAt = new Map(descriptions.map((description, i) => [description, i]))
  const field = <K extends keyof ProductDocument>(key: K) =>
    distinct(sorted.map((offer) => offer[key] as NonNullable<ProductDocument[K]> | null))
  return {
    id: modelDocumentId(best.group_key),
    model_key: best.group_key,
    title: field("title"),
    description: descriptions.length > 0 ? descriptions : [""],
    brand: field("brand"),
    category: field("category"),
    product_type: field("product_type"),
    categories: distinct(sorted.flatMap((offer) => offer.categories)),
    store: field("store"),
    store_domain: field("store_domain"),
    feed: field("feed"),
    price: field("price"),
    currency: field("currency"),
    countries: distinct(sorted.flatMap((offer) => offer.countries)),
    availability: field("availability"),
    in_stock: field("in_stock"),
    discount: field("discount"),
    is_deal: field("is_deal"),
    deal_score: field("deal_score"),
    offer_ids: sorted.map((offer) => offer.id),
    offers: sorted.length,
    stores: field("store").length,
    price_min: priceMin,
    price_max: priceMax,
    colors: distinct(sorted.map((offer) => offer.color?.trim())),
    sizes: distinct(sorted.map((offer) => offer.size?.trim())),
    gender: distinct(sorted.map((offer) => offer.gender)),
    age_group: distinct(sorted.map((offer) => offer.age_group)),
    // An offer whose description is empty points at the model's first.
    ...offerRows(sorted, (offer) => descriptionAt.get(offer.description) ?? 0)
  }
}

/** A stored model document as a search reads it back. */
export const modelHitOf = (model: ModelDocument): ModelHit => ({
  id: model.id,
  model_key: model.model_key,
  description: model.description,
  offers: model.offers,
  stores: model.stores,
  colors: model.colors,
  sizes: model.sizes,
  offer_list: offersOf(model)
})

/** Groups offer documents by model key and builds one model document per group. */
export const modelDocuments = (offers: ReadonlyArray<ProductDocument>): Array<ModelDocument> => {
  const groups = new Map<string, Array<ProductDocument>>()
  for (const offer of offers) {
    const group = groups.get(offer.group_key)
    if (group === undefined) groups.set(offer.group_key, [offer])
    else group.push(offer)
  }
  return [...groups.values()].map(modelDocument)
}

/** What an embedded offer leaves to its model or derives (offerDocument puts it back). */
type OfferDocumentOf<O> = Omit<O, "description_at"> &
  Pick<ProductDocument, "product_id" | "group_key" | "categories" | "description">

/** An embedded offer as the offer document the endpoints render (with the fields it was read back with). */
export const offerDocument = <O extends Pick<EmbeddedOffer, "id" | "category" | "product_type" | "description_at">>(
  model: Pick<ModelDocument, "description" | "model_key">,
  { description_at, ...offer }: O
): OfferDocumentOf<O> => ({
  ...offer,
  product_id: catalogIdOf(offer.id) ?? offer.id,
  group_key: model.model_key,
  categories: categoryLevels(offer.category, offer.product_type),
  description: model.description[description_at] ?? ""
})

export const variantsOf = (model: Pick<ModelDocument, "colors" | "sizes" | "offers" | "stores">): ModelVariants => ({
  colors: model.colors,
  sizes: model.sizes,
  offers: model.offers,
  stores: model.stores
})

/** An offer as a search result shows it: the offer document and what the rest of its model offers. */
export type ShownOffer = ProductDocument & { readonly variants?: ModelVariants }

/** An offer as a Deal search shows it (only DEAL_OFFER_FIELDS read); every ShownOffer is one. */
export type DealOffer = OfferDocumentOf<EmbeddedDealOffer> & { readonly variants?: ModelVariants }
