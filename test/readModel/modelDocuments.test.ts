import { describe, expect, it } from "vitest"
import { documentId, type ProductDocument } from "../../readModel/documents.ts"
import { modelDocument, modelDocuments, modelHitOf, offerDocument } from "../../readModel/modelDocuments.ts"
import {
  DEAL_OFFER_FIELDS,
  dealOfferRow,
  MORE_OFFER_FIELDS,
  moreOfferRow,
  offerTexts,
  type OfferFields
} from "../../readModel/offerRows.ts"
import { cheapestOfferByCurrency, offerFor, offerMatches, priceChoice } from "../../readModel/offerFilter.ts"
import { offerFixture } from "../support/offerFixture.ts"

// Model documents and the offer a search shows, on plain values.

const offer = (item: string, overrides: Partial<ProductDocument> = {}): ProductDocument =>
  offerFixture(documentId(`feed:${item}`), { product_id: `feed:${item}`, color: "Black", size: null, ...overrides })

const walmart = offer("w", { price: 69.99 })
const target = offer("t", {
  store: "Target",
  title: "Liberty 4 NC Wireless Earbuds, White",
  color: "White",
  price: 74.99,
  reference_price: 99.99,
  discount: 25,
  is_deal: true,
  deal_score: 40,
  description: "White noise cancelling earbuds for running."
})
const argos = offer("a", {
  store: "Argos",
  currency: "GBP",
  price: 59,
  color: "Navy",
  title: "Liberty 4 NC Wireless Earbuds, Navy"
})
const gone = offer("o", { store: "Best Buy", price: 49.99, availability: "out_of_stock", in_stock: false })
const model = modelDocument([walmart, gone, argos, target])
/** The deal-row fields that hold text, stored as an index in the model's offer_strings. */
const TEXT_FIELDS = new Set<string>([
  "id",
  "title",
  "brand",
  "category",
  "product_type",
  "store",
  "store_domain",
  "image",
  "currency",
  "availability",
  "reference_observed_at",
  "price_checked_at"
])
/** The model as a search reads it back (offers as objects again). */
const hit = modelHitOf(model)

describe("model documents", () => {
  it("carry every offer, best first: in stock, then the deepest verified saving, then the lowest price", () => {
    expect(hit.offer_list.map((o) => o.id)).toEqual([target.id, argos.id, walmart.id, gone.id])
    expect(model).toMatchObject({
      model_key: "model:liberty 4 nc wireless earbuds",
      offers: 4,
      stores: 4,
      price_min: { USD: 49.99, GBP: 59 },
      price_max: { USD: 74.99, GBP: 59 },
      colors: ["White", "Navy", "Black"],
      sizes: [],
      in_stock: [true, false],
      offer_ids: [target.id, argos.id, walmart.id, gone.id]
    })
    // an embedded offer reads back as the offer document it was
    expect(offerDocument(model, hit.offer_list[0])).toEqual(target)
    expect(offerDocument(model, hit.offer_list[2])).toEqual(walmart)
  })

  it("store each offer as two rows of values: what a Deal search reads (its JSON text, texts once per model), and the rest", () => {
    const rows = model.offer_rows.map((text) => JSON.parse(text) as Array<unknown>)
    const texts = (row: ReadonlyArray<unknown>) =>
      row.map((value, at) =>
        TEXT_FIELDS.has(DEAL_OFFER_FIELDS[at]) && value !== null ? model.offer_strings[value as number] : value
      )
    expect(texts(rows[0])).toEqual(
      DEAL_OFFER_FIELDS.map((field) => (field === "description_at" ? 0 : target[field as keyof typeof target]))
    )
    expect(texts(rows[2])).toEqual(
      DEAL_OFFER_FIELDS.map((field) => (field === "description_at" ? 1 : walmart[field as keyof typeof walmart]))
    )
    // the four offers share a brand, a category path and a currency: each is stored once
    expect(new Set(model.offer_strings).size).toBe(model.offer_strings.length)
    expect(model.offer_strings.filter((text) => text === target.brand)).toHaveLength(1)
    const brandAt = DEAL_OFFER_FIELDS.indexOf("brand")
    expect(new Set(rows.map((row) => row[brandAt]))).toEqual(new Set([model.offer_strings.indexOf(target.brand!)]))
    expect(model.offer_more[0]).toEqual(MORE_OFFER_FIELDS.map((field) => target[field] ?? null))
    expect(model.offer_rows).toHaveLength(4)
    expect(model.offer_more).toHaveLength(4)
    expect(Object.keys(model)).not.toContain("offer_list")
  })

  it("write each offer's rows in the field lists' order (every value distinct, so a swap shows)", () => {
    const fields = [...DEAL_OFFER_FIELDS, ...MORE_OFFER_FIELDS].filter((field) => field !== "description_at")
    const distinctValues = Object.fromEntries(
      fields.map((field, i) => [field, field === "in_stock" ? true : field === "is_deal" ? false : `${field}-${i}`])
    ) as unknown as OfferFields
    const { strings, index } = offerTexts()
    const row = dealOfferRow(distinctValues, 7, index)
    const textFields = DEAL_OFFER_FIELDS.filter((field) => TEXT_FIELDS.has(field))
    expect(strings).toEqual(textFields.map((field) => distinctValues[field as keyof OfferFields]))
    expect(row).toEqual(
      DEAL_OFFER_FIELDS.map((field) =>
        field === "description_at"
          ? 7
          : TEXT_FIELDS.has(field)
            ? textFields.indexOf(field)
            : distinctValues[field as keyof OfferFields]
      )
    )
    expect(moreOfferRow(distinctValues)).toEqual(MORE_OFFER_FIELDS.map((field) => distinctValues[field]))
    const { color: _color, size: _size, ...bare } = distinctValues
    expect(moreOfferRow(bare)).toEqual(
      MORE_OFFER_FIELDS.map((field) => (field === "color" || field === "size" ? null : distinctValues[field]))
    )
  })

  it("group offers by model key", () => {
    const other = offer("x", { group_key: "gtin:123", title: "Other" })
    const models = modelDocuments([walmart, other, target])
    expect(models.map((m) => [m.model_key, m.offers])).toEqual([
      ["model:liberty 4 nc wireless earbuds", 2],
      ["gtin:123", 1]
    ])
  })
})

describe("the offer a model shows", () => {
  const shown = (filter: string | undefined, sort?: Array<string>, q = "") => offerFor(hit, filter, sort, q)?.store

  it("is the best offer without a filter, and the best matching one with a filter", () => {
    expect(shown(undefined)).toBe("Target")
    expect(shown(`store = "Walmart"`)).toBe("Walmart")
    expect(shown(`currency = "GBP" AND in_stock = true`)).toBe("Argos")
    expect(shown(`price <= 70 AND currency = "USD" AND in_stock = true`)).toBe("Walmart")
    expect(shown(`categories IN ["Earbuds", "Running"] AND store = "Argos"`)).toBe("Argos")
  })

  it("follows a price or deal sort", () => {
    expect(shown(`currency = "USD"`, ["price:asc"])).toBe("Best Buy")
    expect(shown(`in_stock = true`, ["price:asc"])).toBe("Argos")
    expect(shown(undefined, ["deal_score:desc"])).toBe("Target")
  })

  it("prefers the offer that names the query's words", () => {
    expect(shown(`in_stock = true`, undefined, "navy earbuds")).toBe("Argos")
  })

  it("is none when the filter's clauses were met by different offers, or the words only by an excluded offer", () => {
    // Argos sells in GBP, Walmart is under 60 only out of stock: no single in-stock offer is a GBP Walmart one
    expect(shown(`store = "Walmart" AND currency = "GBP"`)).toBeUndefined()
    expect(shown(`price <= 50 AND in_stock = true`)).toBeUndefined()
    // "running" is only in Target's description; Target is not in GBP
    expect(shown(`currency = "GBP"`, undefined, "running")).toBeUndefined()
  })

  it("reads the filter expressions the service writes", () => {
    expect(offerMatches(argos, `brand IN ["anker", "Sony"]`)).toBe(true)
    expect(offerMatches(argos, `store != "Argos"`)).toBe(false)
    expect(offerMatches(argos, `title = "A \\"quoted\\" AND tricky"`)).toBe(false)
    expect(offerMatches(argos, `price > 58 AND price < 60 AND is_deal = false`)).toBe(true)
  })
})

describe("each currency's cheapest offer in one pass", () => {
  // offers in three currencies; words named by titles, by a description only, or by an excluded offer
  const euro = offer("e", { store: "MediaMarkt", currency: "EUR", price: 64, title: "Liberty 4 NC Earbuds, Black" })
  const euroDeal = offer("d", {
    store: "Saturn",
    currency: "EUR",
    price: 61,
    color: "White",
    title: "Liberty 4 NC Earbuds, White",
    description: "Running earbuds, sweatproof."
  })
  const euroGone = offer("g", {
    store: "Otto",
    currency: "EUR",
    price: 39,
    in_stock: false,
    availability: "out_of_stock"
  })
  const pounds = offer("p", { store: "Currys", currency: "GBP", price: 55, color: "Navy", title: "Earbuds Navy" })
  const many = modelHitOf(modelDocument([walmart, gone, argos, target, euro, euroDeal, euroGone, pounds]))

  const filters = [
    undefined,
    "in_stock = true",
    `price <= 70 AND in_stock = true`,
    `store = "Argos"`,
    `currency = "USD"`
  ]
  const phrases = ["", "earbuds", "running", "navy earbuds", "white running", "sweatproof navy", "nothing"]

  it("is what offerFor answers with each currency's clause, price first, for every filter and phrase", () => {
    let compared = 0
    for (const filter of filters)
      for (const q of phrases) {
        const chosen = cheapestOfferByCurrency(many, filter, q)
        expect([...chosen.keys()].sort()).toEqual(["EUR", "GBP", "USD"])
        for (const [currency, found] of chosen) {
          const inCurrency = [filter, `currency = ${JSON.stringify(currency)}`].filter(Boolean).join(" AND ")
          expect(found?.id, `${filter} / ${q} / ${currency}`).toBe(offerFor(many, inCurrency, ["price:asc"], q)?.id)
          compared++
        }
      }
    expect(compared).toBe(filters.length * phrases.length * 3)
  })

  it("answers the cheapest offer meeting the filter in any currency as offerFor does under a price sort", () => {
    for (const filter of filters)
      for (const q of phrases)
        expect(priceChoice(many, filter, q).cheapest()?.id, `${filter} / ${q}`).toBe(
          offerFor(many, filter, ["price:asc"], q)?.id
        )
    expect(priceChoice(many, "in_stock = true", "earbuds").cheapest()?.store).toBe("Currys")
  })

  it("picks the cheapest offer naming the most words, and none where only an excluded offer names them", () => {
    const chosen = cheapestOfferByCurrency(many, "in_stock = true", "running")
    // Saturn's description names "running"; Target's too; in GBP no offer names it
    expect(chosen.get("EUR")?.store).toBe("Saturn")
    expect(chosen.get("USD")?.store).toBe("Target")
    expect(chosen.get("GBP")).toBeUndefined()
    expect(cheapestOfferByCurrency(many, "in_stock = true", "").get("EUR")?.store).toBe("Saturn")
  })
})
