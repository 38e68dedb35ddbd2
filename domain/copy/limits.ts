import type { CopyType } from "./facts.ts"

// Length conventions per type, shared by both generators and their checks.
// Social: the whole post (text, disclosure, link, hashtags) fits one X/Twitter
// post. Email: subjects past ~78 characters are cut in most inboxes; the
// preheader shows 40-130 characters after the subject. Deal alerts are read
// in push notifications and chat channels: short.
export interface CopyLimits {
  /** Everything the reader sees, link and disclosure included. */
  readonly totalMax: number
  /** The generated text alone (before we add disclosure, call to action, link and hashtags). */
  readonly textMin: number
  readonly textMax: number
  readonly titleMax: number
  readonly subjectMax: number
  readonly preheaderMax: number
  /** Blog sections need several paragraphs. */
  readonly minParagraphs: number
}

export const LIMITS: Record<CopyType, CopyLimits> = {
  social: { totalMax: 280, textMin: 10, textMax: 200, titleMax: 0, subjectMax: 0, preheaderMax: 0, minParagraphs: 1 },
  email: {
    totalMax: 2_500,
    textMin: 80,
    textMax: 1_800,
    titleMax: 0,
    subjectMax: 78,
    preheaderMax: 130,
    minParagraphs: 2
  },
  blog: {
    totalMax: 5_000,
    textMin: 300,
    textMax: 4_200,
    titleMax: 90,
    subjectMax: 0,
    preheaderMax: 0,
    minParagraphs: 3
  },
  deal_alert: {
    totalMax: 600,
    textMin: 30,
    textMax: 300,
    titleMax: 0,
    subjectMax: 0,
    preheaderMax: 0,
    minParagraphs: 1
  }
}

export const CALL_TO_ACTION_MAX = 60

export const paragraphs = (text: string): Array<string> =>
  text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
