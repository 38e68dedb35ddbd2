// User-agent signatures the bot verdict names explicitly. Each pattern matches
// a fetcher's own product token, never an app's name: the Pinterest app's
// in-app browser ("[Pinterest/iOS]") is a person, Pinterestbot is not.

/** [reason, pattern]: the reason is stored with the click so an operator can audit it. */
export const NAMED_BOTS: ReadonlyArray<readonly [string, RegExp]> = [
  // Link-preview fetchers: they unfurl a link the moment it is pasted into a post or chat.
  ["preview:slackbot", /\bslackbot\b|\bslack-imgproxy\b/i],
  // Apple's Messages previews also announce themselves as "facebookexternalhit/1.1 Facebot".
  [
    "preview:facebook",
    /\bfacebookexternalhit\/|\bfacebot\b|\bfacebookcatalog\/|\bmeta-external(?:agent|ads|fetcher)\//i
  ],
  // Telegram's fetcher says "TelegramBot (like TwitterBot)": named before Twitter's.
  ["preview:telegrambot", /\btelegrambot\b/i],
  ["preview:twitterbot", /\btwitterbot\b/i],
  // The fetcher's user agent starts with the product ("WhatsApp/2.23.20.0 A"); WhatsApp has no in-app browser.
  ["preview:whatsapp", /^whatsapp(?:\/|$)/i],
  ["preview:discordbot", /\bdiscordbot\//i],
  ["preview:linkedinbot", /\blinkedinbot\//i],
  ["preview:pinterest", /\bpinterestbot\/|^pinterest\/0\.|pinterest\.com\/bot\.html/i],
  ["preview:applebot", /\bapplebot\/|\bapplenewsbot\b/i],
  ["preview:skype", /\bskypeuripreview\b/i],
  ["preview:snapchat", /\bsnap url preview service\b/i],
  ["preview:redditbot", /\bredditbot\//i],
  [
    "preview:link_preview",
    /\bembedly\b|\biframely\/|\bvkshare\b|\bquora link preview\b|\bbitlybot\b|\(mastodon\/\d|\bkakaotalk-scrap\//i
  ],
  // Search crawlers isbot knows too, named because they are most of the traffic.
  [
    "crawler:googlebot",
    /\bgooglebot\b|\bgoogle-inspectiontool\/|\bgoogleother\b|\badsbot-google\b|\bmediapartners-google\b/i
  ],
  ["crawler:bingbot", /\bbingbot\/|\bbingpreview\//i],
  // Page-speed and screenshot tools and coding agents whose user agent is otherwise a plain
  // Chrome (found missing by the crawler-user-agents corpus).
  ["tool:page_audit", /\bgtmetrix\b|\bylt chrome\/|\bminiature\.io\/|\bTSM-turingos\b/i],
  ["tool:coding_agent", /\b(?:code|trae)\/\d[\d.]* chrome\/[\d.]+ electron\//i]
]

/**
 * Tokens that social and messaging apps append to an ordinary browser's user
 * agent when a person opens a link inside the app. They tell which app the
 * person is in and nothing about a bot, yet a few collide with isbot's broad
 * rules ("news" in AppleNews/, an old Facebook app's space-less "[FBAN/FB4A;...]"),
 * so they are removed before isbot looks at the rest of the string.
 */
const IN_APP_TOKENS: ReadonlyArray<RegExp> = [
  /\[FB(?:AN|_IAB)\/[^\]]*\]?/, // Facebook, Messenger, Facebook Lite: "[FBAN/FBIOS;FBAV/...]", "[FB_IAB/FB4A;...]"
  /\bMetaIAB(?: \w+)?/, // Meta's newer in-app browser: "MetaIAB Facebook", "MetaIAB Instagram"
  /\bInstagram [\d.]+/,
  /\bBarcelona [\d.]+/, // Threads
  /\[Pinterest\/(?:iOS|Android)\]/,
  /\bmusical_ly_[\d.]+|\btrill_\d+|\bBytedanceWebview\/\w+/, // TikTok
  /\bSnapchat\/[\d.]+/,
  /\[LinkedInApp\](?:\/[\d.]+)?/,
  /\bReddit\/Version [\d.]+\/Build \d+\/(?:Android|iOS) [\d.]+/,
  /\bTwitterAndroid\b|\bTwitter for iP(?:hone|ad)(?:\/[\d.]+)?/,
  /\bTelegram-Android\/[\d.]+(?: \([^)]*\))?/,
  /\bLine\/[\d.]+(?:\/IAB)?/,
  /\bGSA\/[\d.]+(?:\.arm64)?/, // the Google app
  /\bAppleNews\/[\d.]+(?: Version\/[\d.]+)?/,
  /\bMicroMessenger\/[\d.]+(?:\(0x[0-9a-f]+\))?/, // WeChat
  /\bKAKAOTALK [\d.]+/
]

export const IN_APP_BROWSER_TOKENS = new RegExp(IN_APP_TOKENS.map((token) => token.source).join("|"), "g")
