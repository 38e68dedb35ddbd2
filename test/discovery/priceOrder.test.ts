import { describe, expect, it } from "vitest"
import { namesEveryWord } from "../../discovery/cheapest.ts"
import { cheapestFirst, convertedPrices, type PriceComparison } from "../../discovery/priceOrder.ts"
import { NO_RATES, ratesOf } from "../../domain/money/exchangeRates.ts"
import type { DealOffer } from "../../readModel/modelDocuments.ts"

// Cheapest first, but only between comparable prices.

const offer = (id: string, price: number, currency: string) => ({ id, price, currency }) as unknown as DealOffer

describe("cheapest first", () => {
  it("orders within each currency and keeps the currencies apart, the most relevant one first", () => {
    const relevanceOrder = [
      offer("a", 82.95, "EUR"),
      offer("b", 114.99, "GBP"),
      offer("c", 60, "EUR"),
      offer("d", 69.99, "GBP"),
      offer("e", 150.99, "USD")
    ]
    expect(cheapestFirst(relevanceOrder).map((o) => o.id)).toEqual(["c", "a", "d", "b", "e"])
  })

  it("takes a comparison that converts prices into one currency", () => {
    const toEur: Record<string, number> = { EUR: 1, GBP: 1.2, USD: 0.9 }
    const converting: PriceComparison = { groupOf: () => "EUR", amountOf: (o) => o.price * toEur[o.currency] }
    const offers = [offer("a", 82.95, "EUR"), offer("b", 69.99, "GBP"), offer("c", 90, "USD")]
    expect(cheapestFirst(offers, converting).map((o) => o.id)).toEqual(["c", "a", "b"])
  })

  it("converts at the reference rates: one order across rated currencies, a currency without a rate after them", () => {
    const rates = ratesOf("2026-11-27", [
      ["USD", 1.05],
      ["GBP", 0.85]
    ])
    const comparison = convertedPrices(rates)!
    expect(comparison.converted).toMatchObject({ currency: "EUR", ratesAsOf: "2026-11-27" })
    // the most relevant offer is in CHF (no rate): it still comes after every converted price
    const offers = [
      offer("chf", 10, "CHF"),
      offer("eur", 59, "EUR"),
      offer("gbp", 19, "GBP"),
      offer("usd", 79.99, "USD")
    ]
    expect(cheapestFirst(offers, comparison).map((o) => o.id)).toEqual(["gbp", "eur", "usd", "chf"])
    // no rates loaded: nothing is converted
    expect(convertedPrices(NO_RATES)).toBeUndefined()
  })

  it("names the product only when the title (or a category) holds every word, plurals included", () => {
    const skate = { title: "Vans Old Skool Women's Skate Shoes", categories: ["Fashion", "Shoes"] }
    const running = { title: "Brooks Ghost 16 Men's Running Shoes", categories: ["Running Shoes"] }
    expect(namesEveryWord([skate.title, ...skate.categories], "running shoes")).toBe(false)
    expect(namesEveryWord([running.title], "running shoes")).toBe(true)
    expect(namesEveryWord([running.title], "running shoe")).toBe(true)
  })
})
