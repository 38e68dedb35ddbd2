import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SearchEngine } from "../../infra/SearchEngine.ts"
import { SearchSync } from "../../pipelines/search/SearchSync.ts"
import { documentId } from "../../readModel/documents.ts"
import { PRODUCTS_INDEX } from "../../readModel/indexes.ts"
import { modelDocument } from "../../readModel/modelDocuments.ts"
import { DEAL_OFFER_FIELDS, MORE_OFFER_FIELDS } from "../../readModel/offerRows.ts"
import { dealAnswerOf, MalformedOffer, modelAnswerOf } from "../../readModel/modelHits.ts"
import { insertProducts } from "../support/catalogFixtures.ts"
import { discoveryCatalog } from "../support/discoveryCatalog.ts"
import { offerFixture } from "../support/offerFixture.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// Search answers are checked field by field (no Schema decode of every
// embedded offer): a document of another shape is an error naming the
// field, and the endpoints answer it 503, never a crash.

const walmart = offerFixture(documentId("feed:w"), { product_id: "feed:w" })
const model = modelDocument([
  walmart,
  offerFixture(documentId("feed:t"), { product_id: "feed:t", store: "Target", price: 74.99 })
])
const answerWith = (hit: unknown) => ({ hits: [hit], estimatedTotalHits: 1, query: "earbuds" })
/** A deal row's JSON text with the value of `field` changed. */
const rowWith = (text: string, field: (typeof DEAL_OFFER_FIELDS)[number], value: unknown) =>
  JSON.stringify((JSON.parse(text) as Array<unknown>).with(DEAL_OFFER_FIELDS.indexOf(field), value))
/** The model with one value of its second offer's deal row changed. */
const withOffer = (field: (typeof DEAL_OFFER_FIELDS)[number], value: unknown) =>
  answerWith({ ...model, offer_rows: [model.offer_rows[0], rowWith(model.offer_rows[1], field, value)] })
const walmartId = walmart.id

/**
 * What is wrong with an answer as a Deal search meets it: its hits at once,
 * each offer when the offer choice first reads it (MalformedOffer).
 */
const dealProblem = (answer: unknown): string | undefined => {
  const read = dealAnswerOf(answer)
  if (typeof read === "string") return read
  try {
    for (const hit of read.hits) for (let i = 0; i < hit.offer_list.length; i++) hit.offer_list.at(i)
    return undefined
  } catch (error) {
    if (error instanceof MalformedOffer) return error.message
    throw error
  }
}
/** The offers of an answer's first hit, read one by one as the offer choice reads them. */
const offersOfFirstHit = (answer: ReturnType<typeof dealAnswerOf>) => {
  if (typeof answer === "string") return answer
  const list = answer.hits[0].offer_list
  return Array.from({ length: list.length }, (_, i) => list.at(i))
}

describe("search answer checks", () => {
  it("accept a model document as the index holds it", () => {
    const answer = dealAnswerOf(answerWith(model))
    expect(offersOfFirstHit(answer)).toMatchObject([{ store: "Target" }, { store: "Walmart" }])
    expect(typeof modelAnswerOf(answerWith(model))).toBe("object")
  })

  it("read each offer back from its rows, every field in place", () => {
    const answer = modelAnswerOf(answerWith(model))
    const offer = typeof answer === "string" ? answer : answer.hits[0].offer_list[1]
    expect(offer).toEqual(
      Object.fromEntries([
        ...DEAL_OFFER_FIELDS.map((field) => [field, field === "description_at" ? 0 : walmart[field]]),
        ...MORE_OFFER_FIELDS.map((field) => [field, walmart[field] ?? null])
      ])
    )
    expect(offer).toMatchObject({ id: walmartId, store: "Walmart", link: expect.stringMatching(/^https:/) })
  })

  it("name the first field that does not hold what the service reads", () => {
    expect(dealProblem(withOffer("price", "74.99"))).toBe(`hit ${model.id}, offer ${walmartId}: price`)
    expect(dealProblem(withOffer("in_stock", null))).toMatch(/: in_stock$/)
    // a text is an index in the model's offer_strings
    expect(dealProblem(withOffer("brand", "Anker"))).toMatch(/: brand$/)
    expect(dealProblem(withOffer("store", model.offer_strings.length))).toMatch(/: store$/)
    expect(dealProblem(withOffer("title", 0.5))).toMatch(/: title$/)
    expect(dealProblem(withOffer("brand", null))).toBeUndefined()
    expect(dealProblem(answerWith({ ...model, offer_strings: [...model.offer_strings.slice(1), 3] }))).toBe(
      `hit ${model.id}: offer_strings`
    )
    expect(dealProblem(answerWith({ ...model, offer_rows: [] }))).toBe(`hit ${model.id}: offer_rows`)
    expect(dealProblem(answerWith({ ...model, offer_rows: [{ id: "x" }] }))).toBe(`hit ${model.id}: offer_rows`)
    expect(dealProblem(answerWith({ ...model, offer_rows: ['{"id":"x"}'] }))).toBe(
      `hit ${model.id}: offer_rows[0] is not a row of ${DEAL_OFFER_FIELDS.length} values`
    )
    expect(dealProblem(answerWith({ ...model, offer_rows: ["[1,2"] }))).toBe(
      `hit ${model.id}: offer_rows[0] is not JSON`
    )
    const short = JSON.stringify((JSON.parse(model.offer_rows[0]) as Array<unknown>).slice(1))
    expect(dealProblem(answerWith({ ...model, offer_rows: [short] }))).toMatch(/offer_rows\[0\] is not a row/)
    expect(dealProblem(answerWith({ ...model, description: [1] }))).toBe(`hit ${model.id}: description`)
    expect(dealProblem(answerWith(null))).toBe("a hit is not an object")
    expect(dealProblem({ results: [] })).toBe("the answer has no hits array")
    expect(dealProblem({ hits: [], estimatedTotalHits: "1" })).toBe("estimatedTotalHits")
  })

  it("read a Deal search's offer when it is first asked for, and keep it", () => {
    const answer = dealAnswerOf(withOffer("price", "74.99"))
    if (typeof answer === "string") throw new Error(answer)
    const offers = answer.hits[0].offer_list
    // the first offer reads; the second's row is only met when it is read
    expect(offers.at(0)).toMatchObject({ store: "Target", price: 74.99 })
    expect(offers.at(0)).toBe(offers.at(0))
    expect(() => offers.at(1)).toThrow(MalformedOffer)
    expect(() => offers.at(1)).toThrow(`hit ${model.id}, offer ${walmartId}: price`)
  })

  it("check only what is read: a Deal search needs no offer_more, the catalog tools (whole offers) do", () => {
    const { offer_more: _more, ...dealOnly } = model
    expect(typeof dealAnswerOf(answerWith(dealOnly))).toBe("object")
    expect(modelAnswerOf(answerWith(dealOnly))).toBe(`hit ${model.id}: offer_more`)
    const linkAt = MORE_OFFER_FIELDS.indexOf("link")
    const linkless = { ...model, offer_more: [model.offer_more[0], model.offer_more[1].with(linkAt, null)] }
    expect(typeof dealAnswerOf(answerWith(linkless))).toBe("object")
    expect(modelAnswerOf(answerWith(linkless))).toBe(`hit ${model.id}, offer ${walmartId}: link`)
    expect(modelAnswerOf(answerWith({ ...model, offer_more: [model.offer_more[0]] }))).toBe(
      `hit ${model.id}: offer_more`
    )
  })

  it("refuse a document of an earlier shape (an index not yet rebuilt) by naming what it lacks", () => {
    const { offer_strings: _strings, offer_rows: _rows, offer_more: _more, ...rest } = model
    expect(
      dealAnswerOf(answerWith({ ...rest, offer_strings: [], offer_list: [{ id: walmartId, price: 74.99 }] }))
    ).toBe(`hit ${model.id}: offer_rows`)
    // rows of values with their texts in place, before offer_strings
    const rowsOfValues = model.offer_rows.map((text) => JSON.parse(text) as unknown)
    expect(dealAnswerOf(answerWith({ ...rest, offer_rows: rowsOfValues }))).toBe(`hit ${model.id}: offer_strings`)
    // rows of values after offer_strings, before row texts
    expect(dealAnswerOf(answerWith({ ...model, offer_rows: rowsOfValues }))).toBe(`hit ${model.id}: offer_rows`)
  })
})

describe("a malformed document in the products index", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
    await service.run(insertProducts(discoveryCatalog))
    await service.run(SearchSync.use((sync) => sync.syncProducts()))
    // What a stale or hand-edited index could hold: an offer without its price.
    await service.run(
      Effect.gen(function* () {
        const engine = yield* SearchEngine
        yield* engine.task("add", (client) =>
          client.index(engine.indexUid(PRODUCTS_INDEX)).addDocuments([
            {
              ...model,
              id: "malformed",
              title: ["Zqxjv Malformed Earbuds"],
              offer_rows: [rowWith(model.offer_rows[0], "price", null)],
              offer_more: [model.offer_more[0]],
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
