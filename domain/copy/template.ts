import { type Copy, type Draft, type Placement, assembleWithin, hashtagsFor } from "./assemble.ts"
import { type CopyFacts, type CopyType, dealsOf, money, type ProductFact, shortTitle, type Tone } from "./facts.ts"
import { LIMITS } from "./limits.ts"
import * as P from "./phrases.ts"

// The default generator: copy composed from phrase banks and catalog facts,
// needing nothing external. Each part picks one of several wordings at
// random, so the same request twice may read differently; every number it
// writes comes from a ProductFact.

export type Random = () => number

const AVAILABILITY: Record<string, string> = {
  in_stock: "in stock",
  out_of_stock: "out of stock",
  preorder: "available for pre-order",
  backorder: "on back-order"
}

type Vars = Partial<
  Record<"store" | "product" | "price" | "ref" | "pct" | "brand" | "byBrand" | "category" | "availability", string>
>

/** Fills {placeholders}; undefined when one of them has no value. */
const fill = (phrase: string, vars: Vars): string | undefined => {
  let missing = false
  const out = phrase.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = vars[name as keyof Vars]
    if (value === undefined) missing = true
    return value ?? ""
  })
  return missing ? undefined : out
}

const productVars = (facts: CopyFacts, product: ProductFact, titleMax = 60): Vars => ({
  store: facts.store,
  category: facts.category?.toLowerCase(),
  product: shortTitle(product.title, titleMax),
  price: money(product.price, product.currency),
  ref: product.referencePrice === null ? undefined : money(product.referencePrice, product.currency),
  pct: product.discountPercent === null ? undefined : String(product.discountPercent),
  brand: product.brand ?? undefined,
  // "by Brand" only when the title does not already start with it.
  byBrand:
    product.brand !== null && !product.title.toLowerCase().startsWith(product.brand.toLowerCase())
      ? ` by ${product.brand}`
      : "",
  availability: AVAILABILITY[product.availability] ?? product.availability
})

const storeVars = (facts: CopyFacts): Vars => ({ store: facts.store, category: facts.category?.toLowerCase() })

export const makePicker =
  (random: Random) =>
  <A>(items: ReadonlyArray<A>): A =>
    items[Math.min(items.length - 1, Math.floor(random() * items.length))]!

/** One random wording of `bank[tone]` that can be filled (falls back to the other tones' wordings). */
const phrase = (random: Random, bank: P.Bank, tone: Tone, vars: Vars): string | undefined => {
  const pick = makePicker(random)
  const filled = (list: ReadonlyArray<string>) =>
    list.map((p) => fill(p, vars)).filter((p): p is string => p !== undefined)
  const own = filled(bank[tone])
  if (own.length > 0) return pick(own)
  const any = filled(Object.values(bank).flat())
  return any.length > 0 ? pick(any) : undefined
}

/** A product that is not simply in stock says so, unless the wording already does. */
const withStock = (sentence: string, product: ProductFact): string => {
  if (product.availability === "in_stock") return sentence
  const words = AVAILABILITY[product.availability] ?? product.availability
  if (sentence.includes(words)) return sentence
  const end = sentence.match(/[.!]$/)?.[0] ?? ""
  return `${sentence.slice(0, sentence.length - end.length)} (${words} when we checked)${end}`
}

const bullets = (lines: ReadonlyArray<string>) => lines.map((line) => `- ${line}`).join("\n")

const draftFor = (facts: CopyFacts, type: CopyType, tone: Tone, random: Random): Draft => {
  const say = (bank: P.Bank, vars: Vars) => phrase(random, bank, tone, vars) ?? ""
  const deal = dealsOf(facts)[0]
  const lead = deal ?? facts.products[0]
  const leadVars = lead === undefined ? storeVars(facts) : productVars(facts, lead, type === "social" ? 48 : 60)
  const cta = say(P.CALL_TO_ACTION, storeVars(facts))
  // What a reader can buy first; out-of-stock products only when nothing else is listed.
  const available = facts.products.filter((product) => product.availability !== "out_of_stock")
  const featured = (available.length > 0 ? available : facts.products).slice(0, 3)
  const none = { title: null, subject: null, preheader: null }

  switch (type) {
    case "social": {
      const bank = deal !== undefined ? P.SOCIAL_DEAL : lead !== undefined ? P.SOCIAL_PRODUCT : P.SOCIAL_STORE
      return { ...none, text: say(bank, leadVars), callToAction: cta }
    }
    case "deal_alert":
      // The caller guarantees a deal (a deal alert without a verified saving would be a false claim).
      return { ...none, text: say(P.DEAL_ALERT, leadVars), callToAction: cta }
    case "email": {
      const subject = say(
        deal !== undefined
          ? P.EMAIL_SUBJECT_DEAL
          : lead !== undefined
            ? P.EMAIL_SUBJECT_PRODUCT
            : P.EMAIL_SUBJECT_STORE,
        leadVars
      )
      const preheader = say(deal !== undefined ? P.EMAIL_PREHEADER_DEAL : P.EMAIL_PREHEADER_OTHER, leadVars)
      const intro = say(
        deal !== undefined ? P.INTRO_DEAL : lead !== undefined ? P.INTRO_PRODUCT : P.INTRO_STORE,
        leadVars
      )
      const list = featured.map((product) => {
        const vars = productVars(facts, product)
        return withStock(say(product.discountPercent !== null ? P.PRODUCT_LINE_DEAL : P.PRODUCT_LINE, vars), product)
      })
      const middle = list.length > 0 ? bullets(list) : say(P.BLOG_STORE_BODY, storeVars(facts))
      const text = [say(P.GREETING, {}), intro, middle, say(P.CLOSING, {})].join("\n\n")
      return {
        title: null,
        subject: fitTo(subject, LIMITS.email.subjectMax),
        preheader: fitTo(preheader, LIMITS.email.preheaderMax),
        text,
        callToAction: cta
      }
    }
    case "blog": {
      const title = say(
        deal !== undefined ? P.BLOG_TITLE_DEAL : lead !== undefined ? P.BLOG_TITLE_PRODUCT : P.BLOG_TITLE_STORE,
        leadVars
      )
      const intro = say(lead !== undefined ? P.BLOG_INTRO : P.BLOG_INTRO_STORE, storeVars(facts))
      const body =
        featured.length > 0
          ? featured
              .map((product) =>
                withStock(
                  say(
                    product.discountPercent !== null ? P.BLOG_PRODUCT_DEAL : P.BLOG_PRODUCT,
                    productVars(facts, product)
                  ),
                  product
                )
              )
              .join(" ")
          : [say(P.INTRO_STORE, storeVars(facts)), say(P.BLOG_STORE_BODY, storeVars(facts))].join(" ")
      const advice = say(P.BLOG_ADVICE, {})
      const closing = say(P.BLOG_CLOSING, {})
      return {
        ...none,
        title: fitTo(title, LIMITS.blog.titleMax),
        text: [intro, body, advice, closing].join("\n\n"),
        callToAction: cta
      }
    }
  }
}

/** Cuts at a word boundary (titles and subjects with long product names). */
const fitTo = (text: string, max: number): string => {
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  const space = cut.lastIndexOf(" ")
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,:;-]+$/, "")}…`
}

const ATTEMPTS = 12

/**
 * Template copy for `type` in `tone`, with the link and disclosure placed.
 * Tries a few random wordings until one fits the type's length (a social
 * post with a long link needs a short one); the last resort is the store's
 * name alone.
 */
export const templateCopy = (
  facts: CopyFacts,
  type: CopyType,
  tone: Tone,
  placement: Placement,
  random: Random = Math.random
): Copy => {
  const hashtags = type === "social" ? hashtagsFor(facts, makePicker(random)) : []
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const copy = assembleWithin(type, draftFor(facts, type, tone, random), placement, hashtags)
    if (copy !== undefined) return copy
  }
  const minimal: Draft = {
    title: facts.store,
    subject: facts.store,
    preheader: null,
    text: `${facts.store}.`,
    callToAction: "Visit"
  }
  return (
    assembleWithin(type, minimal, placement, []) ?? {
      title: null,
      subject: null,
      preheader: null,
      body: `${placement.disclosure} ${placement.link}`,
      callToAction: "",
      hashtags: []
    }
  )
}
