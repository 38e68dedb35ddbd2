import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { ConversionLedger } from "../../conversions/ConversionLedger.ts"
import type { ConversionRecord } from "../../conversions/ConversionRecord.ts"
import { Database } from "../../infra/Database.ts"
import { ledgerLayer } from "./fixtures.ts"

// The ledger's side of replay protection, on the test clock: a claimed
// signature refuses the same postback until it expires, a refused claim writes
// nothing, and expired claims are forgotten (the table does not grow forever).
const record = (txId: string): ConversionRecord => ({
  network: "awin",
  networkTxId: txId,
  clickRef: null,
  orderAmount: 100_0000n,
  commission: 10_0000n,
  currency: "USD",
  status: "pending",
  eventAt: new Date("2026-11-20T10:00:00Z"),
  updatedAt: null
})

const count = (sql: string) =>
  Effect.flatMap(Database, (db) => db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${sql}`)).pipe(
    Effect.map((rows) => rows[0].n)
  )

describe("postback signature claims", () => {
  layer(ledgerLayer)((it) => {
    it.effect("refuse the same signature until it expires, write nothing when refused, and are then forgotten", () =>
      Effect.gen(function* () {
        const ledger = yield* ConversionLedger
        const claim = { network: "awin", signature: "ab".repeat(32), expiresAt: new Date(10 * 60_000) }
        const first = yield* ledger.upsertPostback([record("C-1")], claim)
        assert.strictEqual(first.inserted, 1)

        // Same signature (in upper case too), other records: refused, nothing written.
        const again = yield* Effect.flip(
          ledger.upsertPostback([record("C-2")], { ...claim, signature: claim.signature.toUpperCase() })
        )
        assert.strictEqual(again._tag, "PostbackReplayed")
        assert.strictEqual(yield* count("conversions WHERE id = 'awin:C-2'"), 0)
        // Another network's identical signature is its own.
        assert.strictEqual((yield* ledger.upsertPostback([record("C-3")], { ...claim, network: "cj" })).inserted, 1)

        // Past its expiry the claim is forgotten when the next postback arrives.
        yield* TestClock.adjust("11 minutes")
        const later = { network: "awin", signature: "cd".repeat(32), expiresAt: new Date(30 * 60_000) }
        yield* ledger.upsertPostback([record("C-4")], later)
        assert.strictEqual(yield* count("postback_signatures"), 1)
      })
    )
  })
})
