import type { Hit } from "meilisearch"
import { DEAL_OFFER_FIELDS, type DealModel, type EmbeddedOffer, type ModelDocument } from "./modelDocuments.ts"

// Meilisearch's answers to the model searches, checked where the service
// reads them. A search reads back every offer of a dozen models to show one
// of each, so a Schema decode of every offer would cost more than the JSON
// parse: each field read is checked with one typeof instead, and a document
// of another shape (a stale index, a bad sync) is an error naming the field,
// never a crash further on.

type Kind = "string" | "number" | "boolean" | "string?" | "number?" | "strings"

const holds = (kind: Kind, value: unknown): boolean => {
  switch (kind) {
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

type DealOfferField = (typeof DEAL_OFFER_FIELDS)[number]

const MODEL_FIELDS: ReadonlyArray<readonly [keyof DealModel, Kind]> = [
  ["id", "string"],
  ["model_key", "string"],
  ["description", "strings"],
  ["offers", "number"],
  ["stores", "number"],
  ["colors", "strings"],
  ["sizes", "strings"]
]

/** The offer fields the Deal searches read back (DEAL_OFFER_FIELDS), each with what it must hold. */
const DEAL_OFFER_KINDS: Record<DealOfferField, Kind> = {
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
  description_at: "number"
}

/** The rest of a whole embedded offer (colour and size may be absent in documents built by hand). */
const OTHER_OFFER_KINDS: Record<Exclude<keyof EmbeddedOffer, DealOfferField | "color" | "size">, Kind> = {
  feed: "string",
  link: "string",
  regular_price: "number",
  condition: "string?",
  reference_kind: "string?",
  low_90: "number?",
  price_since: "string?"
}

const DEAL_OFFER = Object.entries(DEAL_OFFER_KINDS)
const WHOLE_OFFER = [...DEAL_OFFER, ...Object.entries(OTHER_OFFER_KINDS)]

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The first field of a hit that does not hold what the service reads, or undefined. */
const problemOf = (hit: unknown, offerFields: ReadonlyArray<readonly [string, Kind]>): string | undefined => {
  if (!isRecord(hit)) return "a hit is not an object"
  for (const [field, kind] of MODEL_FIELDS) if (!holds(kind, hit[field])) return `hit ${String(hit.id)}: ${field}`
  const offers = hit.offer_list
  if (!Array.isArray(offers) || offers.length === 0) return `hit ${String(hit.id)}: offer_list`
  for (const offer of offers) {
    if (!isRecord(offer)) return `hit ${String(hit.id)}: offer_list holds a non-object`
    for (const [field, kind] of offerFields) {
      if (!holds(kind, offer[field])) return `hit ${String(hit.id)}, offer ${String(offer.id)}: ${field}`
    }
  }
  return undefined
}

/** The parts of a search answer the service reads. */
export interface ModelAnswer<M> {
  readonly hits: ReadonlyArray<Hit<M>>
  readonly estimatedTotalHits?: number
  /** Facet name to its values' counts (what a `facets` search asks for). */
  readonly facetDistribution?: Readonly<Record<string, unknown>>
}

const answerOf = <M>(offerFields: ReadonlyArray<readonly [string, Kind]>) => {
  const isHit = (hit: unknown): hit is Hit<M> => problemOf(hit, offerFields) === undefined
  return (answer: unknown): ModelAnswer<M> | string => {
    if (!isRecord(answer) || !Array.isArray(answer.hits)) return "the answer has no hits array"
    const hits: ReadonlyArray<unknown> = answer.hits
    if (!hits.every(isHit))
      return (
        problemOf(
          hits.find((hit) => !isHit(hit)),
          offerFields
        ) ?? "a hit"
      )
    const { estimatedTotalHits, facetDistribution } = answer
    if (estimatedTotalHits !== undefined && typeof estimatedTotalHits !== "number") return "estimatedTotalHits"
    if (facetDistribution !== undefined && !isRecord(facetDistribution)) return "facetDistribution"
    return {
      hits,
      ...(estimatedTotalHits === undefined ? {} : { estimatedTotalHits }),
      ...(facetDistribution === undefined ? {} : { facetDistribution })
    }
  }
}

/** An answer as the Deal searches read it (DEAL_OFFER_FIELDS of each offer checked), or what is wrong with it. */
export const dealAnswerOf = answerOf<DealModel>(DEAL_OFFER)

/** An answer whose whole offers are read (the catalog tools), or what is wrong with it. */
export const modelAnswerOf = answerOf<ModelDocument>(WHOLE_OFFER)

/** The values of one facet in an answer (none when it was not asked for). */
export const facetValues = (answer: ModelAnswer<unknown>, facet: string): Array<string> => {
  const counts = answer.facetDistribution?.[facet]
  return isRecord(counts) ? Object.keys(counts) : []
}
