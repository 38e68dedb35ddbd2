import type { Draft } from "./assemble.ts"
import { containsLink, inventedNumbers, numbersIn, unsupportedClaims } from "./checkFacts.ts"
import { type CopyFacts, type CopyType, dealsOf, money, type Tone } from "./facts.ts"
import { CALL_TO_ACTION_MAX, LIMITS, paragraphs } from "./limits.ts"

// The LLM generator's pure half: the prompt (catalog facts and rules only),
// reading the model's answer, and checking it against the facts. The model
// writes text; we add the link and the disclosure afterwards, so neither can
// be lost, moved or invented by it.

export interface ChatMessage {
  readonly role: "system" | "user"
  readonly content: string
}

/** Why a model answer was not used (reported as fallback.reason). */
export type DraftProblem = "invalid_output" | "invented_numbers" | "unsupported_claim"

const TYPE_RULES: Record<CopyType, string> = {
  social: `A social media post. "text": at most ${LIMITS.social.textMax - 80} characters, one or two sentences, no hashtags (we add them).`,
  email:
    `A promotional email. "subject": at most ${LIMITS.email.subjectMax} characters. "preheader": at most ${LIMITS.email.preheaderMax} characters. ` +
    `"text": the email body (greeting, short paragraphs, product list if useful), ${LIMITS.email.textMin}-${LIMITS.email.textMax} characters.`,
  blog:
    `A blog post section. "title": at most ${LIMITS.blog.titleMax} characters. "text": at least ${LIMITS.blog.minParagraphs} paragraphs separated by blank lines, ` +
    `${LIMITS.blog.textMin}-${LIMITS.blog.textMax} characters.`,
  deal_alert: `A short deal alert. "text": ${LIMITS.deal_alert.textMin}-${LIMITS.deal_alert.textMax} characters, naming the product, its current price and the reference price or discount.`
}

const FIELDS: Record<CopyType, string> = {
  social: `{"text": string, "call_to_action": string}`,
  email: `{"subject": string, "preheader": string, "text": string, "call_to_action": string}`,
  blog: `{"title": string, "text": string, "call_to_action": string}`,
  deal_alert: `{"text": string, "call_to_action": string}`
}

/** The facts as the model sees them: names, prices and savings, nothing else (no links, no ids). */
export const promptFacts = (facts: CopyFacts) => ({
  store: facts.store,
  domain: facts.domain,
  category: facts.category,
  products: facts.products.map((product) => ({
    name: product.title,
    brand: product.brand,
    price: money(product.price, product.currency),
    ...(product.referencePrice !== null && product.discountPercent !== null
      ? { reference_price: money(product.referencePrice, product.currency), discount_percent: product.discountPercent }
      : {}),
    availability: product.availability
  }))
})

export const promptFor = (facts: CopyFacts, type: CopyType, tone: Tone): Array<ChatMessage> => [
  {
    role: "system",
    content: [
      "You write affiliate marketing copy from catalog facts.",
      "Rules:",
      "- Use only the facts given. Do not write any number (price, percentage, count, date) that is not in the facts.",
      "- Never mention coupon or promo codes, free shipping or returns, guarantees, ratings, stock counts or deadlines.",
      "- reference_price is the lowest price we observed before the current price; describe a saving only against it, and only for products that have one.",
      "- Do not include links, URLs or a disclosure: they are added after your text.",
      "- Answer with one JSON object only, with the fields requested, no markdown."
    ].join("\n")
  },
  {
    role: "user",
    content: [
      `Type: ${type}. ${TYPE_RULES[type]}`,
      `Tone: ${tone}.`,
      `"call_to_action": a short phrase of at most ${CALL_TO_ACTION_MAX - 20} characters, e.g. "Shop now".`,
      `Answer as ${FIELDS[type]}.`,
      "Facts (JSON):",
      JSON.stringify(promptFacts(facts), null, 2)
    ].join("\n")
  }
]

const stringField = (value: unknown): string | null =>
  typeof value === "string" && value.trim().length > 0 ? value.trim() : null

/** The model's JSON answer as a draft (tolerates a markdown code fence around it). */
export const parseDraft = (content: string): Draft | undefined => {
  const unfenced = content
    .trim()
    .replace(/^```(?:json)?\s*/i, "")
    .replace(/\s*```$/, "")
  let parsed: unknown
  try {
    parsed = JSON.parse(unfenced)
  } catch {
    return undefined
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined
  const fields = parsed as Record<string, unknown>
  const text = stringField(fields.text)
  const callToAction = stringField(fields.call_to_action)
  if (text === null || callToAction === null) return undefined
  return {
    title: stringField(fields.title),
    subject: stringField(fields.subject),
    preheader: stringField(fields.preheader),
    text,
    callToAction
  }
}

export interface DraftCheck {
  readonly problem: DraftProblem
  readonly detail: string
}

/** undefined when the draft may be used; else what is wrong with it. */
export const checkDraft = (type: CopyType, draft: Draft, facts: CopyFacts): DraftCheck | undefined => {
  const limits = LIMITS[type]
  const invalid = (detail: string): DraftCheck => ({ problem: "invalid_output", detail })
  if (draft.text.length < limits.textMin || draft.text.length > limits.textMax) {
    return invalid(`text is ${draft.text.length} characters; ${type} needs ${limits.textMin}-${limits.textMax}`)
  }
  if (paragraphs(draft.text).length < limits.minParagraphs)
    return invalid(`${type} needs at least ${limits.minParagraphs} paragraphs`)
  if (draft.callToAction.length > CALL_TO_ACTION_MAX)
    return invalid(`call_to_action is longer than ${CALL_TO_ACTION_MAX} characters`)
  if (type === "blog" && (draft.title === null || draft.title.length > limits.titleMax))
    return invalid(`blog needs a title of at most ${limits.titleMax} characters`)
  if (type === "email" && (draft.subject === null || draft.subject.length > limits.subjectMax))
    return invalid(`email needs a subject of at most ${limits.subjectMax} characters`)
  if (type === "email" && (draft.preheader === null || draft.preheader.length > limits.preheaderMax))
    return invalid(`email needs a preheader of at most ${limits.preheaderMax} characters`)

  // Only the fields this type shows (a social post has no title: whatever the model put there is dropped).
  const shown = [
    draft.text,
    draft.callToAction,
    ...(type === "blog" ? [draft.title] : []),
    ...(type === "email" ? [draft.subject, draft.preheader] : [])
  ]
  const all = shown.filter((t): t is string => t !== null).join("\n")
  if (containsLink(all)) return invalid("the copy contains a link; links are ours to place")
  const invented = inventedNumbers(all, facts)
  if (invented.length > 0)
    return {
      problem: "invented_numbers",
      detail: `numbers not in the catalog facts: ${[...new Set(invented)].join(", ")}`
    }
  const claims = unsupportedClaims(all)
  if (claims.length > 0)
    return { problem: "unsupported_claim", detail: `claims we have no facts for: ${claims.join(", ")}` }
  if (type === "deal_alert") {
    const deal = dealsOf(facts)[0]
    if (deal !== undefined && !numbersIn(draft.text).some((n) => Math.abs(n - deal.price) < 0.005)) {
      return invalid("the deal alert does not state the current price")
    }
  }
  return undefined
}
