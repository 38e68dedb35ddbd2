import { describe, expect, it } from "vitest"
import { namesEveryWord } from "../../discovery/cheapest.ts"
import { cheapestFirst, type PriceComparison } from "../../discovery/priceOrder.ts"
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

  it("names the product only when the title (or a category) holds every word, plurals included", () => {
    const skate = { title: "Vans Old Skool Women's Skate Shoes", categories: ["Fashion", "Shoes"] }
    const running = { title: "Brooks Ghost 16 Men's Running Shoes", categories: ["Running Shoes"] }
    expect(namesEveryWord([skate.title, ...skate.categories], "running shoes")).toBe(false)
    expect(namesEveryWord([running.title], "running shoes")).toBe(true)
    expect(namesEveryWord([running.title], "running shoe")).toBe(true)
  })
})
