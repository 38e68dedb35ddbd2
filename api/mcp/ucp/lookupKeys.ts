import { Effect, Option, Schema } from "effect"
import { parseHttpUrl } from "../../../domain/matching/submittedUrl.ts"
import { stripTracking } from "../../../domain/matching/trackingParams.ts"
import type { DiscoverySearch, FoundModel } from "../../../discovery/DiscoverySearch.ts"
import { Text } from "../../../infra/columns.ts"
import type { Database } from "../../../infra/Database.ts"
import { documentId } from "../../../readModel/documents.ts"
import { modelIdOf, PRODUCT_PREFIX } from "../../../readModel/productIds.ts"

// What lookup_catalog accepts besides our ids: what an agent holds when it
// asks "is this cheaper elsewhere?". A merchant product URL (any offer's
// link in our feeds, compared as link matching compares URLs: WHATWG-parsed,
// tracking parameters and fragment removed) or a GTIN (8 to 14 digits,
// leading zeros aside) finds the model with every offer we have of it. The
// feeds' links and GTINs live in the store, not in the search index.

export type KeyKind = "product" | "variant" | "url" | "gtin"

export interface Resolved {
  readonly input: string
  readonly kind: KeyKind
  readonly model: FoundModel
  /** Offers (document ids) the input names itself: the variant, or the offers with that URL or GTIN. */
  readonly exact: ReadonlyArray<string>
}

/** A product id from before ids named models ("prod_" and an offer id) is read as that offer's id. */
export const legacyProductId = (id: string) =>
  id.startsWith(PRODUCT_PREFIX) && modelIdOf(id) === undefined ? id.slice(PRODUCT_PREFIX.length) : id

const GTIN = /^\d{8,14}$/
/** Offers of one URL or GTIN we read: more would be one item listed over and over. */
const MAX_MATCHES = 50

export const kindOf = (input: string): KeyKind =>
  input.startsWith(PRODUCT_PREFIX)
    ? "product"
    : /^https?:\/\//i.test(input)
      ? "url"
      : GTIN.test(input)
        ? "gtin"
        : "variant"

/** The URL as link matching keeps it, without its scheme (http and https name one page). */
const urlKey = (url: URL) => stripTracking(url).href.replace(/^https?:\/\//, "")

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

const CatalogRow = Schema.Struct({ id: Text, link: Text })
const CatalogId = Schema.Struct({ id: Text })

/** Catalog ids of the offers whose link is `input`, normalised alike. */
const offersAtUrl = (db: Database["Service"], input: string) => {
  const parsed = parseHttpUrl(input)
  if (!parsed.ok) return Effect.succeed([])
  const key = urlKey(parsed.url)
  // a prefix both spellings share narrows the rows; the comparison is on the normalised URL
  const prefix = `%://${likeEscape(parsed.url.host + parsed.url.pathname)}%`
  return db
    .queryAs(CatalogRow, `SELECT id, link FROM products WHERE link LIKE $1 ESCAPE '\\' LIMIT ${MAX_MATCHES * 4}`, [
      prefix
    ])
    .pipe(
      Effect.map((rows) =>
        rows.flatMap((row) => {
          const link = parseHttpUrl(row.link)
          return link.ok && urlKey(link.url) === key ? [row.id] : []
        })
      )
    )
}

/** Catalog ids of the offers with this GTIN, however many leading zeros either side writes. */
const offersWithGtin = (db: Database["Service"], gtin: string) => {
  const digits = gtin.replace(/^0+/, "")
  const spellings = [...new Set([8, 12, 13, 14].filter((n) => n >= digits.length).map((n) => digits.padStart(n, "0")))]
  const placeholders = spellings.map((_, i) => `$${i + 1}`).join(", ")
  return db
    .queryAs(CatalogId, `SELECT id FROM products WHERE gtin IN (${placeholders}) LIMIT ${MAX_MATCHES}`, spellings)
    .pipe(Effect.map((rows) => rows.map((row) => row.id)))
}

/**
 * The models an input names: one for a product or variant id (none when
 * unknown), every model holding an offer at that URL or with that GTIN.
 */
export const resolveKey = (discovery: DiscoverySearch["Service"], db: Database["Service"], input: string) =>
  Effect.gen(function* () {
    const kind = kindOf(input)
    if (kind === "product" || kind === "variant") {
      const model = yield* discovery.modelOf(legacyProductId(input))
      if (Option.isNone(model)) return []
      const exact = kind === "variant" ? [model.value.shown.id] : []
      return [{ input, kind, model: model.value, exact } satisfies Resolved]
    }
    const catalogIds = yield* kind === "url" ? offersAtUrl(db, input) : offersWithGtin(db, input)
    const exactIds = new Set(catalogIds.map(documentId))
    const out: Array<Resolved> = []
    for (const id of exactIds) {
      if (out.some((resolved) => resolved.model.offers.some((offer) => offer.id === id))) continue
      const model = yield* discovery.modelOf(id)
      if (Option.isNone(model)) continue // in the store, not (yet) in the index
      const exact = model.value.offers.filter((offer) => exactIds.has(offer.id)).map((offer) => offer.id)
      out.push({ input, kind, model: model.value, exact })
    }
    return out
  })
