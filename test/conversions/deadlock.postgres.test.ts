import { Deferred, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ConversionLedger } from "../../conversions/ConversionLedger.ts"
import { parseReport } from "../../conversions/reports/index.ts"
import { ReportingRates } from "../../conversions/ReportingRates.ts"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Database, type DatabaseShape } from "../../infra/Database.ts"
import { makePgDatabase } from "../../infra/PgDatabase.ts"
import { freshDatabaseUrl } from "../support/postgres.ts"

// Two processes on one PostgreSQL: another writer holds a conversion the
// ledger's batch needs and then asks for one the ledger holds. PostgreSQL
// aborts one of the two to break the deadlock (here the ledger); the ledger
// runs its transaction again and the batch lands once.
const scope = Effect.runSync(Scope.make())
let other: DatabaseShape
let ledger: ConversionLedger["Service"]
let db: DatabaseShape

const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.runPromise(effect)

beforeAll(async () => {
  const url = Redacted.make(await freshDatabaseUrl())
  other = await run(makePgDatabase({ url, poolSize: 2 }).pipe(Scope.provide(scope)))
  db = await run(makePgDatabase({ url, poolSize: 2 }).pipe(Scope.provide(scope)))
  ledger = await run(
    ConversionLedger.pipe(
      Effect.provide(
        ConversionLedger.layer.pipe(
          Layer.provideMerge(ReportingRates.layer),
          Layer.provideMerge(Layer.succeed(Database, db)),
          Layer.provide(AppConfig.layerWith({ dataDir: "unused" }))
        )
      )
    )
  )
})
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const records = (status: string) =>
  parseReport(
    "generic",
    "transaction_id,click_ref,order_amount,commission,currency,status,event_time\n" +
      `A-1,,80.00,4.00,USD,${status},2026-11-20T10:00:00Z\n` +
      `M-1,,80.00,4.00,USD,${status},2026-11-20T10:00:00Z\n`,
    { network: "dev" }
  ).records.map(({ record }) => record)

const lockedFor = (tx: Pick<DatabaseShape, "query">, id: string) =>
  tx.query("SELECT id FROM conversions WHERE id = $1 FOR UPDATE", [id])

/** Sessions of this database waiting for a row lock. */
const waitingForLocks = () =>
  other.query<{ n: number }>(
    "SELECT count(*)::INTEGER AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
  )

describe("the ledger on PostgreSQL under a deadlock", () => {
  it("runs its transaction again when PostgreSQL aborts it, and appends each event once", async () => {
    await run(ledger.upsert(records("pending"), "dev-report"))
    const ledgerWaits = await run(Deferred.make<void>())
    const rival = run(
      other.transaction((tx) =>
        Effect.gen(function* () {
          // The session that waits deadlock_timeout first checks for the cycle and aborts itself: the rival waits
          // longer, so the ledger is always the one PostgreSQL aborts (the suite's server runs as a superuser).
          yield* tx.run("SET LOCAL deadlock_timeout = '10s'")
          yield* lockedFor(tx, "dev:M-1")
          yield* Deferred.await(ledgerWaits)
          // The ledger holds A-1 and waits for M-1: asking for A-1 closes the cycle.
          yield* lockedFor(tx, "dev:A-1")
        })
      )
    )
    // The rival holds M-1 before the ledger starts.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const approved = run(ledger.upsert(records("approved"), "dev-postback"))
    for (let i = 0; i < 200; i++) {
      const [{ n }] = await run(waitingForLocks())
      if (n > 0) break
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    await run(Deferred.succeed(ledgerWaits, undefined))
    const [rivalExit, result] = await Promise.all([
      rival.then(
        () => "committed",
        () => "aborted"
      ),
      approved
    ])
    expect({ rivalExit, updated: result.updated }).toEqual({ rivalExit: "committed", updated: 2 })
    const events = await run(
      db.query<{ conversion_id: string; step: string }>(
        `SELECT conversion_id, coalesce(previous_status, 'new') || '>' || status AS step
         FROM conversion_events ORDER BY conversion_id, seen_at, step`
      )
    )
    expect(events).toEqual([
      { conversion_id: "dev:A-1", step: "new>pending" },
      { conversion_id: "dev:A-1", step: "pending>approved" },
      { conversion_id: "dev:M-1", step: "new>pending" },
      { conversion_id: "dev:M-1", step: "pending>approved" }
    ])
  })
})
