import { afterAll, assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { writeFileSync } from "node:fs"
import { gzipSync } from "node:zlib"
import { ConversionReportLoader } from "../../conversions/ConversionReportLoader.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Database } from "../../infra/Database.ts"
import { feedDefinition } from "../../pipelines/FeedConfig.ts"
import { testDatabaseLayer } from "../support/testDatabase.ts"
import { tempDir } from "../support/TestService.ts"
import { sampleReport, seedSampleLinks } from "./fixtures.ts"

const temp = tempDir("conv-loader-")
afterAll(temp.rm)
const env = testDatabaseLayer().pipe(Layer.provideMerge(AppConfig.layerWith({ dataDir: temp.dir })))
const sampleFile = (name: string) => new URL(`../../data/samples/reports/${name}`, import.meta.url).pathname

const run = (feed: Parameters<typeof feedDefinition>[0], file: string, runId: string, gzip = false) =>
  Effect.gen(function* () {
    const loader = yield* ConversionReportLoader
    return yield* loader.load({ feed: feedDefinition(feed), runId, file, gzip, progress: () => {} }).pipe(Effect.result)
  })

const rejected = (runId: string) =>
  Effect.gen(function* () {
    const db = yield* Database
    const rows = yield* db.query<{ line: number; reason: string }>(
      "SELECT line::INTEGER AS line, reason FROM rejected_rows WHERE run_id = $1 ORDER BY line",
      [runId]
    )
    return rows.map((row) => [row.line, row.reason.split(":")[0]])
  })

describe("conversions feed kind", () => {
  layer(env)((it) => {
    it.effect("loads each sample report, records rejected rows with their lines, and re-runs idempotently", () =>
      Effect.gen(function* () {
        const db = yield* Database
        yield* db.transaction((tx) => seedSampleLinks(tx))
        const awin = {
          name: "awin-transactions",
          kind: "conversions" as const,
          format: "awin-transactions",
          location: "x",
          options: { rejectThreshold: 0.5 }
        }
        const first = yield* run(awin, sampleFile("awin-transactions.json"), "run-1")
        assert.deepStrictEqual(first._tag === "Success" && first.success, {
          rowsRead: 8,
          rowsLoaded: 6,
          rowsRejected: 2
        })
        assert.deepStrictEqual(yield* rejected("run-1"), [
          [7, "commissionAmount"],
          [8, "commissionStatus"]
        ])
        const again = yield* run(awin, sampleFile("awin-transactions.json"), "run-2")
        assert.strictEqual(again._tag, "Success")
        const [{ n }] = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM conversions")
        assert.strictEqual(n, 6)

        const cj = yield* run(
          {
            name: "cj-csv",
            kind: "conversions",
            format: "cj-commissions",
            location: "x",
            options: { currency: "USD", rejectThreshold: 0.5 }
          },
          sampleFile("cj-commissions.csv"),
          "run-3"
        )
        assert.deepStrictEqual(cj._tag === "Success" && cj.success, { rowsRead: 5, rowsLoaded: 3, rowsRejected: 2 })

        // Generic: the per-row network wins; XAU has no rate, so its row is rejected by line, before anything is written.
        const generic = yield* run(
          {
            name: "others",
            kind: "conversions",
            format: "conversions-generic",
            location: "x",
            options: { network: "other", rejectThreshold: 0.5 }
          },
          sampleFile("generic-conversions.csv"),
          "run-4"
        )
        assert.deepStrictEqual(generic._tag === "Success" && generic.success, {
          rowsRead: 9,
          rowsLoaded: 6,
          rowsRejected: 3
        })
        assert.deepStrictEqual(yield* rejected("run-4"), [
          [8, "currency"],
          [9, "status"],
          [10, "transaction_id"]
        ])
        const sources = yield* db.query<{ source: string; n: number }>(
          "SELECT source, count(*)::INTEGER AS n FROM conversions GROUP BY source ORDER BY source"
        )
        assert.deepStrictEqual(
          sources.map((s) => [s.source, s.n]),
          [
            ["awin-transactions", 6],
            ["cj-csv", 3],
            ["others", 6]
          ]
        )
      })
    )

    it.effect(
      "reads gzip reports; fails the run (writing nothing) above the reject threshold or on an unreadable report",
      () =>
        Effect.gen(function* () {
          const db = yield* Database
          const gz = `${temp.dir}/impact.json.gz`
          writeFileSync(gz, gzipSync(sampleReport("impact-actions.json")))
          const impact = yield* run(
            { name: "impact", kind: "conversions", format: "impact-actions", location: "x" },
            gz,
            "run-5",
            true
          )
          assert.deepStrictEqual(impact._tag === "Success" && impact.success, {
            rowsRead: 6,
            rowsLoaded: 5,
            rowsRejected: 1
          })

          const before = (yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM conversions"))[0].n
          const strict = yield* run(
            {
              name: "cj-strict",
              kind: "conversions",
              format: "cj-commissions",
              location: "x",
              options: { currency: "USD", rejectThreshold: 0.1 }
            },
            sampleFile("cj-commissions.csv"),
            "run-6"
          )
          assert.strictEqual(strict._tag === "Failure" && strict.failure.stage, "validate")
          const html = `${temp.dir}/page.json`
          writeFileSync(html, "<html>login</html>")
          const broken = yield* run(
            { name: "awin-2", kind: "conversions", format: "awin-transactions", location: "x" },
            html,
            "run-7"
          )
          assert.strictEqual(broken._tag === "Failure" && broken.failure.stage, "parse")
          const after = (yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM conversions"))[0].n
          assert.strictEqual(after, before)
          assert.deepStrictEqual(yield* rejected("run-6"), [
            [3, "saleAmountPubCurrency"],
            [6, "actionStatus"]
          ])
        })
    )
  })
})
