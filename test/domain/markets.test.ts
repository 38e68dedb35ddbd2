import { describe, expect, it } from "vitest"
import { chooseMarket, marketOf, regionOfAcceptLanguage } from "../../domain/markets/markets.ts"

describe("markets", () => {
  it("knows each country with its currency and language; UK is read as GB", () => {
    expect(marketOf("gb")).toMatchObject({ country: "GB", currency: "GBP", language: "en" })
    expect(marketOf("UK")?.country).toBe("GB")
    expect(marketOf("DE")).toMatchObject({ currency: "EUR", language: "de" })
    expect(marketOf("ZZ")).toBeUndefined()
  })

  it("reads the region of Accept-Language by q-value; a bare language names no country", () => {
    expect(regionOfAcceptLanguage("en-GB,en;q=0.9")?.country).toBe("GB")
    expect(regionOfAcceptLanguage("de;q=1, fr-FR;q=0.8, en-US;q=0.9")?.country).toBe("US")
    expect(regionOfAcceptLanguage("zh-Hant-TW, en-AU;q=0.5")?.country).toBe("AU")
    expect(regionOfAcceptLanguage("de, fr")).toBeUndefined()
    expect(regionOfAcceptLanguage("en-XX, en-GB;q=0")).toBeUndefined()
    expect(regionOfAcceptLanguage(undefined)).toBeUndefined()
    expect(regionOfAcceptLanguage("x".repeat(5_000))).toBeUndefined()
  })

  it("chooses the parameter, then Accept-Language, then DEFAULT_COUNTRY; a currency parameter overrides the market's", () => {
    expect(chooseMarket({ country: "FR", acceptLanguage: "en-GB", defaultCountry: "US" })).toMatchObject({
      market: { country: "FR" },
      currency: "EUR",
      source: "parameter"
    })
    expect(chooseMarket({ acceptLanguage: "en-GB", defaultCountry: "US" })?.source).toBe("accept-language")
    expect(chooseMarket({ acceptLanguage: "de", defaultCountry: "US" })).toMatchObject({
      market: { country: "US" },
      source: "default"
    })
    expect(chooseMarket({ country: "GB", currency: "usd" })?.currency).toBe("USD")
    expect(chooseMarket({ currency: "USD" })).toBeUndefined()
    expect(chooseMarket({})).toBeUndefined()
  })
})

describe("the market a merchant URL names", () => {
  it("reads country domains and a country or locale as the first path segment; .com alone names none", async () => {
    const { marketNamedByUrl } = await import("../../domain/matching/urlMarket.ts")
    const named = (url: string) => marketNamedByUrl(new URL(url))
    expect(named("https://www.amazon.co.uk/dp/B0")).toBe("GB")
    expect(named("https://www.zalando.de/x")).toBe("DE")
    expect(named("https://www.nike.com/gb/t/air-max")).toBe("GB")
    expect(named("https://www.zara.com/en-gb/shirt")).toBe("GB")
    expect(named("https://www.ikea.com/de/de/p/x")).toBe("DE")
    expect(named("https://www.nike.com/t/pegasus")).toBeUndefined()
    expect(named("https://shop.example.io/en/x")).toBeUndefined()
  })
})
