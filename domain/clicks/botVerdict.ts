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

export const botVerdict = (userAgent: string | undefined): BotVerdict => {
  const ua = userAgent?.trim() ?? ""
  if (ua === "") return { isBot: true, reason: "empty_user_agent" }
  for (const [pattern, name] of PREVIEW_FETCHERS) if (pattern.test(ua)) return { isBot: true, reason: `preview:${name}` }
  return isbot(ua) ? { isBot: true, reason: "isbot" } : HUMAN
}
