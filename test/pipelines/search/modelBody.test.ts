import { describe, expect, it } from "vitest"
import { byteLines } from "../../../pipelines/search/fileText.ts"
import { modelDocumentsBody } from "../../../pipelines/search/modelBody.ts"
import { productDocument, type ProductRow } from "../../../readModel/documents.ts"
import { modelDocuments } from "../../../readModel/modelDocuments.ts"

// The sync worker builds a batch's body model by model (modelBody.ts); what
// Meilisearch receives must be byte for byte what one JSON.stringify of every
// model document of the batch gives.

const FIXED_NOW = new Date("2026-03-01T12:00:00Z")
/** Text the body must carry through: quotes, backslashes, line breaks, non-Latin-1 and non-BMP characters. */
const AWKWARD = `Say "hi" \\ back\nCafé 日本語 😀 €`

const row = (id: string, model: string, overrides: Partial<ProductRow> = {}): ProductRow => ({
  id: `feed:${id}`,
  feed: "feed",
  title: `${model} title`,
  description: `About ${model}`,
  link: `https://shop.example/${id}`,
  image_link: null,
  brand: "Brand",
  gtin: null,
  category: "Electronics",
  product_type: "Audio > Headphones",
  store: "Shop",
  store_domain: "shop.example",
  currency: "USD",
  price: 100,
  current_price: 90,
  feed_was_price: null,
  availability: "in_stock",
  condition: "new",
  color: "Black",
  size: null,
  countries: "US",
  model_key: model,
  updated_at: new Date("2026-02-28T00:00:00Z"),
  since: null,
  first_at: new Date("2026-01-01T00:00:00Z"),
  ref_price: null,
  ref_at: null,
  ref_days: null,
  low90: null,
  ...overrides
})

const rows: ReadonlyArray<ProductRow> = [
  row("a1", "model-a"),
  row("a2", "model-a", { store: "Other", current_price: 80, description: AWKWARD }),
  row("b1", "model-b", { title: AWKWARD, currency: "EUR" }),
  row("c1", "model-c"),
  row("c2", "model-c", { availability: "out_of_stock" }),
  row("c3", "model-c", { color: "White" })
]

const reference = (batch: ReadonlyArray<ProductRow>) =>
  new TextEncoder().encode(JSON.stringify(modelDocuments(batch.map((each) => productDocument(each, FIXED_NOW)))))

describe("a batch's body, model by model", () => {
  it("is byte for byte the body of every model document at once", () => {
    const { body, documents } = modelDocumentsBody(rows, FIXED_NOW)
    expect(documents).toBe(3)
    expect(Buffer.from(body).equals(Buffer.from(reference(rows)))).toBe(true)
    expect((JSON.parse(Buffer.from(body).toString("utf8")) as Array<{ offers: number }>).map((m) => m.offers)).toEqual([
      2, 1, 3
    ])
  })

  it("is an empty array for no rows, and one document for one row", () => {
    expect(Buffer.from(modelDocumentsBody([], FIXED_NOW).body).toString("utf8")).toBe("[]")
    const one = modelDocumentsBody([rows[2]], FIXED_NOW)
    expect(one.documents).toBe(1)
    expect(Buffer.from(one.body).equals(Buffer.from(reference([rows[2]])))).toBe(true)
  })

  it("grows its buffer as the documents come, past any size hint, and keeps every byte", () => {
    const many = Array.from({ length: 300 }, (_, i) =>
      row(`m${i}`, `model-${Math.floor(i / 3)}`, { title: `${AWKWARD} ${i}` })
    )
    for (const hint of [0, 100, 1 << 20]) {
      const { body, documents } = modelDocumentsBody(many, FIXED_NOW, hint)
      expect(documents).toBe(100)
      expect(Buffer.from(body).equals(Buffer.from(reference(many)))).toBe(true)
    }
  })

  it("fails on a model whose rows are not consecutive, rather than sending it as two documents", () => {
    expect(() => modelDocumentsBody([rows[0], rows[2], rows[1]], FIXED_NOW)).toThrow(
      "model model-a: its rows are not consecutive in the batch file"
    )
  })
})

describe("a batch file's lines, from its bytes", () => {
  it("are decoded one by one, multi-byte characters whole, empty lines skipped", () => {
    const text = `{"a":"${AWKWARD.replace("\n", "\\n")}"}\n\n{"b":"日本語 😀"}\n{"c":1}`
    expect([...byteLines(Buffer.from(text, "utf8"))]).toEqual(text.split("\n").filter((line) => line !== ""))
    expect([...byteLines(Buffer.alloc(0))]).toEqual([])
  })
})
