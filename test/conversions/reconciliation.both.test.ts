import { Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ConversionLedger } from "../../conversions/ConversionLedger.ts"
import type { ConversionRecord } from "../../conversions/ConversionRecord.ts"
import { parseDecimal } from "../../domain/money/Decimal.ts"
import { ReportingRates } from "../../conversions/ReportingRates.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Database } from "../../infra/Database.ts"
import { freeLoopbackPort } from "../../infra/freeLoopbackPort.ts"
import { referenceClock } from "../../scripts/lib/referenceClock.ts"
import { getJson } from "../support/http.ts"
import { freshDatabaseUrl, testStore } from "../support/postgres.ts"
import { type RunningService, startService, tempDir } from "../support/TestService.ts"
import { sampleLinksOn, seedSampleLinks } from "./fixtures.ts"

// GET /admin/conversions/reconciliation and `npm run conversions -- --reconcile`
// over one ledger, on a calendar pinned to AS_OF (the service's clock), so the
// months' states read the same on any day:
// - cj 2026-07: long closed, one conversion still pending -> flagged
// - cj 2026-08: a correction of a sale never loaded -> flagged
// - cj 2026-09: a partner credited 1.00 more than the 70% split -> flagged
// - cj 2026-10: closed, a refund applied, one unattributed pending -> awaiting the network (timing)
// - cj 2026-11: the month is not over -> open
// - awin 2026-10: everything approved and split 70/30 -> settled
const AS_OF = Date.parse("2026-11-20T12:00:00Z")
const ADMIN = { authorization: "Bearer test-admin-token" }
const ACME = "Qm7xK2pL9vTa" // partner 1, 70%
const GEAR = "Bd6fJ3tN5gUe" // partner 2, 80%

const exec = promisify(execFile)
const cli = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  exec(process.execPath, ["cli/conversions.ts", ...args], {
    env: { ...process.env, ADMIN_TOKEN: "test-admin-token", ...env },
    timeout: 30_000
  })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }))
    .catch((error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr
    }))

const money = (text: string) => parseDecimal(text)!
const sale = (
  network: string,
  id: string,
  link: string,
  status: ConversionRecord["status"],
  commission: string,
  at: string
): ConversionRecord => ({
  network,
  networkTxId: id,
  clickRef: link,
  orderAmount: money("100.00"),
  commission: money(commission),
  currency: "USD",
  status,
  eventAt: new Date(at),
  updatedAt: null
})

let service: RunningService

beforeAll(async () => {
  service = await startService({}, { clock: referenceClock(AS_OF) })
  await service.run(
    Effect.gen(function* () {
      const db = yield* Database
      // a network credits only links on its own programmes: the sample links are on Awin for its sale, on CJ otherwise
      yield* db.transaction((tx) => seedSampleLinks(tx, "awin"))
      const ledger = yield* ConversionLedger
      yield* ledger.upsert([sale("awin", "A-OCT-1", ACME, "approved", "10.00", "2026-10-20T10:00:00Z")], "test")
      yield* sampleLinksOn("cj")
      yield* ledger.upsert(
        [
          sale("cj", "JUL-1", ACME, "approved", "10.00", "2026-07-10T10:00:00Z"),
          sale("cj", "JUL-2", ACME, "pending", "5.00", "2026-07-11T10:00:00Z"),
          sale("cj", "SEP-1", ACME, "approved", "8.00", "2026-09-05T10:00:00Z"),
          sale("cj", "OCT-1", GEAR, "approved", "20.00", "2026-10-03T10:00:00Z"),
          sale("cj", "OCT-2", "NotOurLink99", "pending", "4.00", "2026-10-04T10:00:00Z"),
          sale("cj", "NOV-1", ACME, "pending", "3.00", "2026-11-02T10:00:00Z")
        ],
        "test"
      )
      yield* ledger.upsert(
        [
          { ...sale("cj", "OCT-1-C", GEAR, "approved", "-5.00", "2026-10-25T10:00:00Z"), correctionOf: "OCT-1" },
          { ...sale("cj", "GONE-C", ACME, "approved", "-2.00", "2026-08-15T10:00:00Z"), correctionOf: "GONE" }
        ],
        "test"
      )
      // A ledger that no longer agrees with the split (edited by hand, say).
      yield* db.run(
        "UPDATE conversions SET partner_share = partner_share + 1, platform_share = platform_share - 1 WHERE id = 'cj:SEP-1'"
      )
    })
  )
}, 120_000)
afterAll(async () => {
  await service?.close()
})

const reconcile = (query = "") => getJson(`${service.url}/admin/conversions/reconciliation${query}`, ADMIN)
const statuses = (row: any) =>
  Object.fromEntries(row.network_reports.by_status.map((s: any) => [s.status, [s.conversions, s.commission]]))

describe("GET /admin/conversions/reconciliation", () => {
  it("puts each network's month next to what was credited, newest first, and says what timing explains", async () => {
    const { status, body } = await reconcile()
    expect(status).toBe(200)
    expect(body.reporting_currency).toBe("USD")
    expect(body.months.map((m: any) => [m.network, m.month, m.state])).toEqual([
      ["cj", "2026-11", "open"],
      ["awin", "2026-10", "settled"],
      ["cj", "2026-10", "awaiting_network"],
      ["cj", "2026-09", "flagged"],
      ["cj", "2026-08", "flagged"],
      ["cj", "2026-07", "flagged"]
    ])
    const october = body.months.find((m: any) => m.network === "cj" && m.month === "2026-10")
    // OCT-1: 20.00 refunded 5.00 -> 15.00, partner 2 at 80%: 12.00 / 3.00; OCT-2 unattributed: the platform keeps 4.00.
    expect(statuses(october)).toEqual({
      pending: [1, "4.0000"],
      approved: [1, "15.0000"],
      declined: [0, "0.0000"],
      reversed: [0, "0.0000"]
    })
    expect(october).toMatchObject({
      network_reports: { earning_commission: "19.0000", unattributed: { conversions: 1, commission: "4.0000" } },
      credited: {
        partner: { pending: "0.0000", approved: "12.0000", total: "12.0000" },
        platform: { pending: "4.0000", approved: "3.0000", total: "7.0000" }
      },
      expected: { partner: "12.0000", platform: "7.0000" },
      difference: { commission: "0.0000", partner: "0.0000", platform: "0.0000" },
      month_closed: true,
      flags: []
    })
    expect(october.timing).toEqual([
      expect.objectContaining({ reason: "pending", conversions: 1, commission: "4.0000" })
    ])
    const awin = body.months.find((m: any) => m.network === "awin")
    expect(awin).toMatchObject({
      credited: { partner: { total: "7.0000" }, platform: { total: "3.0000" } },
      difference: { partner: "0.0000" },
      timing: [],
      flags: []
    })
    expect(body.months[0].timing.map((t: any) => t.reason)).toEqual(["month_open", "pending"])
  })

  it("flags what timing does not explain, with a reason", async () => {
    const { body } = await reconcile("?network=cj")
    const flags = Object.fromEntries(
      body.months.map((m: any) => [m.month, m.flags.map((f: any) => [f.reason, f.count, f.amount, f.currency])])
    )
    expect(flags).toEqual({
      "2026-11": [],
      "2026-10": [],
      "2026-09": [["partner_share_mismatch", 1, "1.0000", "USD"]],
      "2026-08": [["correction_without_original", 1, "-2.0000", "USD"]],
      "2026-07": [["pending_past_validation", 1, "5.0000", "USD"]]
    })
    const september = body.months.find((m: any) => m.month === "2026-09")
    expect(september).toMatchObject({
      expected: { partner: "5.6000", platform: "2.4000" },
      difference: { commission: "0.0000", partner: "1.0000", platform: "-1.0000" }
    })
    // Long-pending conversions are no longer timing once flagged.
    expect(body.months.find((m: any) => m.month === "2026-07").timing).toEqual([])
  })

  it("filters by network and month", async () => {
    const { body } = await reconcile("?network=awin&month=2026-10")
    expect(body.months.map((m: any) => [m.network, m.month])).toEqual([["awin", "2026-10"]])
    const october = await reconcile("?month=2026-10")
    expect(october.body.months.map((m: any) => m.network)).toEqual(["awin", "cj"])
    expect((await reconcile("?month=2025-01")).body.months).toEqual([])
  })

  it("answers 400 naming the field for a bad month or network, 401 without the token", async () => {
    for (const [query, field] of [
      ["?month=2026-13", "month"],
      ["?month=2026-1", "month"],
      ["?month=october", "month"],
      ["?network=Not%20A%20Network", "network"]
    ] as const) {
      const response = await reconcile(query)
      expect({ query, status: response.status }).toEqual({ query, status: 400 })
      expect(response.body.error.code).toBe("invalid_parameter")
      expect(response.body.error.details.map((d: any) => d.field)).toEqual([field])
    }
    expect((await getJson(`${service.url}/admin/conversions/reconciliation`)).status).toBe(401)
  })

  it("is in the OpenAPI contract", async () => {
    const spec = (await getJson(`${service.url}/openapi.json`)).body
    const operation = spec.paths["/admin/conversions/reconciliation"].get
    expect(operation.parameters.map((p: any) => p.name).sort()).toEqual(["month", "network"])
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "400", "401"]))
  })
})

describe("npm run conversions -- --reconcile", () => {
  it("prints the months and their flags through a running server", async () => {
    const result = await cli(["--server", service.url, "--reconcile"])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/cj +2026-10 +awaiting_network +1\/1\/0\/0 +19\.00 +12\.00 +7\.00 +0\.00 +0\.00/)
    expect(result.stdout).toMatch(/awin +2026-10 +settled/)
    expect(result.stdout).toMatch(/FLAG cj 2026-08 correction_without_original: .*cj:GONE/)
    expect(result.stdout).toMatch(/FLAG cj 2026-07 pending_past_validation/)
    expect(result.stdout).toMatch(/timing cj 2026-10 pending/)
  })

  it("answers --json with the endpoint's body, filtered", async () => {
    const result = await cli([
      "--server",
      service.url,
      "--reconcile",
      "--network",
      "cj",
      "--month",
      "2026-09",
      "--json"
    ])
    expect(result.code, result.stderr).toBe(0)
    const report = JSON.parse(result.stdout)
    expect(report.months.map((m: any) => [m.network, m.month, m.state])).toEqual([["cj", "2026-09", "flagged"]])
    expect(report.months[0].flags[0].reason).toBe("partner_share_mismatch")
  })

  it("reads the store directly when no server runs (DuckDB file, or PostgreSQL by DATABASE_URL)", async () => {
    const temp = tempDir("reconcile-cli-")
    try {
      const databaseUrl = testStore() === "postgres" ? await freshDatabaseUrl() : undefined
      const scope = Effect.runSync(Scope.make())
      await Effect.runPromise(
        Effect.gen(function* () {
          yield* (yield* Database).transaction((tx) => seedSampleLinks(tx, "cj"))
          yield* (yield* ConversionLedger).upsert(
            [sale("cj", "D-1", ACME, "approved", "10.00", "2026-10-10T10:00:00Z")],
            "test"
          )
        }).pipe(
          Effect.provide(
            ConversionLedger.layer.pipe(
              Layer.provideMerge(ReportingRates.layer),
              Layer.provideMerge(Database.layer),
              Layer.provide(
                AppConfig.layerWith({
                  dataDir: temp.dir,
                  databaseUrl: databaseUrl === undefined ? Option.none() : Option.some(Redacted.make(databaseUrl))
                })
              )
            )
          ),
          Scope.provide(scope)
        )
      )
      await Effect.runPromise(Scope.close(scope, Exit.void))
      const port = await freeLoopbackPort()
      const result = await cli(["--reconcile", "--json"], {
        DATA_DIR: temp.dir,
        PORT: String(port),
        ADMIN_TOKEN: "",
        DATABASE_URL: databaseUrl ?? ""
      })
      expect(result.code, result.stderr).toBe(0)
      // Only the figures: read from the store, the month's state follows the machine's own calendar.
      expect(JSON.parse(result.stdout).months).toEqual([
        expect.objectContaining({
          network: "cj",
          month: "2026-10",
          credited: {
            partner: { pending: "0.0000", approved: "7.0000", total: "7.0000" },
            platform: { pending: "0.0000", approved: "3.0000", total: "3.0000" }
          },
          difference: { commission: "0.0000", partner: "0.0000", platform: "0.0000" },
          flags: []
        })
      ])
    } finally {
      temp.rm()
    }
  })

  it("refuses a malformed month before reading anything", async () => {
    const result = await cli(["--server", service.url, "--reconcile", "--month", "2026-9"])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/--month must be YYYY-MM/)
  })
})
