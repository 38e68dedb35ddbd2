// A product model's grouping key, as a pure rule: offers of one model
// (colour, size and condition variants of one title, or one item group, or
// one GTIN) share it. The search sync groups offers by it; tests and the
// judged search set read it too.
import { canonicalColours } from "./colourSpellings.ts"

export interface Variant {
  readonly color?: string | null | undefined
  readonly size?: string | null | undefined
  /** The row's condition: a refurbished or used offer names it in the title ("(Refurbished)"). */
  readonly condition?: string | null | undefined
}

/**
 * Lower-case words; apostrophes dropped (Levi's -> levis), so a size "S" never
 * matches a possessive; colour spellings made one ("Gray" -> "grey", "Navy Blue" -> "navy").
 */
const words = (text: string | null | undefined): Array<string> =>
  canonicalColours(
    (text ?? "")
      .toLowerCase()
      .replace(/['\u2019]/g, "")
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length > 0)
  )

const endsWith = (tokens: ReadonlyArray<string>, phrase: ReadonlyArray<string>) =>
  phrase.length > 0 &&
  phrase.length <= tokens.length &&
  phrase.every((word, i) => tokens[tokens.length - phrase.length + i] === word)

const lastIndexOf = (tokens: ReadonlyArray<string>, phrase: ReadonlyArray<string>) => {
  if (phrase.length === 0) return -1
  for (let start = tokens.length - phrase.length; start >= 0; start--) {
    if (phrase.every((word, i) => tokens[start + i] === word)) return start
  }
  return -1
}

// How titles name a non-new condition, longest first ("Used - Very Good" before "Used").
const USED_GRADES = [["like", "new"], ["very", "good"], ["good"], ["acceptable"], ["excellent"], ["fair"]]
const CONDITION_PHRASES: Readonly<Record<string, ReadonlyArray<ReadonlyArray<string>>>> = {
  refurbished: [["certified", "refurbished"], ["refurbished"], ["renewed"], ["reconditioned"]],
  used: [...USED_GRADES.map((grade) => ["used", ...grade]), ["used"], ["pre", "owned"]]
}

interface Attribute {
  /** Phrases removed from the end of the title, longest first. */
  readonly trailing: ReadonlyArray<ReadonlyArray<string>>
  /** If none was at the end: phrases whose last occurrence anywhere is removed. */
  readonly anywhere: ReadonlyArray<ReadonlyArray<string>>
  /** A colour word first in the title is the brand's ("Black+Decker Drill" in black is still a Black+Decker). */
  readonly notFirst: boolean
}

const attributesOf = (variant: Variant): Array<Attribute> => {
  const color = words(variant.color)
  const size = words(variant.size)
  const condition = CONDITION_PHRASES[variant.condition?.trim().toLowerCase() ?? ""] ?? []
  return [
    ...(color.length > 0 ? [{ trailing: [color], anywhere: [color], notFirst: true }] : []),
    // a bare "10" inside a title is more often part of the model name: only "size 10" goes from the middle
    ...(size.length > 0
      ? [{ trailing: [["size", ...size], size], anywhere: [["size", ...size]], notFirst: false }]
      : []),
    ...(condition.length > 0 ? [{ trailing: condition, anywhere: condition, notFirst: false }] : [])
  ]
}

/**
 * The model a variant belongs to: its title without the row's own colour,
 * size and condition, normalised. Values are removed as whole words: first
 * from the end of the title, in any order (", White", " - Navy", "(Black)",
 * ", Size 10", " (Refurbished)"), then, for one not found there, its last
 * occurrence anywhere (a colour not as the first word: brands come first,
 * so "Black+Decker ..." keeps its "black"; a size only after "size").
 */
export const modelKey = (title: string, variant: Variant): string => {
  const all = words(title)
  let tokens = all
  const pending = new Set(attributesOf(variant))
  for (let changed = true; changed;) {
    changed = false
    for (const attribute of pending) {
      const phrase = attribute.trailing.find((candidate) => endsWith(tokens, candidate))
      if (phrase === undefined) continue
      tokens = tokens.slice(0, tokens.length - phrase.length)
      pending.delete(attribute)
      changed = true
    }
  }
  for (const attribute of pending) {
    for (const phrase of attribute.anywhere) {
      const at = lastIndexOf(tokens, phrase)
      if (at < 0 || (at === 0 && attribute.notFirst)) continue
      tokens = [...tokens.slice(0, at), ...tokens.slice(at + phrase.length)]
      break
    }
  }
  // a title that is nothing but its colour keeps its words
  return (tokens.length > 0 ? tokens : all).join(" ").slice(0, 200)
}

/**
 * The group of offers shown once in search. A colour or size variant is
 * grouped by model: GTINs and titles name the variant (colour in the title,
 * a GTIN per colour), so five colours of one pair of earbuds would otherwise
 * be five results. A refurbished or used offer stays in its model's group,
 * as it did under the GTIN (the same GTIN as new). Other rows keep the GTIN,
 * else the title. An
 * item_group_id alone does not switch to the model: there is no variant
 * value to remove from the title, and the GTIN still matches the same
 * product in feeds that carry no group id (Awin); group ids are per store.
 */
export const groupKey = (gtin: string | null, title: string, variant: Variant = {}) => {
  if (hasText(variant.color) || hasText(variant.size)) return `model:${modelKey(title, variant)}`
  const digits = gtin?.replace(/\D/g, "").replace(/^0+/, "") ?? ""
  return digits.length >= 8 ? `gtin:${digits}` : `title:${words(title).join(" ").slice(0, 200)}`
}

const hasText = (value: string | null | undefined) => value !== null && value !== undefined && value.trim() !== ""
