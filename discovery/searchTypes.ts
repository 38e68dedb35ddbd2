import type { Intent } from "../domain/intent/parseIntent.ts"
import type { ProductDocument } from "../readModel/documents.ts"
import type { DealOffer, ShownOffer } from "../readModel/modelDocuments.ts"
import type { ConvertedPrices, PriceComparison } from "./priceOrder.ts"
import type { LadderStep } from "./relaxation.ts"
import type { Suggestion } from "./suggestions.ts"

// What product searches are asked and answer, in a file of their own: the
// service (DiscoverySearch.ts) and its relaxation step (relaxedSearch.ts)
// both speak them, and the HTTP handlers import them without the service.

export interface DealsQuery {
  readonly q?: string | undefined
  readonly category?: string | undefined
  readonly store?: string | undefined
  readonly limit: number
  /** The market's currency (or the one the shopper asked for): only offers priced in it. */
  readonly currency?: string | undefined
  /** The market's country: only offers sold in it. */
  readonly country?: string | undefined
}

export interface IntentQuery {
  readonly q: string
  readonly category?: string | undefined
  readonly limit: number
  /** The market's currency (or the one the shopper asked for): only offers priced in it, price words read in it. */
  readonly currency?: string | undefined
  /** The market's country: only offers sold in it. */
  readonly country?: string | undefined
  /** Products to skip (paging); default 0. */
  readonly offset?: number | undefined
  /** How price words order prices (priceOrder.ts); default: by amount within each currency. */
  readonly priceComparison?: PriceComparison | undefined
}

export interface ProductsQuery {
  readonly q: string
  readonly filters: ReadonlyArray<string>
  readonly limit: number
  readonly offset: number
  /** Meilisearch sort (a preference read from the words, e.g. price:asc for "cheap"); relevance when absent. */
  readonly sort?: ReadonlyArray<string> | undefined
  /** "frequency": the rarest words must match, not every word (a relaxation step). */
  readonly strategy?: "all" | "frequency" | undefined
}

/** A model found by a search: the offer it shows and every offer it has (best first). */
export interface FoundModel {
  readonly shown: ShownOffer
  readonly offers: ReadonlyArray<ProductDocument>
}

export interface IntentResult {
  readonly documents: ReadonlyArray<DealOffer>
  readonly intent: Intent
  /** True when nothing in stock matched and out-of-stock products are shown. */
  readonly includesOutOfStock: boolean
  /** The ladder step that answered ("strict" when every word and filter matched). */
  readonly step?: LadderStep
  /** What was relaxed, for guidance (absent on the strict reading). */
  readonly relaxation?: string
  /** When nothing matched: which hard constraint (price, currency, category) excluded what. */
  readonly unmet?: string
  /** Products matching the answering reading across all pages (an estimate beyond what one request reads). */
  readonly total: number
  /** When nothing matched: the ways forward the catalog supports (suggestions.ts). */
  readonly suggestions?: ReadonlyArray<Suggestion>
  /** Set when price words ordered prices of several currencies by converting them (priceOrder.ts). */
  readonly converted?: ConvertedPrices
}
