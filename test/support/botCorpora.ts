// User-agent corpora no one here wrote, shipped inside npm packages (nothing is
// downloaded): crawler-user-agents for bots, user-agents and top-user-agents
// for real browsers; plus a table of current in-app browser strings. Shared by
// test/domain/botVerdict.test.ts (asserts) and scripts/evalBots.ts (prints).
import crawlers from "crawler-user-agents"
import topUserAgents from "top-user-agents"
import UserAgent from "user-agents"
import { botVerdict } from "../../domain/clicks/botVerdict.ts"

export interface CrawlerAgent {
  readonly pattern: string
  readonly userAgent: string
}

/**
 * Corpus entries left out of recall, by their `pattern`: not bots in our sense
 * (a person is behind them) even though the corpus lists them.
 */
export const NOT_BOTS_HERE: Readonly<Record<string, string>> = {
  // The instance is Instagram's Android in-app browser, letter for letter (the corpus
  // attributes the device's build id to 80legs); no pattern can tell it from a shopper.
  "AP3A\\.240617\\.008": "Instagram in-app browser string",
  // "MetaIAB Facebook" is the suffix of Meta's current in-app browser (Facebook, and
  // "MetaIAB Instagram" / "MetaIAB Threads"), not a preview fetcher: a person reading.
  "MetaIAB Facebook": "Meta in-app browser, a person",
  // Fluid turns a website into a Mac app that a person drives.
  Fluid: "site-specific browser, a person"
}

export const crawlerAgents = (): ReadonlyArray<CrawlerAgent> =>
  crawlers.flatMap((entry) => entry.instances.map((userAgent) => ({ pattern: entry.pattern, userAgent })))

/** Every distinct browser string of both browser corpora. */
export const browserAgents = (): ReadonlyArray<string> => [
  ...new Set([...UserAgent.top(Number.MAX_SAFE_INTEGER).map((data) => data.userAgent), ...topUserAgents])
]

/**
 * In-app browsers: a person who tapped a link inside the app. Formats from
 * ua-parser-js's test fixtures (test/browser-test.json, "UAP" below) and from
 * the vendors' own code where noted; versions brought to 2025-2026 releases.
 */
export const IN_APP_BROWSERS: ReadonlyArray<readonly [app: string, userAgent: string]> = [
  // UAP "Facebook in-App Browser for iOS with version": [FBAN/FBIOS;FBAV/...] bracket.
  [
    "Facebook iOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/517.0.0.46.107;FBBV/738395521;FBDV/iPhone16,2;FBMD/iPhone;FBSN/iOS;FBSV/18.5;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBRV/740384838;IABMV/1]"
  ],
  [
    "Facebook iOS, 2017 format",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 10_3_1 like Mac OS X) AppleWebKit/603.1.30 (KHTML, like Gecko) Mobile/14E304 [FBAN/FBIOS;FBAV/91.0.0.41.73;FBBV/57050710;FBDV/iPhone8,1;FBMD/iPhone;FBSN/iOS;FBSV/10.3.1;FBSS/2;FBCR/Telekom.de;FBID/phone;FBLC/de_DE;FBOP/5;FBRV/0]"
  ],
  // The pre-2013 iOS app: "AppleWebKit" without a version, FBAN/FBForIPhone.
  [
    "Facebook iOS, 2012 format",
    "Mozilla/5.0 (iPhone; U; CPU iPhone OS 5_1_1 like Mac OS X; en_US) AppleWebKit (KHTML, like Gecko) Mobile [FBAN/FBForIPhone;FBAV/4.1.1;FBBV/4110.0;FBDV/iPhone4,1;FBMD/iPhone;FBSN/iPhone OS;FBSV/5.1.1;FBSS/2; FBCR/O2;FBID/phone;FBLC/en_US;FBSF/2.0]"
  ],
  // UAP "Facebook in-App Browser for Android with version": [FB_IAB/FB4A;FBAV/...].
  [
    "Facebook Android",
    "Mozilla/5.0 (Linux; Android 14; SM-S918B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/138.0.7204.179 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/522.0.0.50.94;IABMV/1;]"
  ],
  // Old Android app whose web view sent only the app's own token (no spaces: isbot's "^[^ ]{50,}$").
  [
    "Facebook Android, bare app token",
    "[FBAN/FB4A;FBAV/35.0.0.48.273;FBBV/13180674;FBDM/{density=3.0,width=1080,height=1920};FBLC/en_US;FBCR/T-Mobile;FBMF/samsung;FBBD/samsung;FBPN/com.facebook.katana;FBDV/SM-G900P;FBSV/5.0;FBOP/1;FBCA/armeabi-v7a:armeabi;]"
  ],
  // Facebook Lite (FBAN/EMA), often glued to "Safari/537.36" without a space.
  [
    "Facebook Lite",
    "Mozilla/5.0 (Linux; Android 10; Mi 9T Pro Build/QKQ1.190825.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/88.0.4324.181 Mobile Safari/537.36[FBAN/EMA;FBLC/it_IT;FBAV/239.0.0.10.109;]"
  ],
  [
    "Messenger iOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/MessengerForiOS;FBAV/440.0.0.41.115;FBBV/541335588;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.1;FBSS/3;FBCR/;FBID/phone;FBLC/en_US;FBOP/5]"
  ],
  [
    "Messenger Android",
    "Mozilla/5.0 (Linux; Android 14; SM-S918B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.6778.135 Mobile Safari/537.36 [FB_IAB/Orca-Android;FBAV/480.0.0.50.105;]"
  ],
  // Meta's 2025 in-app browser suffix (iOS and Android), the string crawler-user-agents lists as "MetaIAB Facebook".
  [
    "Meta IAB iOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/22G100 Safari/604.1 MetaIAB Facebook"
  ],
  [
    "Meta IAB Android",
    "Mozilla/5.0 (Linux; Android 16; Pixel 10 Pro XL Build/CP1A.260305.018; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/146.0.7680.174 Mobile Safari/537.36 MetaIAB Facebook"
  ],
  // UAP "Instagram in-App Browser for iOS": "Instagram <version> (<device>; iOS ...)".
  [
    "Instagram iOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/22F76 Instagram 393.1.0.36.70 (iPhone15,3; iOS 18_5; en_US; en; scale=3.00; 1290x2796; IABMV/1; 776538208) Safari/604.1"
  ],
  // The instance crawler-user-agents lists under "AP3A.240617.008" (see NOT_BOTS_HERE).
  [
    "Instagram Android",
    "Mozilla/5.0 (Linux; Android 15; CPH2557 Build/AP3A.240617.008; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/142.0.7444.142 Mobile Safari/537.36 Instagram 406.0.0.58.159 Android (35/15; 480dpi; 1080x2400; OPPO; CPH2557; OP573DL1; mt6833; en_MY; 822918295; IABMV/1)"
  ],
  // Threads keeps its codename "Barcelona" in the user agent.
  [
    "Threads iOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Barcelona 289.0.0.77.109 (iPhone15,2; iOS 17_0; en_US; en; scale=3.00; 1179x2556; 489654532)"
  ],
  // A Pinterest app string seen in the wild; the Android app appends "[Pinterest/Android]" the same way.
  [
    "Pinterest iOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [Pinterest/iOS]"
  ],
  [
    "Pinterest Android",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/128.0.6613.127 Mobile Safari/537.36 [Pinterest/Android]"
  ],
  // TikTok's web view: musical_ly_<version> (global iOS app), trill_<build> (Android), BytedanceWebview.
  [
    "TikTok iOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_36.5.4 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/US ByteFullLocale/en isDarkMode/0 WKWebView/1 BytedanceWebview/d8a21c6 FalconTag/"
  ],
  [
    "TikTok Android",
    "Mozilla/5.0 (Linux; Android 13; SM-A546E Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.0.0 Mobile Safari/537.36 trill_2023008030 JsSdk/1.0 NetType/WIFI Channel/googleplay AppName/trill app_version/30.8.3 ByteLocale/es ByteFullLocale/es Region/CO Spark/1.4.6.3-bugfix AppVersion/30.8.3 BytedanceWebview/d8a21c6"
  ],
  // UAP "Snapchat": "Snapchat/<version> (like Safari/..., panda)".
  [
    "Snapchat iOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Snapchat/13.48.0.38 (like Safari/8621.2.5.10.8, panda)"
  ],
  // UAP "LinkedIn": "[LinkedInApp]", newer builds add "/<version>".
  [
    "LinkedIn iOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 15_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]"
  ],
  [
    "LinkedIn iOS, versioned",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.31.1346"
  ],
  // The Reddit Android app's own token ("Reddit/Version <v>/Build <b>/Android <os>").
  [
    "Reddit Android",
    "Mozilla/5.0 (Linux; Android 16; SM-S931B Build/BP4A.251205.006; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/151.0.7922.200 Mobile Safari/537.36 Reddit/Version 2026.35.0/Build 2635090/Android 16"
  ],
  // UAP "Twitter": the Android web view ends in "TwitterAndroid" (iOS opens Safari's view, a plain Safari string).
  [
    "X / Twitter Android",
    "Mozilla/5.0 (Linux; Android 13; CPH2531 Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0.6312.120 Mobile Safari/537.36 TwitterAndroid"
  ],
  [
    "X / Twitter iOS web view",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 14_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Twitter for iPhone/8.69"
  ],
  // Telegram Android's web view (its open-source client appends
  // "Telegram-Android/<version> (<maker> <model>; Android <v>; SDK <n>; <performance class>)").
  [
    "Telegram Android",
    "Mozilla/5.0 (Linux; Android 14; SM-S918B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.6778.135 Mobile Safari/537.36 Telegram-Android/11.4.3 (Samsung SM-S918B; Android 14; SDK 34; HIGH)"
  ],
  // UAP "LINE on Android" / "LINE on iOS".
  [
    "LINE Android",
    "Mozilla/5.0 (Linux; Android 14; SM-S918B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.6778.135 Mobile Safari/537.36 Line/14.19.1/IAB"
  ],
  [
    "LINE iOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.19.0"
  ],
  // UAP "GSA on iOS": the Google app; on Android it appends "GSA/<version>.arm64".
  [
    "Google app iOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/379.0.766226916 Mobile/15E148 Safari/604.1"
  ],
  [
    "Google app Android",
    "Mozilla/5.0 (Linux; Android 14; SM-S918B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.6778.135 Mobile Safari/537.36 GSA/15.50.41.29.arm64"
  ],
  // Apple News' reader ("AppleNews/<build> Version/<v>"); its crawler is AppleNewsBot.
  [
    "Apple News iOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 11_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15F79 AppleNews/608.0.1 Version/2.0.1"
  ],
  [
    "Apple News macOS",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) AppleNews/3565.0.1 Version/3.0"
  ],
  // WeChat and KakaoTalk, the two other large messengers with an in-app browser.
  [
    "WeChat Android",
    "Mozilla/5.0 (Linux; Android 14; V2250 Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.103 Mobile Safari/537.36 XWEB/1300259 MMWEBSDK/20241103 MMWEBID/1234 MicroMessenger/8.0.55.2780(0x28003737) WeChat/arm64 Weixin NetType/WIFI Language/en ABI/arm64"
  ],
  [
    "KakaoTalk iOS",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 KAKAOTALK 25.8.0"
  ]
]

export interface BotEvaluation {
  /** Crawler corpus instances (exclusions left out) the verdict calls bots. */
  readonly crawlers: { readonly caught: number; readonly total: number; readonly missed: ReadonlyArray<CrawlerAgent> }
  readonly excluded: number
  readonly browsers: { readonly total: number; readonly flagged: ReadonlyArray<string> }
  readonly inApp: { readonly total: number; readonly flagged: ReadonlyArray<string> }
}

export const evaluateBotVerdicts = (): BotEvaluation => {
  const all = crawlerAgents()
  const counted = all.filter((agent) => !(agent.pattern in NOT_BOTS_HERE))
  const missed = counted.filter((agent) => !botVerdict(agent.userAgent).isBot)
  const browsers = browserAgents()
  return {
    crawlers: { caught: counted.length - missed.length, total: counted.length, missed },
    excluded: all.length - counted.length,
    browsers: { total: browsers.length, flagged: browsers.filter((ua) => botVerdict(ua).isBot) },
    inApp: {
      total: IN_APP_BROWSERS.length,
      flagged: IN_APP_BROWSERS.filter(([, ua]) => botVerdict(ua).isBot).map(([app]) => app)
    }
  }
}
