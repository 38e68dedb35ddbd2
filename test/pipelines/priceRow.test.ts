import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { samplesTable } from "../support/samplesTable.ts"
import { priceRowJudge, priceRowPrecheck, stagedObservation } from "../../pipelines/prices/PriceRow.ts"

// A price-history row the SQL pre-check passes is loaded by SQL without the
// Schema rule ever seeing it, so the pre-check must pass only rows the rule
// accepts, and SQL must read each as the rule's JavaScript would (the instant,
// the amount, the currency). Rows it flags are judged in JavaScript, so
// flagging a valid row costs time, never correctness. Checked on generated
// rows mixing valid values, near misses (dates Date.parse reads and DuckDB
// does not, fractions of a second past milliseconds, lower-case currencies)
// and arbitrary text, in a real (in-memory) DuckDB.
const pick = (...values: Array<string | null>) => fc.constantFrom(...values)
const text = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: "grapheme", maxLength: 20 }))
const COLUMNS = ["product_id", "observed_at", "price", "currency"] as const
type Row = Record<(typeof COLUMNS)[number], string | null>

const column: Record<keyof Row, fc.Arbitrary<string | null>> = {
  product_id: fc.oneof(
    pick(null, "", "shop:A", "x".repeat(200), "x".repeat(201), "é".repeat(150), "😀".repeat(100), "😀".repeat(101)),
    text
  ),
  observed_at: fc.oneof(
    pick(
      null,
      "2026-08-01T10:00:00Z",
      "2026-08-01T10:00:00.5Z",
      "2026-08-01T10:00:00.123Z",
      "2026-08-01T10:00:00.1234Z",
      "2026-08-01T10:00:00+02:00",
      "2026-08-01T10:00:00-05:30",
      "2026-08-01T10:00Z",
      "2026-08-01T10:00:00",
      "2026-08-01",
      "2026-02-30T00:00:00Z",
      "2026-13-01T00:00:00Z",
      "2026-08-01T24:00:00Z",
      "2026-08-01T10:00:60Z",
      "0000-01-01T00:00:00Z",
      "Aug 1 2026",
      "yesterday"
    ),
    fc
      .date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
      .map((date) => date.toISOString()),
    text
  ),
  price: fc.oneof(
    pick(
      null,
      "15.00",
      "15",
      "15.00 USD",
      "15.0000",
      "15.00000",
      "1234567890123",
      "15.00 usd",
      "15,00",
      " 15.00",
      "15.00  USD"
    ),
    text
  ),
  currency: fc.oneof(pick(null, "USD", "EUR", "usd", "US", "USDX", ""), text)
}
const valid: Row = { product_id: "shop:A", observed_at: "2026-08-01T10:00:00Z", price: "15.00", currency: "USD" }
const row = fc.record(
  Object.fromEntries(
    COLUMNS.map((c) => [
      c,
      fc.oneof(
        { arbitrary: fc.constant(valid[c]), weight: 6 },
        { arbitrary: column[c], weight: 3 },
        { arbitrary: text, weight: 1 }
      )
    ])
  )
) as fc.Arbitrary<Row>

describe("price-history row rule: SQL pre-check vs Schema", () => {
  it("passes only rows the Schema rule accepts, and SQL reads each as the rule does (with and without a default currency)", async () => {
    const samples = fc.sample(row, { numRuns: 4000, seed: 7 })
    const result = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const db = yield* samplesTable(COLUMNS, samples)
          const out = []
          for (const currency of [undefined, "EUR"]) {
            const read = stagedObservation(currency)
            const rows = yield* db.query<{
              k: number
              ok: boolean
              at: string | null
              amount: string | null
              cur: string | null
            }>(
              `SELECT k, ${priceRowPrecheck(currency)} AS ok,
                 CASE WHEN ${priceRowPrecheck(currency)} THEN strftime(${read.observedAt} AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%fZ') END AS at,
                 CASE WHEN ${priceRowPrecheck(currency)} THEN ${read.amount}::VARCHAR END AS amount,
                 CASE WHEN ${priceRowPrecheck(currency)} THEN ${read.currency} END AS cur
               FROM r ORDER BY k`
            )
            const judge = priceRowJudge(currency)
            const judged = samples.map((sample) => judge(sample))
            out.push({
              rejected: judged.filter((j) => typeof j === "string").length,
              passed: rows.filter((r) => r.ok).length,
              // passed by SQL, rejected by the rule, or read differently
              wrong: rows.flatMap((r): Array<unknown> => {
                if (!r.ok) return []
                const js = judged[r.k]
                if (typeof js === "string") return [{ row: samples[r.k], rule: js }]
                const same = // microseconds: a row SQL reads past the millisecond would differ here
                  r.at === js.observed_at.replace(/Z$/, "000Z") &&
                  Number(r.amount) === Number(js.price) &&
                  r.cur === js.currency
                return same ? [] : [{ row: samples[r.k], sql: [r.at, r.amount, r.cur], js }]
              })
            })
          }
          return out
        })
      )
    )
    for (const { rejected, passed, wrong } of result) {
      expect(wrong).toEqual([])
      expect(rejected).toBeGreaterThan(400) // the generator does produce invalid rows
      expect(passed).toBeGreaterThan(1000) // ...and rows SQL loads on its own
    }
  })
})
