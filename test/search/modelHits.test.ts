import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SearchEngine } from "../../infra/SearchEngine.ts"
import { SearchSync } from "../../pipelines/search/SearchSync.ts"
import { documentId } from "../../readModel/documents.ts"
import { PRODUCTS_INDEX } from "../../readModel/indexes.ts"
import { modelDocument } from "../../readModel/modelDocuments.ts"
import { dealAnswerOf, modelAnswerOf } from "../../readModel/modelHits.ts"
import { insertProducts } from "../support/catalogFixtures.ts"
import { discoveryCatalog } from "../support/discoveryCatalog.ts"
import { offerFixture } from "../support/offerFixture.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// Search answers are checked field by field (no Schema decode of every
// embedded offer): a document of another shape is an error naming the
// field, and the endpoints answer it 503, never a crash.

const model = modelDocument([
  offerFixture(documentId("feed:w"), { product_id: "feed:w" }),
  offerFixture(documentId("feed:t"), { product_id: "feed:t", store: "Target", price: 74.99 })
])
const answerWith = (hit: unknown) => ({ hits: [hit], estimatedTotalHits: 1, query: "earbuds" })
const withOffer = (change: Record<string, unknown>) =>
  answerWith({ ...model, offer_list: [model.offer_list[0], { ...model.offer_list[1], ...change }] })

describe("search answer checks", () => {
  it("accept a model document as the index holds it", () => {
    const answer = dealAnswerOf(answerWith(model))
    expect(typeof answer === "string" ? answer : answer.hits[0].offer_list.map((offer) => offer.store)).toEqual([
      "Target",
      "Walmart"
    ])
    expect(typeof modelAnswerOf(answerWith(model))).toBe("object")
  })

  it("name the first field that does not hold what the service reads", () => {
    expect(dealAnswerOf(withOffer({ price: "74.99" }))).toBe(`hit ${model.id}, offer ${model.offer_list[1].id}: price`)
    expect(dealAnswerOf(withOffer({ in_stock: undefined }))).toMatch(/: in_stock$/)
    expect(dealAnswerOf(withOffer({ brand: 7 }))).toMatch(/: brand$/)
    expect(dealAnswerOf(answerWith({ ...model, offer_list: [] }))).toBe(`hit ${model.id}: offer_list`)
    expect(dealAnswerOf(answerWith({ ...model, offer_list: ["x"] }))).toMatch(/offer_list holds a non-object/)
    expect(dealAnswerOf(answerWith({ ...model, description: [1] }))).toBe(`hit ${model.id}: description`)
    expect(dealAnswerOf(answerWith(null))).toBe("a hit is not an object")
    expect(dealAnswerOf({ results: [] })).toBe("the answer has no hits array")
    expect(dealAnswerOf({ hits: [], estimatedTotalHits: "1" })).toBe("estimatedTotalHits")
  })

  it("check only what is read: a Deal search needs no link, the catalog tools (whole offers) do", () => {
    const { link: _link, ...withoutLink } = model.offer_list[1]
    const answer = answerWith({ ...model, offer_list: [withoutLink] })
    expect(typeof dealAnswerOf(answer)).toBe("object")
    expect(modelAnswerOf(answer)).toMatch(/: link$/)
  })
})

describe("a malformed document in the products index", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
    await service.run(insertProducts(discoveryCatalog))
    await service.run(SearchSync.use((sync) => sync.syncProducts()))
    // What a stale or hand-edited index could hold: an offer without its price.
    const { price: _price, ...priceless } = model.offer_list[0]
    await service.run(
      Effect.gen(function* () {
        const engine = yield* SearchEngine
        yield* engine.task("add", (client) =>
          client.index(engine.indexUid(PRODUCTS_INDEX)).addDocuments([
            {
              ...model,
              id: "malformed",
              title: ["Zqxjv Malformed Earbuds"],
              offer_list: [priceless],
              is_deal: [true],
              offer_ids: ["malformed-offer"]
            }
          ])
        )
      })
    )
  })
  afterAll(async () => {
    await service?.close()
  })

  it("is answered 503 with our error body by the search endpoints, and other searches still work", async () => {
    for (const path of ["/api/search?q=zqxjv", "/api/deals?q=zqxjv", "/api/v1/products/search?q=zqxjv"]) {
      const response = await fetch(`${service.url}${path}`)
      expect(response.status, path).toBe(503)
      expect(((await response.json()) as { error: { code: string } }).error.code, path).toBe("search_unavailable")
    }
    const other = await fetch(`${service.url}/api/search?q=tv`)
    expect(other.status).toBe(200)
    expect(((await other.json()) as { count: number }).count).toBeGreaterThan(0)
  })
})
