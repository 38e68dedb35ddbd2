import type { EmbeddedOffer, ModelDocument } from "./modelDocuments.ts"

// How a model document stores its offers (modelDocuments.ts): each offer as
// rows of values in a fixed field order, not as an object. A search reads
// back every offer of a dozen models to show one of each, and without its
// keys an answer is half the bytes. Measured on bench:search's answers
// (5,500 products, 15 phrases): 143 KB and 242 µs of toString + JSON.parse
// per search with offer objects, 70 KB and 103 µs with rows; Meilisearch's
// own CPU per search fell from 2.7 to 1.3 ms (it serialises half the bytes).
// Meilisearch's nested field selection (`offer_list.price`) had cut answers
// by only ~25%, at 0.17 ms more Meilisearch CPU per search.

/**
 * What an offer choice reads (offerFilter.ts: the fields the service's
 * filters name, the words a result must name, the sorts) and what a Deal
 * shows, in the order of an offer's row in `offer_rows`.
 */
export const DEAL_OFFER_FIELDS = [
  "id",
  "title",
  "brand",
  "category",
  "product_type",
  "store",
  "store_domain",
  "image",
  "price",
  "currency",
  "feed_was_price",
  "availability",
  "in_stock",
  "reference_price",
  "reference_observed_at",
  "discount",
  "is_deal",
  "deal_score",
  "price_checked_at",
  "description_at"
] as const satisfies ReadonlyArray<keyof EmbeddedOffer>

/** The rest of an offer, in the order of its row in `offer_more`: read back by the catalog tools only. */
export const MORE_OFFER_FIELDS = [
  "feed",
  "link",
  "regular_price",
  "condition",
  "color",
  "size",
  "reference_kind",
  "low_90",
  "price_since"
] as const satisfies ReadonlyArray<keyof EmbeddedOffer>

type DealOfferField = (typeof DEAL_OFFER_FIELDS)[number]
type MoreOfferField = (typeof MORE_OFFER_FIELDS)[number]
// Every field of an offer is in one of the two rows (a field left out would be lost silently).
const rowsHoldEveryField: [Exclude<keyof EmbeddedOffer, DealOfferField | MoreOfferField>] extends [never]
  ? true
  : never = true
void rowsHoldEveryField

/** An offer's values in the order of `fields` (an absent colour or size is null). */
type RowOf<F extends ReadonlyArray<keyof EmbeddedOffer>> = {
  readonly [I in keyof F]: Exclude<EmbeddedOffer[F[I]], undefined>
}
export type DealOfferRow = RowOf<typeof DEAL_OFFER_FIELDS>
export type MoreOfferRow = RowOf<typeof MORE_OFFER_FIELDS>

/** An offer as the Deal searches read it. */
export type EmbeddedDealOffer = Pick<EmbeddedOffer, DealOfferField>

/** An offer as the sync has it: every field but where its description is in its model's. */
export type OfferFields = Omit<EmbeddedOffer, "description_at">

// An offer to its rows: array literals in DEAL_OFFER_FIELDS' and
// MORE_OFFER_FIELDS' order (the tuple types check each value's type; a test
// the order against the field lists), not `fields.map((field) => offer[field])`:
// a lookup by a name that varies is slow in V8, and the sync encodes 1M offers.
// Every value `?? null`, as the field lists' encoding was: an absent colour or size is null.

/** An offer's DEAL_OFFER_FIELDS row. */
export const dealOfferRow = (offer: OfferFields, description_at: number): DealOfferRow => [
  offer.id ?? null,
  offer.title ?? null,
  offer.brand ?? null,
  offer.category ?? null,
  offer.product_type ?? null,
  offer.store ?? null,
  offer.store_domain ?? null,
  offer.image ?? null,
  offer.price ?? null,
  offer.currency ?? null,
  offer.feed_was_price ?? null,
  offer.availability ?? null,
  offer.in_stock ?? null,
  offer.reference_price ?? null,
  offer.reference_observed_at ?? null,
  offer.discount ?? null,
  offer.is_deal ?? null,
  offer.deal_score ?? null,
  offer.price_checked_at ?? null,
  description_at
]

/** An offer's MORE_OFFER_FIELDS row. */
export const moreOfferRow = (offer: OfferFields): MoreOfferRow => [
  offer.feed ?? null,
  offer.link ?? null,
  offer.regular_price ?? null,
  offer.condition ?? null,
  offer.color ?? null,
  offer.size ?? null,
  offer.reference_kind ?? null,
  offer.low_90 ?? null,
  offer.price_since ?? null
]

/** Offers as the rows a model document stores; `descriptionAt` says where each offer's description is in its model's. */
export const offerRows = <O extends OfferFields>(
  offers: ReadonlyArray<O>,
  descriptionAt: (offer: O) => number
): Pick<ModelDocument, "offer_rows" | "offer_more"> => ({
  offer_rows: offers.map((offer) => dealOfferRow(offer, descriptionAt(offer))),
  offer_more: offers.map(moreOfferRow)
})

// A row back to its offer: an object literal of one fixed shape, ~10x
// cheaper than setting each field by name (bench:search's profile: 84 vs
// 11 µs per search). The names follow DEAL_OFFER_FIELDS' and MORE_OFFER_FIELDS'
// order (the tuple types check each value's type; a round-trip test the order).

/** A DEAL_OFFER_FIELDS row as the offer it was. */
export const dealOfferOf = ([
  id,
  title,
  brand,
  category,
  product_type,
  store,
  store_domain,
  image,
  price,
  currency,
  feed_was_price,
  availability,
  in_stock,
  reference_price,
  reference_observed_at,
  discount,
  is_deal,
  deal_score,
  price_checked_at,
  description_at
]: DealOfferRow): EmbeddedDealOffer => ({
  id,
  title,
  brand,
  category,
  product_type,
  store,
  store_domain,
  image,
  price,
  currency,
  feed_was_price,
  availability,
  in_stock,
  reference_price,
  reference_observed_at,
  discount,
  is_deal,
  deal_score,
  price_checked_at,
  description_at
})

/** A MORE_OFFER_FIELDS row as the rest of the offer it was. */
export const moreOfferOf = ([
  feed,
  link,
  regular_price,
  condition,
  color,
  size,
  reference_kind,
  low_90,
  price_since
]: MoreOfferRow): Pick<EmbeddedOffer, MoreOfferField> => ({
  feed,
  link,
  regular_price,
  condition,
  color,
  size,
  reference_kind,
  low_90,
  price_since
})

/** A stored model document's offers as objects (unchecked: documents this service built; searches check theirs in modelHits.ts). */
export const offersOf = (model: Pick<ModelDocument, "offer_rows" | "offer_more">): Array<EmbeddedOffer> =>
  model.offer_rows.map((row, i) => ({ ...dealOfferOf(row), ...moreOfferOf(model.offer_more[i]) }))
