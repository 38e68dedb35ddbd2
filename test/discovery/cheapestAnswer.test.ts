import { describe, expect, it } from "vitest"
import { cheapestAnswer } from "../../discovery/cheapest.ts"
import { documentId, type ProductDocument } from "../../readModel/documents.ts"
import { modelDocument, modelHitOf, offerDocument, variantsOf } from "../../readModel/modelDocuments.ts"
import { offerFixture } from "../support/offerFixture.ts"

// A price-word answer (discovery/cheapest.ts) orders its whole pool by price
// but renders only the page asked for: what it counts and what a page shows
// must be what ordering every pooled product's result would give.

const shoe = (n: number, overrides: Partial<ProductDocument> = {}): ProductDocument =>
  offerFixture(documentId(`feed:shoe-${n}`), {
    product_id: `feed:shoe-${n}`,
    group_key: `model:shoe-${n}`,
    title: `Trail Runner ${n} Shoes`,
    category: "Shoes",
    product_type: "Fashion > Shoes",
    // 20 distinct prices, not in the order of relevance
    price: 40 + ((n * 37) % 23),
    ...overrides
  })

describe("a price-word answer", () => {
  // 20 models, one of them in GBP and one without "shoes" in its title (below the relevance floor)
  const offers = Array.from({ length: 20 }, (_, n) =>
    n === 3 ? shoe(n, { currency: "GBP" }) : n === 7 ? shoe(n, { title: "Trail Runner 7" }) : shoe(n)
  )
  const hits = offers.map((offer) => modelHitOf(modelDocument([offer])))
  const params = { sort: ["price:asc"] }

  it("counts every pooled product and renders each page as the whole ordering would", () => {
    const answer = cheapestAnswer(hits, params, "shoes", false)
    // the floor: 19 titles name "shoes"; the GBP model follows the USD ones (prices of two currencies never compare)
    expect(answer.length).toBe(19)
    const everything = answer.slice(0, answer.length)
    const usd = offers.filter((o, n) => n !== 3 && n !== 7).sort((a, b) => a.price - b.price)
    expect(everything.map((o) => o.id)).toEqual([...usd.map((o) => o.id), offers[3].id])
    // each result is the offer document of its model's offer, with the model's variants
    const hit = hits[offers.indexOf(usd[0])]
    expect(everything[0]).toEqual({ ...offerDocument(hit, hit.offer_list[0]), variants: variantsOf(hit) })
    // pages are slices of that order, past the end included
    expect(answer.slice(0, 8)).toEqual(everything.slice(0, 8))
    expect(answer.slice(8, 16)).toEqual(everything.slice(8, 16))
    expect(answer.slice(16, 24)).toEqual(everything.slice(16))
    expect(answer.slice(40, 48)).toEqual([])
  })
})
