import { isbotMatch } from "isbot"
import { IN_APP_BROWSER_TOKENS, NAMED_BOTS } from "./botSignatures.ts"

// Bots are stored and flagged, never counted in statistics. A bot is software
// fetching the link with no shopper behind it: link-preview fetchers, crawlers,
// page-speed tools, scripts, and an empty user agent. A person in a social or
// messaging app's in-app browser is a shopper, whichever app it is.
// Pure and synchronous (no Effect, no IO) so the batch writer can call it
// anywhere, a worker thread included.

export interface BotVerdict {
  readonly isBot: boolean
  /** null for humans; e.g. "empty_user_agent", "preview:slackbot", "isbot:curl/" (what isbot matched) */
  readonly reason: string | null
}

const HUMAN: BotVerdict = { isBot: false, reason: null }
const EMPTY: BotVerdict = { isBot: true, reason: "empty_user_agent" }
const NAMED_VERDICTS = NAMED_BOTS.map(([reason, pattern]) => [{ isBot: true, reason } as BotVerdict, pattern] as const)
// One pass answers "none of them" (the common case); the loop only runs to name a hit.
const ANY_NAMED = new RegExp(NAMED_BOTS.map(([, pattern]) => `(?:${pattern.source})`).join("|"), "i")
const ISBOT_REASON_LENGTH = 40

const classify = (ua: string): BotVerdict => {
  if (ANY_NAMED.test(ua)) for (const [verdict, pattern] of NAMED_VERDICTS) if (pattern.test(ua)) return verdict
  const rest = ua.replace(IN_APP_BROWSER_TOKENS, "").trim()
  if (rest === "") return HUMAN
  const match = isbotMatch(rest)
  return match === null ? HUMAN : { isBot: true, reason: `isbot:${match.slice(0, ISBOT_REASON_LENGTH)}` }
}

// The same few thousand user agents make most clicks; isbot's pattern is large,
// so verdicts are memoised (bounded: cleared when full).
const MEMO_LIMIT = 20_000
const memo = new Map<string, BotVerdict>()

export const botVerdict = (userAgent: string | undefined): BotVerdict => {
  const ua = userAgent?.trim() ?? ""
  if (ua === "") return EMPTY
  const known = memo.get(ua)
  if (known !== undefined) return known
  const verdict = classify(ua)
  if (memo.size >= MEMO_LIMIT) memo.clear()
  if (ua.length <= 512) memo.set(ua, verdict)
  return verdict
}
