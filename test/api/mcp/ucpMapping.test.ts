import { describe, expect, it } from "vitest"
import { filterExpressions, matchesFilters } from "../../../api/mcp/ucp/filters.ts"
import { offerMessages } from "../../../api/mcp/ucp/answerMessages.ts"
import { ucpPrice, ucpProduct } from "../../../api/mcp/ucp/products.ts"
import { modelDocumentId } from "../../../readModel/modelDocuments.ts"
import { offerFixture } from "../../support/offerFixture.ts"
import { conforms } from "./ucpConformance.ts"

// The document -> UCP mapping on plain values: prices in minor units, one
// product per model, the strikethrough only against our own reference.

const offer = offerFixture

const options = { base: "https://deals.example", tag: "acme" }
const EXT = "com.affiliate_commerce.offer"

describe("UCP mapping", () => {
  it("prices are integers in the currency's minor units", () => {
    expect(ucpPrice(129.99, "USD")).toEqual({ amount: 12999, currency: "USD" })
    expect(ucpPrice(0.1 + 0.2, "EUR")).toEqual({ amount: 30, currency: "EUR" })
    expect(ucpPrice(1500, "JPY")).toEqual({ amount: 1500, currency: "JPY" })
    expect(ucpPrice(1.234, "KWD")).toEqual({ amount: 1234, currency: "KWD" })
  })

  it("one product per model: offers are variants with tracked links, the price range spans them", () => {
    const product = ucpProduct(
      [
        offer("a"),
        offer("b", { store: "Target", price: 74.5, title: "Liberty 4 NC Wireless Earbuds, Navy" }),
        offer("c", { store: "Amazon", store_domain: "amazon.com", price: 89 })
      ],
      options
    )
    conforms("product", product)
    // the model's id (md5 of its group key), whichever offer is featured; its url our landing page of the model
    expect(product.id).toBe(`prod_${modelDocumentId("model:liberty 4 nc wireless earbuds")}`)
    expect(product.url).toBe(`https://deals.example/deals/${product.id}`)
    expect(product.price_range).toEqual({
      min: { amount: 7450, currency: "USD" },
      max: { amount: 8900, currency: "USD" }
    })
    expect(product.variants.map((variant) => [variant.id, variant.seller.name])).toEqual([
      ["a", "Walmart"],
      ["b", "Target"],
      ["c", "Amazon"]
    ])
    expect(product.variants[0].url).toMatch(/^https:\/\/deals\.example\/t\/f\.[A-Za-z0-9_-]+\.acme$/)
    expect(product.metadata[EXT]).toMatchObject({ offers: 3, stores: 3 })
    // the offer's own title only where it says more than the product's
    expect(product.variants.map((variant) => variant.title)).toEqual([
      "Walmart",
      "Liberty 4 NC Wireless Earbuds, Navy (Target)",
      "Amazon"
    ])
  })

  it("lists at most maxVariants offers and counts them all; the range still spans every offer", () => {
    const product = ucpProduct([offer("a"), offer("b", { price: 50 }), offer("c", { price: 99 })], options, 1)
    expect(product.variants.map((variant) => variant.id)).toEqual(["a"])
    expect(product.metadata[EXT].offers).toBe(3)
    expect(product.price_range.min.amount).toBe(5000)
  })

  it("a strikethrough only against our own 30-day reference, never the store's 'was' price", () => {
    const [verified, claimOnly] = ucpProduct(
      [
        offer("a", {
          price: 60,
          reference_price: 80,
          reference_observed_at: "2026-11-01",
          reference_kind: "full",
          discount: 25
        }),
        offer("b", { price: 60, feed_was_price: 120 })
      ],
      options
    ).variants
    expect(verified.list_price).toEqual({ amount: 8000, currency: "USD" })
    expect(verified.metadata?.[EXT].verified_discount).toEqual({ percent: 25, observed_at: "2026-11-01" })
    expect(claimOnly.list_price).toBeUndefined()
    expect(claimOnly.metadata).toBeUndefined()
  })

  it("the summary view carries what an agent acts on; the full view adds each offer's details", () => {
    const offers = [offer("a", { price: 60, feed_was_price: 120 })]
    const [summary] = ucpProduct(offers, options).variants
    expect(Object.keys(summary).sort()).toEqual([
      "availability",
      "condition",
      "description",
      "id",
      "price",
      "seller",
      "title",
      "url"
    ])
    expect(summary.seller).toEqual({ name: "Walmart" })
    const full = ucpProduct(offers, options, 1, "full")
    conforms("product", full)
    const [detail] = full.variants
    expect(detail.description.plain).toBe(offers[0].description)
    expect(detail.metadata![EXT].store_was_price_unverified).toEqual({ amount: 12000, currency: "USD" })
    expect(detail.metadata![EXT].assistant_instructions).toContain("Do not describe this product as discounted")
    expect(detail.metadata![EXT].assistant_instructions).not.toMatch(/links\.tracked|originalPrice|couponCode/)
    expect(detail.metadata![EXT].buying_checks!.length).toBeGreaterThan(3)
    expect(detail.metadata![EXT].landing_page).toMatch(/^https:\/\/deals\.example\/deals\//)
  })

  it("the summary view says no option value twice: a title adding only the offer's colour or size is its store", () => {
    const product = ucpProduct(
      [
        offer("a", { title: "Liberty 4 NC Wireless Earbuds, Black", color: "Black" }),
        offer("b", { store: "Target", title: "Liberty 4 NC Wireless Earbuds - Navy", color: "Navy" }),
        offer("c", { store: "Amazon", title: "Liberty 4 NC Wireless Earbuds, Navy (Renewed)", color: "Navy" })
      ],
      options
    )
    conforms("product", product)
    expect(product.options).toEqual([{ name: "Color", values: [{ label: "Black" }, { label: "Navy" }] }])
    expect(product.variants.map((variant) => [variant.title, variant.options])).toEqual([
      ["Walmart", [{ name: "Color", label: "Black" }]],
      ["Target", [{ name: "Color", label: "Navy" }]],
      // "Renewed" is on no axis: the offer's own title says it
      ["Liberty 4 NC Wireless Earbuds, Navy (Renewed) (Amazon)", [{ name: "Color", label: "Navy" }]]
    ])
  })

  it("the summary view gives availability's status only when it qualifies available; the full view always", () => {
    const offers = [
      offer("a"),
      offer("b", { availability: "preorder" }),
      offer("c", { availability: "out_of_stock", in_stock: false })
    ]
    expect(ucpProduct(offers, options).variants.map((variant) => variant.availability)).toEqual([
      { available: true },
      { available: true, status: "preorder" },
      { available: false, status: "out_of_stock" }
    ])
    expect(ucpProduct(offers, options, 3, "full").variants[0].availability).toEqual({
      available: true,
      status: "in_stock"
    })
  })

  it("the summary view's description leaves out the title it starts with; the full view keeps it whole", () => {
    const description = "Liberty 4 NC Wireless Earbuds, Black. Noise cancelling earbuds."
    const offers = [offer("a", { description })]
    expect(ucpProduct(offers, options).description).toEqual({ plain: "Noise cancelling earbuds." })
    expect(ucpProduct(offers, options, 1, "full").description).toEqual({ plain: description })
    // only a whole title, and never down to nothing
    const longer = "Liberty 4 NC Wireless Earbuds, Blackened steel case."
    expect(ucpProduct([offer("a", { description: longer })], options).description.plain).toBe(longer)
    const onlyTitle = "Liberty 4 NC Wireless Earbuds, Black."
    expect(ucpProduct([offer("a", { description: onlyTitle })], options).description.plain).toBe(onlyTitle)
  })

  it("the disclosure is one warning per answer, with Amazon's sentence when an Amazon offer is in it", () => {
    const messages = offerMessages([offer("a"), offer("c", { store: "Amazon", store_domain: "amazon.com" })])
    const disclosures = messages.filter((message) => message.type === "warning")
    expect(disclosures).toEqual([
      {
        type: "warning",
        code: "affiliate_disclosure",
        presentation: "disclosure",
        content: expect.stringContaining("As an Amazon Associate")
      }
    ])
    expect(offerMessages([])).toEqual([])
  })

  it("filters become Meilisearch expressions; only in-stock offers unless availability is asked for", () => {
    expect(
      filterExpressions({ categories: ["Earbuds", 'TV "4K"'], price: { min: 1000, max: 15000 } }, { currency: "USD" })
    ).toEqual([
      'categories IN ["Earbuds", "TV \\"4K\\""]',
      "price >= 10",
      "price <= 150",
      'currency = "USD"',
      "in_stock = true"
    ])
    expect(filterExpressions({ availability: ["backorder"] }, undefined)).toEqual(['availability IN ["backorder"]'])
    expect(filterExpressions(undefined, { currency: "JPY" }).slice(0, 1)).toEqual(['currency = "JPY"'])
  })

  it("the same filters on one document", () => {
    const doc = offer("a")
    expect(matchesFilters(doc, { categories: ["earbuds"] }, undefined)).toBe(true)
    expect(matchesFilters(doc, { categories: ["Laptops"] }, undefined)).toBe(false)
    expect(matchesFilters(doc, { brand: ["ANKER"], price: { max: 7999 } }, undefined)).toBe(true)
    expect(matchesFilters(doc, { price: { max: 7998 } }, undefined)).toBe(false)
    expect(matchesFilters(doc, undefined, { currency: "EUR" })).toBe(false)
    expect(
      matchesFilters(
        offer("b", { availability: "out_of_stock", in_stock: false }),
        { availability: ["in_stock"] },
        undefined
      )
    ).toBe(false)
  })
})
