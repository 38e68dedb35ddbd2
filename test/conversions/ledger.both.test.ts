import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import { ConversionLedger } from "../../conversions/ConversionLedger.ts"
import type { ConversionRecord } from "../../conversions/ConversionRecord.ts"
import { parseReport } from "../../conversions/reports/index.ts"
import { formatDecimal } from "../../domain/money/Decimal.ts"
import { Database } from "../../infra/Database.ts"
import { ledgerLayer, sampleLinksOn, sampleReport, seedSampleLinks } from "./fixtures.ts"

const records = (format: "awin" | "cj" | "impact" | "generic", file: string, currency?: string) =>
  parseReport(format, sampleReport(file), { network: format === "generic" ? "other" : format, currency }).records.map(
    (r) => r.record
  )

const row = (id: string) =>
  Effect.gen(function* () {
    const db = yield* Database
    const rows = yield* db.query<Record<string, unknown>>(
      `SELECT id, status, tracking_id, partner_id, tag, currency, order_amount::VARCHAR AS order_amount, commission::VARCHAR AS commission,
              commission_reporting::VARCHAR AS commission_reporting, revenue_share::VARCHAR AS revenue_share,
              partner_share::VARCHAR AS partner_share, platform_share::VARCHAR AS platform_share, fx_rate::VARCHAR AS fx_rate
       FROM conversions WHERE id = $1`,
      [id]
    )
    return rows[0]
  })

const count = (sql: string) =>
  Effect.gen(function* () {
    const db = yield* Database
    const rows = yield* db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${sql}`)
    return rows[0].n
  })

describe("ConversionLedger", () => {
  layer(ledgerLayer)((it) => {
    it.effect(
      "attributes, converts and splits the Awin sample; re-ingesting is idempotent; a later report reverses revenue",
      () =>
        Effect.gen(function* () {
          const db = yield* Database
          const ledger = yield* ConversionLedger
          yield* db.transaction((tx) => seedSampleLinks(tx))

          const first = yield* ledger.upsert(records("awin", "awin-transactions.json"), "awin-report")
          assert.deepStrictEqual(
            { ...first, ids: first.ids.length },
            { inserted: 6, updated: 0, unchanged: 0, stale: 0, rejected: [], ids: 6 }
          )

          // Attributed, GBP -> USD at 1.2675: 12.35 GBP = 15.653625 -> 15.65; 70% = 10.955 -> 10.96 (half-even), platform 4.69.
          assert.deepStrictEqual(yield* row("awin:412770002"), {
            id: "awin:412770002",
            status: "approved",
            tracking_id: "Qm7xK2pL9vTa",
            partner_id: 1,
            tag: "acme-deals",
            currency: "GBP",
            order_amount: "247.0000",
            commission: "12.3500",
            commission_reporting: "15.6500",
            revenue_share: "0.7000",
            partner_share: "10.9600",
            platform_share: "4.6900",
            fx_rate: "1.26750000"
          })
          // Unattributed (unknown reference and no reference): kept, platform keeps the commission.
          const unknown = yield* row("awin:412770005")
          assert.strictEqual(unknown.tracking_id, null)
          assert.strictEqual(unknown.partner_share, "0.0000")
          assert.strictEqual(unknown.platform_share, "1.3300") // 1.05 GBP = 1.330875 -> 1.33
          assert.strictEqual((yield* row("awin:412770006")).tracking_id, null)
          // Declined and deleted (-> reversed) earn nothing.
          assert.strictEqual((yield* row("awin:412770003")).partner_share, "0.0000")
          assert.strictEqual((yield* row("awin:412770004")).status, "reversed")
          assert.strictEqual((yield* row("awin:412770004")).platform_share, "0.0000")

          // The same report again: same rows, nothing rewritten, no new events.
          const again = yield* ledger.upsert(records("awin", "awin-transactions.json"), "awin-report")
          assert.deepStrictEqual([again.inserted, again.updated, again.unchanged], [0, 0, 6])
          assert.strictEqual(yield* count("conversions"), 6)
          assert.strictEqual(yield* count("conversion_events"), 6)

          // A week later: pending -> approved, approved -> declined (revenue reversed), one unchanged.
          const later = yield* ledger.upsert(records("awin", "awin-transactions-later.json"), "awin-report")
          assert.deepStrictEqual([later.inserted, later.updated, later.unchanged], [0, 2, 1])
          assert.strictEqual(yield* count("conversions"), 6)
          const reversed = yield* row("awin:412770002")
          assert.deepStrictEqual(
            [reversed.status, reversed.partner_share, reversed.platform_share],
            ["declined", "0.0000", "0.0000"]
          )
          assert.strictEqual((yield* row("awin:412770001")).status, "approved")
          const events = yield* db.query<{ previous_status: string | null; status: string }>(
            "SELECT previous_status, status FROM conversion_events WHERE conversion_id = 'awin:412770002' ORDER BY seen_at, status"
          )
          assert.deepStrictEqual(
            events.map((e) => [e.previous_status, e.status]),
            [
              [null, "approved"],
              ["approved", "declined"]
            ]
          )

          // Replaying the older report now is stale for the validated transactions and cannot roll them back.
          const replay = yield* ledger.upsert(records("awin", "awin-transactions.json"), "awin-report")
          assert.strictEqual(replay.stale, 2)
          assert.strictEqual((yield* row("awin:412770002")).status, "declined")
        })
    )

    it.effect("stores CJ corrections, other currencies and anonymous links; rejects currencies without a rate", () =>
      Effect.gen(function* () {
        const ledger = yield* ConversionLedger
        yield* sampleLinksOn("cj") // credited only to links on the reporting network's programmes
        yield* ledger.upsert(records("cj", "cj-commissions.json", "USD"), "cj-report")
        // 3081120005 corrects 3081120003 (24.83): the sale moves by -8.00, no conversion of its own
        const corrected = yield* row("cj:3081120003")
        assert.deepStrictEqual(
          [corrected.status, corrected.commission, corrected.partner_share, corrected.platform_share],
          [
            "approved",
            "16.8300",
            "13.4600", // partner 2 has an 80% share: 13.464
            "3.3700"
          ]
        )
        const db = yield* Database
        assert.deepStrictEqual(
          yield* db.query("SELECT count(*)::INTEGER AS n FROM conversions WHERE id = 'cj:3081120005'"),
          [{ n: 0 }]
        )
        // A network cannot take another network's link: the CJ report's click references credit nobody once the
        // links are on Awin again.
        yield* sampleLinksOn("awin")
        yield* ledger.upsert(
          records("cj", "cj-commissions.json", "USD")
            .filter((record) => record.correctionOf === undefined)
            .map((record) => ({ ...record, networkTxId: `${record.networkTxId}-again` })),
          "cj-report"
        )
        const elsewhere = yield* db.query<{
          tracking_id: string | null
          partner_share: string
          unattributed_reason: string | null
        }>(
          `SELECT tracking_id, partner_share::VARCHAR AS partner_share, unattributed_reason FROM conversions
           WHERE id = 'cj:3081120003-again'`
        )
        assert.deepStrictEqual(elsewhere, [
          { tracking_id: null, partner_share: "0.0000", unattributed_reason: "network_mismatch" }
        ])
        yield* sampleLinksOn("cj")
        const anonymous = yield* row("cj:3081120004") // anonymous link: attributed to the link, no partner
        assert.deepStrictEqual(
          [anonymous.tracking_id, anonymous.partner_id, anonymous.revenue_share],
          ["Ar9kP1mX7wQz", null, null]
        )
        assert.strictEqual(anonymous.platform_share, "7.2000") // the account's currency (USD) for every record

        yield* sampleLinksOn("rakuten")
        const generic = yield* ledger.upsert(records("generic", "generic-conversions.csv"), "generic-report")
        assert.deepStrictEqual(generic.rejected, [
          { index: 6, reason: "currency: no USD rate for XAU in the rate table" }
        ])
        const yen = yield* row("rakuten:RK-90001") // 790 JPY * 0.006645 = 5.24955 -> 5.25; 70% = 3.675 -> 3.68
        assert.deepStrictEqual(
          [yen.commission, yen.commission_reporting, yen.partner_share, yen.platform_share],
          ["790.0000", "5.2500", "3.6800", "1.5700"]
        )
      })
    )

    it.effect("keeps the share a conversion was attributed with when the partner's share changes later", () =>
      Effect.gen(function* () {
        const db = yield* Database
        const ledger = yield* ConversionLedger
        yield* sampleLinksOn("awin") // the Awin transaction's link is on Awin again
        yield* db.run("UPDATE partners SET revenue_share = 0.5 WHERE id = 1")
        const record: ConversionRecord = {
          network: "awin",
          networkTxId: "412770001",
          clickRef: "Qm7xK2pL9vTa",
          orderAmount: 900_000n,
          commission: 46_000n,
          currency: "GBP",
          status: "approved",
          eventAt: new Date("2026-11-02T10:14:03Z"),
          updatedAt: new Date("2026-11-20T00:00:00Z")
        }
        yield* ledger.upsert([record], "postback")
        const updated = yield* row("awin:412770001")
        assert.deepStrictEqual([updated.commission, updated.revenue_share], ["4.6000", "0.7000"])
        yield* db.run("UPDATE partners SET revenue_share = 0.7 WHERE id = 1")
      })
    )

    it.effect("a correction reported twice in one batch moves its stored conversion once", () =>
      Effect.gen(function* () {
        const ledger = yield* ConversionLedger
        const sale: ConversionRecord = {
          network: "cj",
          networkTxId: "twice-sale",
          clickRef: null,
          orderAmount: 100_0000n,
          commission: 10_0000n,
          currency: "USD",
          status: "approved",
          eventAt: new Date("2026-11-02T10:00:00Z"),
          updatedAt: new Date("2026-11-03T10:00:00Z")
        }
        yield* ledger.upsert([sale], "cj-report")
        const refund: ConversionRecord = {
          ...sale,
          networkTxId: "twice-refund",
          orderAmount: -30_0000n,
          commission: -3_0000n,
          eventAt: new Date("2026-11-04T10:00:00Z"),
          updatedAt: new Date("2026-11-04T10:00:00Z"),
          correctionOf: "twice-sale"
        }
        // The same correction listed twice (a report page read twice): the table keeps it once, so must the sale.
        yield* ledger.upsert([refund, refund], "cj-report")
        const corrected = yield* row("cj:twice-sale")
        assert.deepStrictEqual([corrected.order_amount, corrected.commission], ["70.0000", "7.0000"])
        // The original reported again is corrected by the stored correction to the same amounts.
        yield* ledger.upsert([sale], "cj-report")
        const again = yield* row("cj:twice-sale")
        assert.deepStrictEqual([again.order_amount, again.commission], ["70.0000", "7.0000"])
      })
    )
  })

  layer(ledgerLayer)((it) => {
    it.effect("attributes a conversion later when its tracking link turns up, keeping its source", () =>
      Effect.gen(function* () {
        const db = yield* Database
        const ledger = yield* ConversionLedger
        yield* ledger.upsert(records("awin", "awin-transactions.json"), "awin-report")
        assert.strictEqual((yield* row("awin:412770002")).tracking_id, null) // links not there yet
        assert.strictEqual(yield* ledger.reattribute(), 0)
        yield* db.transaction((tx) => seedSampleLinks(tx))
        assert.strictEqual(yield* ledger.reattribute(), 4) // 412770001/2 (Qm7x..), 3 (Hn4c..), 4 (Bd6f..); 5 and 6 stay unattributed
        const attributed = yield* row("awin:412770002")
        assert.deepStrictEqual(
          [attributed.tracking_id, attributed.partner_share, attributed.platform_share],
          ["Qm7xK2pL9vTa", "10.9600", "4.6900"]
        )
        assert.strictEqual((yield* row("awin:412770005")).tracking_id, null)
        const [{ source }] = yield* db.query<{ source: string }>(
          "SELECT source FROM conversions WHERE id = 'awin:412770002'"
        )
        assert.strictEqual(source, "awin-report")
        assert.strictEqual(yield* ledger.reattribute(), 0)
      })
    )
  })

  // Property over the database: many random conversions through the ledger,
  // summed by DuckDB's DECIMAL arithmetic, split exactly.
  layer(ledgerLayer)((it) => {
    it.effect("partner + platform sums equal the reporting commission exactly over random conversions", () =>
      Effect.gen(function* () {
        const db = yield* Database
        const ledger = yield* ConversionLedger
        yield* db.transaction((tx) => seedSampleLinks(tx, "prop"))
        const conversion = fc.record({
          cents: fc.bigInt({ min: 0n, max: 5_000_000n }),
          currency: fc.constantFrom("USD", "EUR", "GBP", "JPY", "SEK"),
          status: fc.constantFrom("pending", "approved", "declined", "reversed") as fc.Arbitrary<
            ConversionRecord["status"]
          >,
          ref: fc.constantFrom("Qm7xK2pL9vTa", "Bd6fJ3tN5gUe", "Ar9kP1mX7wQz", "unknown", null)
        })
        const sample = fc.sample(fc.array(conversion, { minLength: 2000, maxLength: 2000 }), {
          numRuns: 1,
          seed: 42
        })[0]
        const batch: Array<ConversionRecord> = sample.map((c, i) => ({
          network: "prop",
          networkTxId: String(i),
          clickRef: c.ref,
          orderAmount: c.cents * 1000n,
          commission: c.cents * 100n,
          currency: c.currency,
          status: c.status,
          eventAt: new Date("2026-11-01T00:00:00Z"),
          updatedAt: null
        }))
        const result = yield* ledger.upsert(batch, "property")
        assert.strictEqual(result.inserted, 2000)
        const [sums] = yield* db.query<Record<string, string>>(
          `SELECT sum(commission_reporting) FILTER (WHERE status IN ('pending','approved'))::VARCHAR AS earning,
                  sum(partner_share)::VARCHAR AS partner, sum(platform_share)::VARCHAR AS platform,
                  count(*) FILTER (WHERE partner_share + platform_share <> commission_reporting AND status IN ('pending','approved'))::VARCHAR AS broken,
                  count(*) FILTER (WHERE (partner_share * 100) <> floor(partner_share * 100))::VARCHAR AS fractional
           FROM conversions WHERE network_id = 'prop'`
        )
        assert.strictEqual(sums.broken, "0")
        assert.strictEqual(sums.fractional, "0")
        const total = (text: string) => BigInt(text.replace(".", ""))
        assert.strictEqual(total(sums.partner) + total(sums.platform), total(sums.earning))
        assert.notStrictEqual(formatDecimal(total(sums.partner)), "0.0000")
      })
    )
  })
})

describe("ConversionLedger limits", () => {
  layer(ledgerLayer)((it) => {
    it.effect("rejects an amount that would overflow DECIMAL(18,4) once converted, and stores the rest", () =>
      Effect.gen(function* () {
        const ledger = yield* ConversionLedger
        const base = {
          network: "x",
          clickRef: null,
          currency: "USD",
          status: "pending" as const,
          eventAt: new Date("2026-11-01T00:00:00Z"),
          updatedAt: null
        }
        const result = yield* ledger.upsert(
          [
            { ...base, networkTxId: "ok", orderAmount: 1_0000n, commission: 1000n },
            { ...base, networkTxId: "huge", currency: "GBP", orderAmount: 99_999_999_999_999_0000n, commission: 1000n }
          ],
          "test"
        )
        assert.strictEqual(result.inserted, 1)
        assert.deepStrictEqual(result.rejected, [{ index: 1, reason: "order_amount: too large once converted to USD" }])
      })
    )
  })
})
