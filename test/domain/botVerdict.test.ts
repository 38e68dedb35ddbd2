import { describe, expect, it } from "vitest"
import { botVerdict } from "../../domain/clicks/botVerdict.ts"
import { evaluateBotVerdicts, IN_APP_BROWSERS } from "../support/botCorpora.ts"

describe("botVerdict", () => {
  it.each([
    [undefined, "empty_user_agent"],
    ["", "empty_user_agent"],
    ["   ", "empty_user_agent"],
    ["Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "preview:slackbot"],
    ["facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "preview:facebook"],
    // Apple Messages' link previews borrow the Facebook and Twitter fetchers' names.
    ["facebookexternalhit/1.1 Facebot Twitterbot/1.0", "preview:facebook"],
    ["Twitterbot/1.0", "preview:twitterbot"],
    ["WhatsApp/2.23.20.0", "preview:whatsapp"],
    ["Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)", "preview:discordbot"],
    ["TelegramBot (like TwitterBot)", "preview:telegrambot"],
    ["LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)", "preview:linkedinbot"],
    ["Mozilla/5.0 (compatible; Pinterestbot/1.0; +http://www.pinterest.com/bot.html)", "preview:pinterest"],
    ["Pinterest/0.2 (+http://www.pinterest.com/bot.html)", "preview:pinterest"],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
      "preview:applebot"
    ],
    ["AppleNewsBot", "preview:applebot"],
    ["Snap URL Preview Service; bot; snapchat; https://developers.snap.com/robots", "preview:snapchat"],
    ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "crawler:googlebot"],
    ["curl/8.5.0", "isbot:curl/8.5.0"],
    ["python-requests/2.31.0", "isbot:python-requests/2.31.0"]
  ])("%j is a bot (%s)", (ua, reason) => {
    expect(botVerdict(ua)).toEqual({ isBot: true, reason })
  })

  it("lets browsers through", () => {
    expect(
      botVerdict(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
      )
    ).toEqual({ isBot: false, reason: null })
    expect(
      botVerdict(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
      ).isBot
    ).toBe(false)
  })

  it.each(IN_APP_BROWSERS)("a person in the %s in-app browser is not a bot", (_app, ua) => {
    expect(botVerdict(ua)).toEqual({ isBot: false, reason: null })
  })

  it("an in-app browser's token does not hide a bot in the same string", () => {
    const headless =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/440.0] HeadlessChrome/120.0"
    expect(botVerdict(headless)).toEqual({ isBot: true, reason: "isbot:Headless" })
  })
})

describe("botVerdict on corpora no one here wrote", () => {
  const { crawlers, excluded, browsers, inApp } = evaluateBotVerdicts()

  it("catches at least 99% of crawler-user-agents, with few exclusions", () => {
    expect(crawlers.total).toBeGreaterThan(2000)
    expect(excluded).toBeLessThanOrEqual(5)
    expect(crawlers.caught / crawlers.total).toBeGreaterThanOrEqual(0.99)
  })

  it("flags no browser of user-agents and top-user-agents", () => {
    expect(browsers.total).toBeGreaterThan(500)
    expect(browsers.flagged).toEqual([])
  })

  it("flags no in-app browser", () => {
    expect(inApp.total).toBe(IN_APP_BROWSERS.length)
    expect(inApp.flagged).toEqual([])
  })
})
