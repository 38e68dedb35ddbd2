import type { CopyFacts, CopyType } from "./facts.ts"
import { dealsOf } from "./facts.ts"
import { LIMITS } from "./limits.ts"

// Where the link and the disclosure go. Whoever wrote the text (template or
// LLM), WE place them: the disclosure immediately before the call to action
// and the link, on the same line for a social post, so a reader meets it
// before the link and cannot miss it (FTC Endorsement Guides: clear,
// conspicuous, next to the link).

/** What a generator writes. */
export interface Draft {
  readonly title: string | null
  readonly subject: string | null
  readonly preheader: string | null
  /** The copy without disclosure, call to action, link or hashtags. */
  readonly text: string
  readonly callToAction: string
}

export interface Placement {
  /** The partner's absolute tracking URL. */
  readonly link: string
  /** The disclosure sentence(s) to show next to the link. */
  readonly disclosure: string
}

export interface Copy {
  readonly title: string | null
  readonly subject: string | null
  readonly preheader: string | null
  /** The finished copy: text, disclosure, call to action with the link (and hashtags for social). */
  readonly body: string
  readonly callToAction: string
  readonly hashtags: ReadonlyArray<string>
}

export const assemble = (type: CopyType, draft: Draft, placement: Placement, hashtags: ReadonlyArray<string>): Copy => {
  const text = draft.text.trim()
  const cta = draft.callToAction.trim().replace(/[.:!]+$/, "")
  const body =
    type === "social"
      ? `${text}\n\n${placement.disclosure} ${cta}: ${placement.link}${hashtags.length > 0 ? `\n${hashtags.join(" ")}` : ""}`
      : `${text}\n\n${placement.disclosure}\n${cta}: ${placement.link}`
  return {
    title: type === "blog" ? draft.title : null,
    subject: type === "email" ? draft.subject : null,
    preheader: type === "email" ? draft.preheader : null,
    body,
    callToAction: cta,
    hashtags: type === "social" ? hashtags : []
  }
}

/**
 * A social post within its length: fewer hashtags first (they are the least
 * useful part), undefined when even the bare post is too long.
 */
export const assembleWithin = (
  type: CopyType,
  draft: Draft,
  placement: Placement,
  hashtags: ReadonlyArray<string>
): Copy | undefined => {
  for (let keep = hashtags.length; keep >= 0; keep--) {
    const copy = assemble(type, draft, placement, hashtags.slice(0, keep))
    if (copy.body.length <= LIMITS[type].totalMax) return copy
  }
  return undefined
}

const tag = (words: string): string | undefined => {
  const camel = words
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join("")
  return camel.length >= 2 && camel.length <= 30 ? `#${camel}` : undefined
}

/** Hashtags from facts only: the store, the category, and a deal tag when there is a verified saving. */
export const hashtagsFor = (facts: CopyFacts, pick: <A>(items: ReadonlyArray<A>) => A): Array<string> => {
  const tags = [tag(facts.store), facts.category === null ? undefined : tag(facts.category)]
  if (dealsOf(facts).length > 0) tags.push(pick(["#deal", "#pricedrop", "#dealalert"]))
  return [...new Set(tags.filter((t): t is string => t !== undefined))]
}
