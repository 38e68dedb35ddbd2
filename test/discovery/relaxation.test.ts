import { describe, expect, it } from "vitest"
import {
  attemptParams,
  constraintProbes,
  namesTheProduct,
  searchAttempts,
  unmetConstraint
} from "../../discovery/relaxation.ts"
import { parseIntent } from "../../domain/intent/parseIntent.ts"
import type { ProductDocument } from "../../readModel/documents.ts"

const vocabulary = { categories: ["Electronics", "Headphones"], brands: ["Sony"] }

describe("relaxation ladder", () => {
  it("runs in a fixed order and stops relaxing at hard constraints", () => {
    const intent = parseIntent("cheap sony wireless headphones under $50", vocabulary)
    const ladder = searchAttempts(intent, "Electronics")
    expect(ladder.map((a) => a.step)).toEqual(["strict", "most_words", "without_vocabulary", "out_of_stock"])
    for (const attempt of ladder) {
      // the price bound, its currency and the category parameter are in every step
      expect(attempt.filters).toEqual(
        expect.arrayContaining(['categories = "Electronics"', "price <= 50", 'currency = "USD"'])
      )
      expect(attempt.sort).toEqual(["price:asc"])
    }
    expect(ladder[0]).toMatchObject({ strategy: "all", inStock: true })
    expect(ladder[1].strategy).toBe("frequency")
    expect(ladder[2].filters.some((f) => f.startsWith("brand "))).toBe(false)
    expect(ladder[3].inStock).toBe(false)
    expect(attemptParams(ladder[0], 8)).toMatchObject({
      filter: expect.stringContaining("in_stock = true"),
      limit: 12,
      showRankingScoreDetails: true
    })
    expect(attemptParams(ladder[3], 8).filter).not.toContain("in_stock")
  })

  it("a single product word skips the most-words step; no words browse the best deals", () => {
    expect(searchAttempts(parseIntent("jacket"), undefined).map((a) => a.step)).toEqual(["strict", "out_of_stock"])
    const browse = searchAttempts(parseIntent("under $20"), undefined)
    expect(browse.map((a) => a.step)).toEqual(["strict", "out_of_stock"])
    expect(browse[0].sort).toEqual(["deal_score:desc"])
  })

  it("names the constraint that excluded everything", () => {
    const intent = parseIntent("headphones under $20", vocabulary)
    const ladder = searchAttempts(intent, undefined)
    const probes = constraintProbes(intent, ladder[ladder.length - 1])
    expect(probes.map((p) => p.kind)).toEqual(["cheapest", "currency"])
    expect(probes[0].params.filter).not.toContain("price")
    const doc = { price: 24.99, currency: "USD", title: "Budget Headphones" } as ProductDocument
    expect(unmetConstraint(intent, undefined, [{ probe: probes[0], hit: doc, total: 1 }])).toBe(
      "nothing with price at most 20 USD; the cheapest match is 24.99 USD (Budget Headphones)"
    )
    const range = parseIntent("headphones between 300 and 600 dollars", vocabulary)
    const rangeProbes = constraintProbes(range, searchAttempts(range, undefined)[0])
    expect(
      unmetConstraint(range, undefined, [
        { probe: rangeProbes[0], hit: doc, total: 3 },
        { probe: rangeProbes[1], hit: { ...doc, price: 649 }, total: 3 }
      ])
    ).toBe("nothing with price between 300 USD and 600 USD; matches cost from 24.99 USD to 649.00 USD")
    expect(unmetConstraint(intent, undefined, [])).toBeUndefined()
  })

  it("tells a hit named by its words from one only its description mentions", () => {
    const hit = (score: number) =>
      ({ _rankingScoreDetails: { attribute: { attributeRankingOrderScore: score } } }) as any
    expect(namesTheProduct(hit(1))).toBe(true) // in the title
    expect(namesTheProduct(hit(0.375))).toBe(true) // "earbuds" in the title, "wireless" in the description
    expect(namesTheProduct(hit(1 / 6))).toBe(false) // the description only (the last of six searchable attributes)
    expect(namesTheProduct({} as any)).toBe(true)
  })
})
