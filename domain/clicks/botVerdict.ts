import { isbot } from "isbot"

// Bots are stored and flagged, never counted in statistics. isbot knows the
// self-identifying crawlers; link-preview fetchers (which unfurl a link the
// moment it is pasted into a chat) are named explicitly so the reason says
// which one; an empty user agent is a script, not a shopper.
const PREVIEW_FETCHERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/slackbot|slack-imgproxy/i, "slackbot"],
  [/facebookexternalhit|facebookcatalog|meta-externalagent/i, "facebook"],
  // Telegram's fetcher says "like TwitterBot": test it first.
  [/telegrambot/i, "telegrambot"],
  [/twitterbot/i, "twitterbot"],
  [/whatsapp/i, "whatsapp"],
  [/discordbot/i, "discordbot"],
  [/linkedinbot/i, "linkedinbot"],
  [/googlebot|google-inspectiontool|googleother|adsbot-google|mediapartners-google/i, "googlebot"],
  [/bingbot|bingpreview/i, "bingbot"],
  [/skypeuripreview/i, "skype"],
  [/applebot/i, "applebot"],
  [/pinterest/i, "pinterest"],
  [/redditbot/i, "redditbot"],
  [/embedly|iframely|vkshare|quora link preview|bitlybot|mastodon/i, "link_preview"]
]

export interface BotVerdict {
  readonly isBot: boolean
  /** null for humans; e.g. "empty_user_agent", "preview:slackbot", "isbot" */
  readonly reason: string | null
}

const HUMAN: BotVerdict = { isBot: false, reason: null }
const EMPTY: BotVerdict = { isBot: true, reason: "empty_user_agent" }

const classify = (ua: string): BotVerdict => {
  for (const [pattern, name] of PREVIEW_FETCHERS) if (pattern.test(ua)) return { isBot: true, reason: `preview:${name}` }
  return isbot(ua) ? { isBot: true, reason: "isbot" } : HUMAN
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
