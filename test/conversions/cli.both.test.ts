import { Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ConversionLedger } from "../../conversions/ConversionLedger.ts"
import { parseReport } from "../../conversions/reports/index.ts"
import { ReportingRates } from "../../conversions/ReportingRates.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Database } from "../../infra/Database.ts"
import { freeLoopbackPort } from "../../infra/freeLoopbackPort.ts"
import { freshDatabaseUrl, testStore } from "../support/postgres.ts"
import { type RunningService, startService, tempDir } from "../support/TestService.ts"
import { sampleReport, seedSampleLinks } from "./fixtures.ts"

const exec = promisify(execFile)
const cli = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  exec(process.execPath, ["cli/conversions.ts", ...args], { env: { ...process.env, ...env }, timeout: 30_000 })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }))
    .catch((error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr
    }))

const awinRecords = () =>
  parseReport("awin", sampleReport("awin-transactions.json"), { network: "awin" }).records.map((r) => r.record)

describe("npm run conversions", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startService()
    await service.run(
      Effect.gen(function* () {
        const db = yield* Database
        yield* db.transaction((tx) => seedSampleLinks(tx))
        yield* (yield* ConversionLedger).upsert(awinRecords(), "awin-report")
        // A row with control characters in its ids, as one stored before input refused them (declined: no revenue;
        // no NUL: PostgreSQL text cannot hold one).
        yield* (yield* ConversionLedger).upsert(
          [
            {
              ...awinRecords()[0],
              network: "legacy",
              networkTxId: "SOH\u0001ESC\u001b[31m",
              clickRef: "ref\u0007",
              status: "declined"
            }
          ],
          "legacy-report"
        )
      })
    )
  })
  afterAll(async () => {
    await service?.close()
  })

  it("reads through the admin endpoints while a server runs", async () => {
    const result = await cli(["--server", service.url, "--status", "approved", "--json"], {
      ADMIN_TOKEN: "test-admin-token"
    })
    expect(result.code).toBe(0)
    const output = JSON.parse(result.stdout)
    expect(output.conversions.data.map((c: any) => c.id).sort()).toEqual(["awin:412770002", "awin:412770005"])
    expect(output.summary.reporting_currency).toBe("USD")
    // 412770002: 15.65 USD -> partner 10.96 / platform 4.69; 412770005 unattributed 1.33; 412770001 pending 5.70 -> 3.99 / 1.71
    expect(output.summary.platform_revenue).toEqual({ pending: "4.5000", approved: "6.0200", total: "10.5200" })
  })

  it("prints a table with the unattributed conversions and totals", async () => {
    const result = await cli(["--server", service.url, "--unattributed"], { ADMIN_TOKEN: "test-admin-token" })
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/awin:412770005 +approved +unattributed \(unknown_link: Zz9NotOurs00\)/)
    expect(result.stdout).toMatch(/awin:412770006 +pending +unattributed \(no_click_ref\)/)
    // Control characters stored in ids are shown escaped, never written to the terminal.
    expect(result.stdout).toContain("legacy:SOH\\u0001ESC\\u001b[31m")
    expect(result.stdout).toContain("unattributed (unknown_link: ref\\u0007)")
    expect(result.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/)
    expect(result.stdout).toMatch(/platform revenue: 10\.52 USD \(pending 4\.50, approved 6\.02\)/)
  })

  it("reads the server's token from $DATA_DIR/admin-token, as every operator command does", async () => {
    const result = await cli(["--url", service.url, "--status", "approved", "--json"], {
      ADMIN_TOKEN: "",
      DATA_DIR: service.dataDir
    })
    expect(result.code).toBe(0)
    expect(result.stderr).toContain(`reading server ${service.url} (admin token from ${service.dataDir}/admin-token)`)
    expect(JSON.parse(result.stdout).conversions.data).toHaveLength(2)
  })

  it("explains a missing admin token instead of failing obscurely", async () => {
    const empty = tempDir("conv-cli-token-")
    const result = await cli(["--server", service.url], { ADMIN_TOKEN: "", DATA_DIR: empty.dir })
    empty.rm()
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/set ADMIN_TOKEN/)
  })

  it("reads the store directly when no server runs: the DuckDB file, or PostgreSQL named by DATABASE_URL", async () => {
    const temp = tempDir("conv-cli-")
    try {
      const databaseUrl = testStore() === "postgres" ? await freshDatabaseUrl() : undefined
      const scope = Effect.runSync(Scope.make())
      await Effect.runPromise(
        Effect.gen(function* () {
          const db = yield* Database
          yield* db.transaction((tx) => seedSampleLinks(tx))
          yield* (yield* ConversionLedger).upsert(awinRecords(), "awin-report")
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
      const result = await cli(["--status", "reversed", "--json"], {
        DATA_DIR: temp.dir,
        PORT: String(port),
        ADMIN_TOKEN: "",
        DATABASE_URL: databaseUrl ?? ""
      })
      expect(result.code).toBe(0)
      // On PostgreSQL no DuckDB file exists under DATA_DIR: these rows can only come from DATABASE_URL.
      expect(JSON.parse(result.stdout).conversions.data.map((c: any) => c.id)).toEqual(["awin:412770004"])
    } finally {
      temp.rm()
    }
  })
})
