import type { Hit } from "meilisearch"
import type { DealModel, EmbeddedOffer, ModelHit } from "./modelDocuments.ts"
import {
  DEAL_OFFER_FIELDS,
  dealOfferOf,
  type DealOfferRow,
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
// never a crash further on.

type Kind = "string" | "number" | "boolean" | "string?" | "number?" | "strings" | "text" | "text?"

/** An index in a hit's offer_strings (already checked to hold strings only). */
const isTextAt = (value: unknown, strings: ReadonlyArray<string>) =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 && value < strings.length

const holds = (kind: Kind, value: unknown, strings: ReadonlyArray<string> = []): boolean => {
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
      return Array.isArray(value) && value.every((item) => typeof item === "string")
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

/** What is wrong with one row of a hit's `list`, or undefined when it holds a value of the right kind per field. */
const rowProblem = (
  hit: Record<string, unknown>,
  list: "offer_rows" | "offer_more",
  i: number,
  fields: ReadonlyArray<readonly [string, Kind]>,
  strings: ReadonlyArray<string>
): string | undefined => {
  const row: unknown = (hit[list] as ReadonlyArray<unknown>)[i]
  if (!Array.isArray(row) || row.length !== fields.length)
    return `hit ${String(hit.id)}: ${list}[${i}] is not a row of ${fields.length} values`
  const field = wrongField(row, fields, strings)
  if (field === undefined) return undefined
  const idAt: unknown = (hit.offer_rows as ReadonlyArray<ReadonlyArray<unknown>>)[i][0]
  const offerId = isTextAt(idAt, strings) ? strings[idAt as number] : idAt
  return `hit ${String(hit.id)}, offer ${String(offerId)}: ${field}`
}

/** A hit with its offers as objects (with MORE_OFFER_FIELDS too when `whole`), or what is wrong with it. */
const hitOf = (hit: unknown, whole: boolean): Record<string, unknown> | string => {
  if (!isRecord(hit)) return "a hit is not an object"
  for (const [field, kind] of MODEL_FIELDS) if (!holds(kind, hit[field])) return `hit ${String(hit.id)}: ${field}`
  const strings = hit.offer_strings
  const rows = hit.offer_rows
  const more = hit.offer_more
  if (!holds("strings", strings)) return `hit ${String(hit.id)}: offer_strings`
  const texts = strings as ReadonlyArray<string>
  if (!Array.isArray(rows) || rows.length === 0) return `hit ${String(hit.id)}: offer_rows`
  if (whole && (!Array.isArray(more) || more.length !== rows.length)) return `hit ${String(hit.id)}: offer_more`
  const offers: Array<object> = []
  for (let i = 0; i < rows.length; i++) {
    const problem =
      rowProblem(hit, "offer_rows", i, DEAL_ROW, texts) ??
      (whole ? rowProblem(hit, "offer_more", i, MORE_ROW, texts) : undefined)
    if (problem !== undefined) return problem
    // checked just above: each value holds its field's kind, each text index is in offer_strings
    const deal = dealOfferOf(rows[i] as DealOfferRow, texts)
    offers.push(whole ? { ...deal, ...moreOfferOf((more as ReadonlyArray<MoreOfferRow>)[i]) } : deal)
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
