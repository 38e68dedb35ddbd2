import type { Hit } from "meilisearch"
import type { DealModel, EmbeddedOffer, ModelHit, OfferList } from "./modelDocuments.ts"
import {
  DEAL_OFFER_FIELDS,
  dealOfferOf,
  type DealOfferRow,
  type EmbeddedDealOffer,
  MORE_OFFER_FIELDS,
  moreOfferOf,
  type MoreOfferRow
} from "./offerRows.ts"

// Meilisearch's answers to the model searches, checked where the service
// reads them, with each hit's offer rows turned back into offer objects. A
// search reads back every offer of a dozen models to show one of each, so a
// Schema decode of every offer would cost more than the JSON parse: each
// value is checked with one typeof while its offer is built, and a document
// of another shape (a stale index, a bad sync) is an error naming the field,
// never a crash further on. A Deal search's offers are built when the offer
// choice first reads them (DealOffers), so a bad row is met there
// (MalformedOffer) and answered as the other checks are.

type Kind = "string" | "number" | "boolean" | "string?" | "number?" | "strings" | "text" | "text?"

/** An index in a hit's offer_strings (already checked to hold strings only). */
const isTextAt = (value: unknown, strings: ReadonlyArray<string>) =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 && value < strings.length

const isStringList = (value: unknown): value is ReadonlyArray<string> =>
  Array.isArray(value) && value.every((item) => typeof item === "string")

/** What a row of no texts checks its "text" kinds against (none: it holds none). */
const NO_TEXTS: ReadonlyArray<string> = []

const holds = (kind: Kind, value: unknown, strings: ReadonlyArray<string> = NO_TEXTS): boolean => {
  switch (kind) {
    case "text":
      return isTextAt(value, strings)
    case "text?":
      return value === null || isTextAt(value, strings)
    case "string":
      return typeof value === "string"
    case "number":
      return typeof value === "number"
    case "boolean":
      return typeof value === "boolean"
    case "string?":
      return value === null || typeof value === "string"
    case "number?":
      return value === null || typeof value === "number"
    case "strings":
      return isStringList(value)
  }
}

const MODEL_FIELDS: ReadonlyArray<readonly [keyof ModelHit, Kind]> = [
  ["id", "string"],
  ["model_key", "string"],
  ["description", "strings"],
  ["offers", "number"],
  ["stores", "number"],
  ["colors", "strings"],
  ["sizes", "strings"]
]

/** What each field of an offer must hold. */
const OFFER_KINDS: Record<keyof EmbeddedOffer, Kind> = {
  id: "string",
  title: "string",
  brand: "string?",
  category: "string?",
  product_type: "string?",
  store: "string",
  store_domain: "string?",
  image: "string?",
  price: "number",
  currency: "string",
  countries: "strings",
  feed_was_price: "number?",
  availability: "string",
  in_stock: "boolean",
  reference_price: "number?",
  reference_observed_at: "string?",
  discount: "number",
  is_deal: "boolean",
  deal_score: "number",
  price_checked_at: "string",
  description_at: "number",
  feed: "string",
  link: "string",
  regular_price: "number",
  condition: "string?",
  color: "string?",
  size: "string?",
  reference_kind: "string?",
  low_90: "number?",
  price_since: "string?"
}

/** A deal row holds each text as its index in offer_strings. */
const storedKind = (kind: Kind): Kind => (kind === "string" ? "text" : kind === "string?" ? "text?" : kind)
const DEAL_ROW = DEAL_OFFER_FIELDS.map((field) => [field, storedKind(OFFER_KINDS[field])] as const)
const MORE_ROW = MORE_OFFER_FIELDS.map((field) => [field, OFFER_KINDS[field]] as const)

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The first field of `fields` whose value in `row` is not what it must hold, or undefined. */
const wrongField = (
  row: ReadonlyArray<unknown>,
  fields: ReadonlyArray<readonly [string, Kind]>,
  strings: ReadonlyArray<string>
): string | undefined => {
  for (let at = 0; at < fields.length; at++) if (!holds(fields[at][1], row[at], strings)) return fields[at][0]
  return undefined
}

/**
 * What is wrong with one row of an offer (`where` names it), or undefined
 * when each value holds its field's kind. The offer is named by `offerId`,
 * else by the row's first value (a deal row's id, a text index).
 */
const rowProblem = (
  hitId: string,
  where: string,
  row: unknown,
  fields: ReadonlyArray<readonly [string, Kind]>,
  strings: ReadonlyArray<string>,
  offerId?: string
): string | undefined => {
  if (!Array.isArray(row) || row.length !== fields.length)
    return `hit ${hitId}: ${where} is not a row of ${fields.length} values`
  const field = wrongField(row, fields, strings)
  if (field === undefined) return undefined
  const named = offerId ?? (isTextAt(row[0], strings) ? strings[row[0] as number] : row[0])
  return `hit ${hitId}, offer ${String(named)}: ${field}`
}

/** A malformed offer row, met when an offer choice first reads it: its message names the hit, the offer and the field. */
export class MalformedOffer extends Error {}

/**
 * A hit's offers, each read from its deal row's JSON text and checked when
 * first asked for, then kept: the offer choice stops at the first offer that
 * passes the filter and names every word (offerFilter.ts), so most rows are
 * never parsed (bench:search's phrases read 38 of 143 rows per search; a
 * price or deal sort reads them all).
 */
class DealOffers implements OfferList<EmbeddedDealOffer> {
  private readonly hitId: string
  private readonly rows: ReadonlyArray<string>
  private readonly strings: ReadonlyArray<string>
  private readonly read: Array<EmbeddedDealOffer | undefined>
  constructor(hitId: string, rows: ReadonlyArray<string>, strings: ReadonlyArray<string>) {
    this.hitId = hitId
    this.rows = rows
    this.strings = strings
    this.read = new Array<EmbeddedDealOffer | undefined>(rows.length)
  }

  get length() {
    return this.rows.length
  }

  /** The offer at `i`, or what is wrong with its row. */
  offerOrProblem(i: number): EmbeddedDealOffer | string {
    const known = this.read[i]
    if (known !== undefined) return known
    let row: unknown
    try {
      row = JSON.parse(this.rows[i])
    } catch {
      return `hit ${this.hitId}: offer_rows[${i}] is not JSON`
    }
    const problem = rowProblem(this.hitId, `offer_rows[${i}]`, row, DEAL_ROW, this.strings)
    if (problem !== undefined) return problem
    // checked just above: each value holds its field's kind, each text index is in offer_strings
    const offer = dealOfferOf(row as DealOfferRow, this.strings)
    this.read[i] = offer
    return offer
  }

  /** The offer at `i` (within length); a malformed row throws MalformedOffer. */
  at(i: number): EmbeddedDealOffer {
    const offer = this.offerOrProblem(i)
    if (typeof offer === "string") throw new MalformedOffer(offer)
    return offer
  }
}

/** A hit with its offers (whole, with MORE_OFFER_FIELDS, read and checked now; else DealOffers), or what is wrong with it. */
const hitOf = (hit: unknown, whole: boolean): Record<string, unknown> | string => {
  if (!isRecord(hit)) return "a hit is not an object"
  const hitId = String(hit.id)
  for (const [field, kind] of MODEL_FIELDS) if (!holds(kind, hit[field])) return `hit ${hitId}: ${field}`
  const { offer_strings: strings, offer_rows: rows, offer_more: more } = hit
  if (!isStringList(strings)) return `hit ${hitId}: offer_strings`
  if (!isStringList(rows) || rows.length === 0) return `hit ${hitId}: offer_rows`
  if (whole && (!Array.isArray(more) || more.length !== rows.length)) return `hit ${hitId}: offer_more`
  const deals = new DealOffers(hitId, rows, strings)
  let offers: OfferList<object> = deals
  if (whole) {
    const list: Array<EmbeddedOffer> = []
    for (let i = 0; i < deals.length; i++) {
      const deal = deals.offerOrProblem(i)
      if (typeof deal === "string") return deal
      const problem = rowProblem(
        hitId,
        `offer_more[${i}]`,
        (more as ReadonlyArray<unknown>)[i],
        MORE_ROW,
        NO_TEXTS,
        deal.id
      )
      if (problem !== undefined) return problem
      list.push({ ...deal, ...moreOfferOf((more as ReadonlyArray<MoreOfferRow>)[i]) })
    }
    offers = list
  }
  // One literal, not a rest-and-spread copy of the hit (both showed in the search profile).
  return {
    id: hit.id,
    model_key: hit.model_key,
    description: hit.description,
    offers: hit.offers,
    stores: hit.stores,
    colors: hit.colors,
    sizes: hit.sizes,
    _rankingScoreDetails: hit._rankingScoreDetails,
    offer_list: offers
  }
}

/** The parts of a search answer the service reads. */
export interface ModelAnswer<M> {
  readonly hits: ReadonlyArray<Hit<M>>
  readonly estimatedTotalHits?: number
  /** Facet name to its values' counts (what a `facets` search asks for). */
  readonly facetDistribution?: Readonly<Record<string, unknown>>
}

const answerOf =
  <M>(whole: boolean) =>
  (answer: unknown): ModelAnswer<M> | string => {
    if (!isRecord(answer) || !Array.isArray(answer.hits)) return "the answer has no hits array"
    const hits: Array<Hit<M>> = []
    for (const hit of answer.hits as ReadonlyArray<unknown>) {
      const read = hitOf(hit, whole)
      if (typeof read === "string") return read
      hits.push(read as Hit<M>)
    }
    const { estimatedTotalHits, facetDistribution } = answer
    if (estimatedTotalHits !== undefined && typeof estimatedTotalHits !== "number") return "estimatedTotalHits"
    if (facetDistribution !== undefined && !isRecord(facetDistribution)) return "facetDistribution"
    return {
      hits,
      ...(estimatedTotalHits === undefined ? {} : { estimatedTotalHits }),
      ...(facetDistribution === undefined ? {} : { facetDistribution })
    }
  }

/** An answer as the Deal searches read it (DEAL_RETRIEVED_FIELDS: each offer's deal row), or what is wrong with it. */
export const dealAnswerOf = answerOf<DealModel>(false)

/** An answer whose whole offers are read (MODEL_RETRIEVED_FIELDS: the catalog tools), or what is wrong with it. */
export const modelAnswerOf = answerOf<ModelHit>(true)

/** The values of one facet in an answer (none when it was not asked for). */
export const facetValues = (answer: ModelAnswer<unknown>, facet: string): Array<string> => {
  const counts = answer.facetDistribution?.[facet]
  return isRecord(counts) ? Object.keys(counts) : []
}
