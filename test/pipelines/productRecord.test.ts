import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { samplesTable } from "../support/samplesTable.ts"
import { productRecordValidator, sqlPrecheck } from "../../pipelines/products/ProductRecord.ts"
import { STAGED_COLUMNS, type StagedRecord } from "../../pipelines/products/stagedColumns.ts"

// The vectorised SQL pre-check admits rows without asking the Schema rule, so
// it must flag every row the rule would reject; and it should flag nothing else, since a flagged
// row is fetched into JS and judged one by one. Checked on generated records mixing valid
// values, near misses and arbitrary text, in a real (in-memory) DuckDB.
const pick = (...values: Array<string | null>) => fc.constantFrom(...values)
const text = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: "grapheme", maxLength: 20 }))
const long = (n: number) => "x".repeat(n)
const column: Record<string, fc.Arbitrary<string | null>> = {
  id: fc.oneof(pick(null, "A1", long(50), long(51), "é".repeat(50), "😀".repeat(26)), text),
  title: fc.oneof(pick(null, "Mug", long(500), long(501), "😀".repeat(251)), text),
  description: fc.oneof(pick(null, "d", long(10_000), long(10_001)), text),
  link: fc.oneof(
    pick(
      null,
      "https://a.example/x?y=1",
      "http://a",
      "HTTP://a.example",
      "ftp://a.example",
      "https://a b",
      "https://",
      "https:///x",
      "https://a.example/\u00a0x",
      "https://a.example/\tx",
      "https://a.example/x\n",
      "https://a.example/x\r",
      "https://?x",
      "https://#",
      "http://a.example/ü",
      "https://a.example/ x"
    ),
    text
  ),
  image_link: fc.oneof(pick(null, "https://img.example/1.jpg", "img.jpg", "https://a b"), text),
  gtin: fc.oneof(pick(null, "12345678", "1234567", "123456789012345", "0123456789012", "12345678a", "١٢٣٤٥٦٧٨"), text),
  store: fc.oneof(pick(null, "Shop"), text),
  price: fc.oneof(
    pick(
      null,
      "10.00 USD",
      "10 USD",
      "10.00",
      "10.12345 USD",
      "1e5 USD",
      "-5 USD",
      "10.00 usd",
      "999999999999.9999 USD",
      "9999999999999 USD",
      "10,00 EUR",
      " 10.00 USD",
      "10.00 USD ",
      "١٠ USD"
    ),
    text
  ),
  sale_price: fc.oneof(pick(null, "8.00 USD", "8 USD", "free"), text),
  sale_price_effective_date: fc.oneof(
    pick(
      null,
      "2020-01-01/2020-02-01",
      "2016-02-24T11:07+0100/2016-02-29T23:07+0100",
      "2020-01-01T00:00:00.5Z/2020-01-02",
      "2020-01-01",
      "2020-1-1/2020-2-1"
    ),
    text
  ),
  availability: fc.oneof(
    pick(
      null,
      "in_stock",
      "in stock",
      "IN STOCK",
      "Out_Of_Stock",
      "preorder",
      "sometimes",
      "ın stock",
      "İN_STOCK",
      "bac\u212Aorder",
      "in_stock "
    ),
    text
  ),
  condition: fc.oneof(pick(null, "new", "Used", "REFURBISHED", "broken", "ǹew"), text),
  was_price: fc.oneof(pick(null, "12.00", "0.00", "x"), text),
  currency: fc.oneof(pick(null, "USD", "usd", "US", "USDX"), text),
  color: fc.oneof(pick(null, "Black", long(100), long(101), "😀".repeat(51)), text),
  size: fc.oneof(pick(null, "10.5", "UK 9", long(100), long(101)), text),
  item_group_id: fc.oneof(pick(null, "G-1", long(50), long(51), "é".repeat(51)), text)
}
// Mostly a valid value, sometimes a near miss or arbitrary text: so about one record in ten is valid.
const valid: Record<string, string | null> = {
  id: "A1",
  title: "Mug",
  description: null,
  link: "https://a.example/x",
  image_link: null,
  gtin: null,
  store: "Shop",
  price: "10.00 USD",
  sale_price: null,
  sale_price_effective_date: null,
  availability: "in_stock",
  condition: null,
  was_price: null,
  currency: null,
  color: null,
  size: null,
  item_group_id: null
}
const field = (c: string) =>
  fc.oneof(
    { arbitrary: fc.constant(c in valid ? valid[c] : "v"), weight: 14 },
    { arbitrary: column[c] ?? pick(null, "v"), weight: 1 },
    { arbitrary: text, weight: 1 }
  )
const record = fc.record(Object.fromEntries(STAGED_COLUMNS.map((c) => [c, field(c)]))) as fc.Arbitrary<StagedRecord>

describe("product record rule: SQL pre-check vs Schema", () => {
  it("flags exactly the records the Schema rule rejects (with and without a default currency)", async () => {
    const samples = fc.sample(record, { numRuns: 4000, seed: 42 })
    const result = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const db = yield* samplesTable(STAGED_COLUMNS, samples)
          const out: Array<{
            currency: string | null
            zodRejects: number
            sqlMisses: Array<unknown>
            validFlagged: Array<unknown>
          }> = []
          for (const currency of [null, "EUR"]) {
            const rows = yield* db.query<{ k: number; ok: boolean }>(
              `SELECT k, coalesce(${sqlPrecheck(currency)}, false) AS ok FROM r ORDER BY k`
            )
            const validate = productRecordValidator(currency)
            const misses = rows
              .filter((row) => row.ok && validate(samples[row.k]) !== undefined)
              .map((row) => samples[row.k])
            out.push({
              currency,
              zodRejects: samples.filter((s) => validate(s) !== undefined).length,
              sqlMisses: misses,
              validFlagged: rows
                .filter((row) => !row.ok && validate(samples[row.k]) === undefined)
                .map((row) => samples[row.k])
            })
          }
          return out
        })
      )
    )
    for (const { zodRejects, sqlMisses, validFlagged } of result) {
      expect(sqlMisses).toEqual([])
      // ...and no more: every flagged row is fetched into JS, so the cheap spellings must stay exact
      expect(validFlagged).toEqual([])
      expect(zodRejects).toBeGreaterThan(100) // the generator does produce invalid records
      expect(zodRejects).toBeLessThan(4000) // ...and valid ones
    }
  })
})
