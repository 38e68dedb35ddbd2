import type { ProductDocument } from "../../../readModel/documents.ts"

// UCP options: the axes a model's offers differ on (colour, size, condition),
// each variant's own values (`options` of a variant), the product's axes with
// their values (`options` of a product), and get_product's `selected`, which
// narrows the variants to those matching the selections. Pure.

export interface SelectedOption {
  readonly name: string
  readonly label: string
}

const AXES: ReadonlyArray<readonly [name: string, valueOf: (doc: ProductDocument) => string | null | undefined]> = [
  ["Color", (doc) => doc.color],
  ["Size", (doc) => doc.size],
  ["Condition", (doc) => doc.condition]
]

const clean = (value: string | null | undefined) => {
  const trimmed = value?.trim() ?? ""
  return trimmed === "" ? undefined : trimmed
}

const same = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: "accent" }) === 0

/** Distinct labels in first-seen order, compared case-insensitively. */
const distinct = (labels: ReadonlyArray<string>) =>
  labels.reduce<Array<string>>((out, label) => (out.some((seen) => same(seen, label)) ? out : [...out, label]), [])

/**
 * The axes a model's offers differ on: an axis with one value for every offer
 * (all black, all new) is no choice, so it is no option.
 */
export const optionAxes = (offers: ReadonlyArray<ProductDocument>) =>
  AXES.filter(([, valueOf]) => distinct(offers.flatMap((doc) => clean(valueOf(doc)) ?? [])).length > 1).map(
    ([name]) => name
  )

/** A variant's values on the model's axes (an axis it names no value on is left out). */
export const variantOptions = (doc: ProductDocument, axes: ReadonlyArray<string>): Array<SelectedOption> =>
  AXES.filter(([name]) => axes.includes(name)).flatMap(([name, valueOf]) => {
    const label = clean(valueOf(doc))
    return label === undefined ? [] : [{ name, label }]
  })

const matches = (doc: ProductDocument, selections: ReadonlyArray<SelectedOption>) =>
  selections.every((selection) => {
    const axis = AXES.find(([name]) => same(name, selection.name))
    const value = axis === undefined ? undefined : clean(axis[1](doc))
    return value !== undefined && same(value, selection.label.trim())
  })

/**
 * The product's options: each axis with every value an offer has. With
 * `selections` (get_product), each value says whether some offer has it
 * together with the other axes' selections (`exists`) and one of those is in
 * stock (`available`).
 */
export const productOptions = (
  offers: ReadonlyArray<ProductDocument>,
  axes: ReadonlyArray<string>,
  selections?: ReadonlyArray<SelectedOption>
) =>
  AXES.filter(([name]) => axes.includes(name)).map(([name, valueOf]) => {
    const labels = distinct(offers.flatMap((doc) => clean(valueOf(doc)) ?? []))
    const others = (selections ?? []).filter((selection) => !same(selection.name, name))
    return {
      name,
      values: labels.map((label) => {
        if (selections === undefined) return { label }
        const reachable = offers.filter((doc) => matches(doc, [...others, { name, label }]))
        return { label, exists: reachable.length > 0, available: reachable.some((doc) => doc.in_stock) }
      })
    }
  })

export interface Narrowed {
  readonly offers: ReadonlyArray<ProductDocument>
  /** The selections every listed offer matches (after relaxing). */
  readonly applied: ReadonlyArray<SelectedOption>
  /** Selections dropped because no offer matched them all. */
  readonly relaxed: ReadonlyArray<SelectedOption>
}

/**
 * The offers matching every selection. When none does, selections are
 * dropped one by one, the last of `preferences` first (then the ones
 * `preferences` does not name, last given first), until some offer matches.
 */
export const narrowBySelections = (
  offers: ReadonlyArray<ProductDocument>,
  selections: ReadonlyArray<SelectedOption>,
  preferences: ReadonlyArray<string> = []
): Narrowed => {
  const rank = (selection: SelectedOption) => {
    const at = preferences.findIndex((name) => same(name, selection.name))
    return at === -1 ? Number.MAX_SAFE_INTEGER : at
  }
  // keep order: the selection to drop first is last
  const keep = [...selections].sort((a, b) => rank(a) - rank(b))
  const relaxed: Array<SelectedOption> = []
  while (keep.length > 0) {
    const matching = offers.filter((doc) => matches(doc, keep))
    if (matching.length > 0) return { offers: matching, applied: keep, relaxed }
    relaxed.push(keep.pop()!)
  }
  return { offers, applied: [], relaxed }
}
