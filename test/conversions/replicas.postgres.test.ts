import { Effect, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sign } from "../../conversions/PostbackSignature.ts"
import { Database } from "../../infra/Database.ts"
import { postJson } from "../support/http.ts"
import { type RunningService, startService } from "../support/TestService.ts"
import { postbackClock, seedSampleLinks } from "./fixtures.ts"

// Two API replicas on ONE PostgreSQL database, over real HTTP: a network that
// delivers the same conversion to both at once (signed twice: the same signed
// bytes twice are a replay) gets one conversion and one event per state
// change, decided by the database (the primary key and INSERT … ON CONFLICT,
// rows read FOR UPDATE), not by either process; the same signed request sent
// to both is accepted by one and refused as a replay by the other.
const SECRET = "awin-replica-secret-0123456789abcdef"
const ROUNDS = 20
let a: RunningService
let b: RunningService
const clock = postbackClock()

beforeAll(async () => {
  const postbackSecrets = { awin: [Redacted.make(SECRET)] }
  a = await startService({ role: "api", postbackSecrets }, { clock })
  b = await startService({ role: "api", postbackSecrets, databaseUrl: a.config.databaseUrl }, { clock })
  await a.run(Effect.flatMap(Database, (db) => db.transaction((tx) => seedSampleLinks(tx))))
})
afterAll(async () => {
  await b?.close()
  await a?.close()
})

/** The current second: two deliveries signed from one reading are a second apart whenever they are made. */
const nowSeconds = () => Math.floor(clock.currentTimeMillisUnsafe() / 1000)

/** Signed at `signedAt` (seconds): a second delivery of one conversion, signed a second earlier, is a request of its own. */
const postback = (service: RunningService, body: unknown, signedAt = nowSeconds()) => {
  const text = JSON.stringify(body)
  const timestamp = String(signedAt)
  return postJson(`${service.url}/api/v1/conversions/postback`, text, {
    "x-network": "awin",
    "x-timestamp": timestamp,
    "x-signature": sign(SECRET, timestamp, text)
  })
}

const conversion = (txId: string, overrides: Record<string, unknown> = {}) => ({
  transaction_id: txId,
  click_ref: "Qm7xK2pL9vTa",
  order_amount: "100.00",
  commission: "10.01",
  currency: "USD",
  status: "pending",
  event_time: "2026-11-20T10:00:00Z",
  ...overrides
})

/** Per conversion id of this run: rows stored, and its events as "previous>status". */
const ledger = (prefix: string) =>
  a.run(
    Effect.gen(function* () {
      const db = yield* Database
      const rows = yield* db.query<{ id: string; partner_share: string }>(
        "SELECT id, partner_share::VARCHAR AS partner_share FROM conversions WHERE id LIKE $1 ORDER BY id",
        [`awin:${prefix}%`]
      )
      const events = yield* db.query<{ conversion_id: string; step: string }>(
        `SELECT conversion_id, coalesce(previous_status, 'new') || '>' || status AS step
         FROM conversion_events WHERE conversion_id LIKE $1 ORDER BY conversion_id, seen_at, step`,
        [`awin:${prefix}%`]
      )
      return { rows, events }
    })
  )

describe("postbacks on two replicas sharing PostgreSQL", () => {
  it("the same transaction sent to both at once yields one conversion and one creation event", async () => {
    const ids = Array.from({ length: ROUNDS }, (_, i) => `RACE-${String(i).padStart(2, "0")}`)
    for (const id of ids) {
      const now = nowSeconds()
      const [fromA, fromB] = await Promise.all([postback(a, conversion(id), now), postback(b, conversion(id), now - 1)])
      expect([fromA.status, fromB.status]).toEqual([200, 200])
      // Exactly one of the two created it; the other saw it committed and changed nothing.
      expect(fromA.body.inserted + fromB.body.inserted).toBe(1)
      expect(fromA.body.unchanged + fromB.body.unchanged).toBe(1)
    }
    const { rows, events } = await ledger("RACE-")
    expect(rows).toEqual(ids.map((id) => ({ id: `awin:${id}`, partner_share: "7.0100" })))
    expect(events).toEqual(ids.map((id) => ({ conversion_id: `awin:${id}`, step: "new>pending" })))
  })

  it("the same status change sent to both at once is applied once and appends one event", async () => {
    const ids = Array.from({ length: ROUNDS }, (_, i) => `MOVE-${String(i).padStart(2, "0")}`)
    for (const id of ids) expect((await postback(a, conversion(id))).body.inserted).toBe(1)
    for (const id of ids) {
      const approved = conversion(id, { status: "approved", updated_time: "2026-11-21T00:00:00Z" })
      const now = nowSeconds()
      const [fromA, fromB] = await Promise.all([postback(a, approved, now), postback(b, approved, now - 1)])
      expect([fromA.status, fromB.status]).toEqual([200, 200])
      expect(fromA.body.updated + fromB.body.updated).toBe(1)
      expect(fromA.body.unchanged + fromB.body.unchanged).toBe(1)
    }
    const { events } = await ledger("MOVE-")
    expect(events).toEqual(
      ids.flatMap((id) => [
        { conversion_id: `awin:${id}`, step: "new>pending" },
        { conversion_id: `awin:${id}`, step: "pending>approved" }
      ])
    )
  })

  it("the same signed request sent to both at once is accepted once and refused as a replay by the other", async () => {
    for (let round = 0; round < 5; round++) {
      const text = JSON.stringify(conversion(`REPLAY-${round}`))
      const timestamp = String(nowSeconds())
      const headers = { "x-network": "awin", "x-timestamp": timestamp, "x-signature": sign(SECRET, timestamp, text) }
      const url = (service: RunningService) => `${service.url}/api/v1/conversions/postback`
      const answers = await Promise.all([postJson(url(a), text, headers), postJson(url(b), text, headers)])
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401])
      expect(answers.find((answer) => answer.status === 401)!.body.error.code).toBe("replay")
      // And later on either replica, with the signature in upper case too.
      const again = await postJson(url(round % 2 === 0 ? a : b), text, {
        ...headers,
        "x-signature": headers["x-signature"].toUpperCase()
      })
      expect([again.status, again.body.error?.code]).toEqual([401, "replay"])
    }
    const { rows } = await ledger("REPLAY-")
    expect(rows).toHaveLength(5)
  })
})
