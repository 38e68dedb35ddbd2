import type { FoundModel } from "../../../discovery/DiscoverySearch.ts"
import type { ProductDocument } from "../../../readModel/documents.ts"
import type { Resolved } from "./lookupKeys.ts"
import { narrowBySelections, optionAxes, productOptions, type SelectedOption, variantOptions } from "./options.ts"

// Which offers of a model an answer lists as its variants: lookup_catalog
// (the offers each input names, grouped by model) and get_product (every
// offer, narrowed by filters and selections). Filters narrow every listed
// offer, the one asked for too. Pure.

type Keep = (offer: ProductDocument) => boolean

interface Correlation {
  readonly id: string
  readonly match: "exact" | "featured"
}

/**
 * One entry per model the inputs reached: its offers that pass the filters
 * (offers an input names exactly first), each with the inputs that found it.
 * A product or variant id lists one offer (the featured one, or the variant);
 * a URL or GTIN lists every offer of the model (the "find it cheaper" answer),
 * the ones with that URL or GTIN as exact matches.
 */
export const lookupProducts = (resolved: ReadonlyArray<Resolved>, keep: Keep) => {
  const models = new Map<string, { offers: Map<string, ProductDocument>; inputs: Map<string, Array<Correlation>> }>()
  for (const { input, kind, model, exact } of resolved) {
    const key = model.shown.group_key
    const entry = models.get(key) ?? { offers: new Map(), inputs: new Map() }
    models.set(key, entry)
    const listed = kind === "product" || kind === "variant" ? [model.shown] : [...model.offers]
    // exact matches lead
    listed.sort((a, b) => Number(exact.includes(b.id)) - Number(exact.includes(a.id)))
    for (const offer of listed) {
      if (!keep(offer)) continue
      if (!entry.offers.has(offer.id)) entry.offers.set(offer.id, offer)
      const inputs: Array<Correlation> = entry.inputs.get(offer.id) ?? []
      entry.inputs.set(offer.id, inputs)
      if (!inputs.some((correlation) => correlation.id === input)) {
        inputs.push({ id: input, match: exact.includes(offer.id) ? "exact" : "featured" })
      }
    }
  }
  return [...models.values()]
    .filter((entry) => entry.offers.size > 0)
    .map((entry) => ({
      offers: [...entry.offers.values()],
      inputsOf: (offerId: string) => entry.inputs.get(offerId) ?? []
    }))
}

export interface DetailRequest {
  readonly keep: Keep
  readonly selected: ReadonlyArray<SelectedOption>
  readonly preferences: ReadonlyArray<string>
}

/**
 * get_product's variants: every offer of the model that passes the filters,
 * narrowed to the selections (relaxed as `preferences` say when nothing
 * matches them all), the offer asked for first when it is among them. The
 * product's options span the filtered offers, with availability relative to
 * the featured variant's values (`selected`, which the spec requires when a
 * product has options). Undefined when no offer passes the filters.
 */
export const productDetail = (model: FoundModel, request: DetailRequest) => {
  const kept = [model.shown, ...model.offers.filter((offer) => offer.id !== model.shown.id)].filter(request.keep)
  if (kept.length === 0) return undefined
  const narrowed = narrowBySelections(kept, request.selected, request.preferences)
  const axes = optionAxes(kept)
  const featured = narrowed.offers[0]
  const selected = variantOptions(featured, axes)
  return {
    offers: narrowed.offers,
    axes,
    fields: axes.length > 0 ? { options: productOptions(kept, axes, selected), selected } : {},
    messages: narrowed.relaxed.map((selection) => ({
      type: "info" as const,
      code: "selection_relaxed",
      content:
        `No variant has ${selection.name} '${selection.label}' together with the other selections; ` +
        `that selection was dropped.`
    }))
  }
}
