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
//
// A deal row is stored as its JSON text (numbers, flags, nulls and text
// indexes: no quotes to escape). Measured on bench:search's sample catalog:
// Meilisearch returns one string per offer for less than twenty values
// (its CPU per search 1.18-1.24 -> 0.96-1.06 ms), the service parses an
// answer in 47 instead of 72 µs, and an offer's values are read only when
// the offer choice reaches it (modelHits.ts: DealOffers).

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
  "countries",
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
/** A text value as its row stores it: its index in the model's `offer_strings` (null stays null). */
type TextAt<V> = V extends string ? number : V
/** A DEAL_OFFER_FIELDS row: numbers and flags as they are, each text as its index in `offer_strings`. */
export type DealOfferRow = {
  readonly [I in keyof RowOf<typeof DEAL_OFFER_FIELDS>]: TextAt<RowOf<typeof DEAL_OFFER_FIELDS>[I]>
}
export type MoreOfferRow = RowOf<typeof MORE_OFFER_FIELDS>

/** An offer as the Deal searches read it. */
export type EmbeddedDealOffer = Pick<EmbeddedOffer, DealOfferField>

/** An offer as the sync has it: every field but where its description is in its model's. */
export type OfferFields = Omit<EmbeddedOffer, "description_at">

/**
 * A model's offer texts, each kept once (`strings`, stored as `offer_strings`):
 * the offers of one model repeat their titles, brands, category paths,
 * stores, currencies and check dates, and a search reads back every offer of
 * a dozen models. Measured on bench:search's answers (5,500 products, 15
 * phrases): 72 KB and 104 µs of JSON.parse per search with the texts in the
 * rows, 53 KB and 72 µs with the table.
 */
export const offerTexts = () => {
  const strings: Array<string> = []
  const at = new Map<string, number>()
  function index(text: string): number
  function index(text: string | null | undefined): number | null
  function index(text: string | null | undefined): number | null {
    if (text === null || text === undefined) return null
    let i = at.get(text)
    if (i === undefined) {
      i = strings.push(text) - 1
      at.set(text, i)
    }
    return i
  }
  return { strings, index }
}

// An offer to its rows: array literals in DEAL_OFFER_FIELDS' and
// MORE_OFFER_FIELDS' order (the tuple types check each value's type; a test
// the order against the field lists), not `fields.map((field) => offer[field])`:
// a lookup by a name that varies is slow in V8, and the sync encodes 1M offers.
// Every value `?? null`, as the field lists' encoding was: an absent colour or size is null.

/** An offer's DEAL_OFFER_FIELDS row, its texts indexed by `text` (offerTexts). */
export const dealOfferRow = (
  offer: OfferFields,
  description_at: number,
  text: ReturnType<typeof offerTexts>["index"]
): DealOfferRow => [
  text(offer.id),
  text(offer.title),
  text(offer.brand),
  text(offer.category),
  text(offer.product_type),
  text(offer.store),
  text(offer.store_domain),
  text(offer.image),
  offer.price ?? null,
  text(offer.currency),
  offer.countries,
  offer.feed_was_price ?? null,
  text(offer.availability),
  offer.in_stock ?? null,
  offer.reference_price ?? null,
  text(offer.reference_observed_at),
  offer.discount ?? null,
  offer.is_deal ?? null,
  offer.deal_score ?? null,
  text(offer.price_checked_at),
  description_at
]

/** An offer's MORE_OFFER_FIELDS row (its texts in place: only the catalog tools read it, and links are unique). */
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
): Pick<ModelDocument, "offer_strings" | "offer_rows" | "offer_more"> => {
  const { strings, index } = offerTexts()
  const offer_rows = offers.map((offer) => JSON.stringify(dealOfferRow(offer, descriptionAt(offer), index)))
  return { offer_strings: strings, offer_rows, offer_more: offers.map(moreOfferRow) }
}

// A row back to its offer: an object literal of one fixed shape, ~10x
// cheaper than setting each field by name (bench:search's profile: 84 vs
// 11 µs per search). The names follow DEAL_OFFER_FIELDS' and MORE_OFFER_FIELDS'
// order (the tuple types check each value's type; a round-trip test the order).

function textOf(strings: ReadonlyArray<string>, at: number): string
function textOf(strings: ReadonlyArray<string>, at: number | null): string | null
function textOf(strings: ReadonlyArray<string>, at: number | null): string | null {
  return at === null ? null : strings[at]
}

/** A DEAL_OFFER_FIELDS row as the offer it was; `strings` is its model's `offer_strings`. */
export const dealOfferOf = (
  [
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
    countries,
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
  ]: DealOfferRow,
  strings: ReadonlyArray<string>
): EmbeddedDealOffer => ({
  id: textOf(strings, id),
  title: textOf(strings, title),
  brand: textOf(strings, brand),
  category: textOf(strings, category),
  product_type: textOf(strings, product_type),
  store: textOf(strings, store),
  store_domain: textOf(strings, store_domain),
  image: textOf(strings, image),
  price,
  currency: textOf(strings, currency),
  countries,
  feed_was_price,
  availability: textOf(strings, availability),
  in_stock,
  reference_price,
  reference_observed_at: textOf(strings, reference_observed_at),
  discount,
  is_deal,
  deal_score,
  price_checked_at: textOf(strings, price_checked_at),
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
export const offersOf = (
  model: Pick<ModelDocument, "offer_strings" | "offer_rows" | "offer_more">
): Array<EmbeddedOffer> =>
  model.offer_rows.map((row, i) => ({
    ...dealOfferOf(JSON.parse(row) as DealOfferRow, model.offer_strings),
    ...moreOfferOf(model.offer_more[i])
  }))
