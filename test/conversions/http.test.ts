import { Effect, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sign } from "../../conversions/PostbackSignature.ts"
import { Database } from "../../infra/Database.ts"
import { getJson } from "../support/http.ts"
import { type RunningService, startService } from "../support/TestService.ts"
import { postbackClock, seedSampleLinks } from "./fixtures.ts"

const SECRET = "awin-test-secret-0123456789abcdef"
const ADMIN = { authorization: "Bearer test-admin-token" }
let service: RunningService
const clock = postbackClock()
const nowSeconds = () => Math.floor(clock.currentTimeMillisUnsafe() / 1000)

beforeAll(async () => {
  service = await startService(
    {
      postbackSecrets: {
        awin: [Redacted.make(SECRET)],
        impact: [Redacted.make("impact-test-secret-0123456789abcdef")]
      }
    },
    { clock }
  )
  await service.run(
    Effect.gen(function* () {
      const db = yield* Database
      yield* db.transaction((tx) => seedSampleLinks(tx))
    })
  )
})
afterAll(async () => {
  await service?.close()
})

const now = () => String(nowSeconds())
// Each signed request a second earlier than any before (well inside the
// window): a network sending the same body again signs it again, and the same
// signed bytes twice are a replay.
let lastTimestamp = Infinity
const freshTimestamp = () => String((lastTimestamp = Math.min(nowSeconds(), lastTimestamp - 1)))

const post = async (body: string, headers: Record<string, string>) => {
  const response = await fetch(`${service.url}/api/v1/conversions/postback`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body
  })
  return { status: response.status, body: (await response.json()) as any }
}

/** Signs like a network would: hex HMAC-SHA256 of `${timestamp}.${body}`. */
const signed = (body: unknown, options: { network?: string; secret?: string; timestamp?: string } = {}) => {
  const text = typeof body === "string" ? body : JSON.stringify(body)
  const timestamp = options.timestamp ?? freshTimestamp()
  return post(text, {
    "x-network": options.network ?? "awin",
    "x-timestamp": timestamp,
    "x-signature": sign(options.secret ?? SECRET, timestamp, text)
  })
}

const conversion = (overrides: Record<string, unknown> = {}) => ({
  transaction_id: "PB-1",
  click_ref: "Qm7xK2pL9vTa",
  order_amount: "100.00",
  commission: "10.01",
  currency: "USD",
  status: "approved",
  event_time: "2026-11-20T10:00:00Z",
  ...overrides
})

const stored = (id: string) =>
  service.run(
    Effect.gen(function* () {
      const db = yield* Database
      const rows = yield* db.query<Record<string, unknown>>(
        `SELECT status, tracking_id, partner_share::VARCHAR AS partner_share, platform_share::VARCHAR AS platform_share
       FROM conversions WHERE id = $1`,
        [id]
      )
      const [{ n }] = yield* db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM conversions WHERE id = $1", [
        id
      ])
      return { row: rows[0], count: n }
    })
  )

describe("POST /api/v1/conversions/postback", () => {
  it("accepts a signed conversion, attributes it and splits 70/30 to the cent", async () => {
    const response = await signed(conversion())
    expect(response).toEqual({
      status: 200,
      body: { accepted: 1, inserted: 1, updated: 0, unchanged: 0, stale: 0, ids: ["awin:PB-1"] }
    })
    expect(await stored("awin:PB-1")).toEqual({
      row: { status: "approved", tracking_id: "Qm7xK2pL9vTa", partner_share: "7.0100", platform_share: "3.0000" },
      count: 1
    })
  })

  it("is idempotent: the same postback again changes nothing; a reversal zeroes the revenue", async () => {
    const again = await signed(conversion())
    expect(again.body).toMatchObject({ accepted: 1, inserted: 0, unchanged: 1 })
    const reversed = await signed({
      conversions: [conversion({ status: "reversed", updated_time: "2026-11-21T00:00:00Z" })]
    })
    expect(reversed.body).toMatchObject({ updated: 1 })
    expect(await stored("awin:PB-1")).toEqual({
      row: { status: "reversed", tracking_id: "Qm7xK2pL9vTa", partner_share: "0.0000", platform_share: "0.0000" },
      count: 1
    })
  })

  it("keeps a conversion with an unknown click reference as unattributed", async () => {
    const response = await signed([conversion({ transaction_id: "PB-2", click_ref: "NotOurLink99" })])
    expect(response.status).toBe(200)
    expect((await stored("awin:PB-2")).row).toEqual({
      status: "approved",
      tracking_id: null,
      partner_share: "0.0000",
      platform_share: "10.0100"
    })
  })

  it("refuses bad signatures, unknown networks and tampered bodies with 401", async () => {
    const text = JSON.stringify(conversion({ transaction_id: "PB-X" }))
    const timestamp = now()
    const cases: Array<Record<string, string>> = [
      { "x-network": "awin", "x-timestamp": timestamp, "x-signature": sign("wrong-secret", timestamp, text) },
      { "x-network": "awin", "x-timestamp": timestamp, "x-signature": "abc" },
      { "x-network": "awin", "x-timestamp": timestamp },
      { "x-network": "cj", "x-timestamp": timestamp, "x-signature": sign(SECRET, timestamp, text) },
      { "x-network": "impact", "x-timestamp": timestamp, "x-signature": sign(SECRET, timestamp, text) } // another network's secret
    ]
    for (const headers of cases) {
      const response = await post(text, headers)
      expect(response.status).toBe(401)
      expect(response.body.error.code).toBe("unauthorized")
    }
    // A network without a secret: the answer names the variable to set on the server.
    const unconfigured = await post(text, cases[3])
    expect(unconfigured.body.error.message).toMatch(/POSTBACK_SECRETS/)
    const tampered = await post(text.replace("10.01", "99.99"), {
      "x-network": "awin",
      "x-timestamp": timestamp,
      "x-signature": sign(SECRET, timestamp, text)
    })
    expect(tampered.status).toBe(401)
    expect(tampered.body.error.details).toEqual({ field: "X-Signature" })
    expect((await stored("awin:PB-X")).count).toBe(0)
  })

  it("enforces the 5-minute replay window in both directions, and names a malformed timestamp", async () => {
    const seconds = nowSeconds()
    const old = await signed(conversion({ transaction_id: "PB-OLD" }), { timestamp: String(seconds - 6 * 60) })
    expect(old.status).toBe(401)
    expect(old.body.error.message).toMatch(/^X-Timestamp: outside the 5-minute window/)
    const future = await signed(conversion({ transaction_id: "PB-OLD" }), { timestamp: String(seconds + 6 * 60) })
    expect(future.status).toBe(401)
    const recent = await signed(conversion({ transaction_id: "PB-RECENT" }), { timestamp: String(seconds - 4 * 60) })
    expect(recent.status).toBe(200)
    const malformed = await signed(conversion(), { timestamp: "yesterday" })
    expect(malformed.status).toBe(400)
    expect(malformed.body.error.details).toEqual({ field: "X-Timestamp" })
    expect((await stored("awin:PB-OLD")).count).toBe(0)
  })

  it("answers 400 naming the field for malformed bodies, and writes nothing", async () => {
    const cases: Array<[unknown, string]> = [
      ["{not json", "(body)"],
      [42, "(body)"],
      [[], "(body)"],
      [{ conversions: "x" }, "conversions"],
      [conversion({ commission: undefined }), "commission"],
      [conversion({ commission: "1.23456" }), "commission"],
      [conversion({ commission: "-5" }), "commission"],
      [conversion({ status: "refunded" }), "status"],
      [conversion({ currency: "dollars" }), "currency"],
      [conversion({ currency: "XAU" }), "currency"],
      [conversion({ event_time: "last tuesday" }), "event_time"],
      [conversion({ network: "impact" }), "network"],
      [
        { conversions: [conversion({ transaction_id: "PB-OK" }), conversion({ transaction_id: "" })] },
        "conversions.1.transaction_id"
      ],
      [[conversion({ transaction_id: "PB-OK" }), "oops"], "1"]
    ]
    for (const [body, field] of cases) {
      const response = await signed(body)
      expect({ status: response.status, field: response.body.error.details?.field, body }).toEqual({
        status: 400,
        field,
        body
      })
      expect(response.body.error.message.startsWith(`${field}: `)).toBe(true)
    }
    expect((await stored("awin:PB-OK")).count).toBe(0)
  })

  it("refuses oversized bodies with 413", async () => {
    const response = await signed(JSON.stringify({ conversions: [conversion({ padding: "x".repeat(300_000) })] }))
    expect(response.status).toBe(413)
    expect(response.body.error.code).toBe("payload_too_large")
    // Chunked, so no Content-Length to refuse early: the read stops at the limit.
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024))
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        if (sent++ < 8) controller.enqueue(chunk)
        else controller.close()
      }
    })
    const chunked = await fetch(`${service.url}/api/v1/conversions/postback`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-network": "awin",
        "x-timestamp": now(),
        "x-signature": "0".repeat(64)
      },
      body: stream,
      duplex: "half"
    } as RequestInit)
    expect(chunked.status).toBe(413)
  })
})

describe("OpenAPI", () => {
  it("documents the postback (a raw route) and the admin endpoints", async () => {
    const spec = (await getJson(`${service.url}/openapi.json`)).body
    const postback = spec.paths["/api/v1/conversions/postback"].post
    expect(postback.parameters.map((p: any) => p.name)).toEqual(["X-Network", "X-Timestamp", "X-Signature"])
    expect(Object.keys(postback.responses)).toEqual(["200", "400", "401", "403", "413", "417", "431", "503"])
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(["/admin/conversions", "/admin/conversions/summary", "/admin/conversions/reattribute"])
    )
  })
})

describe("admin conversions", () => {
  it("requires the admin token", async () => {
    const response = await getJson(`${service.url}/admin/conversions`)
    expect(response.status).toBe(401)
    expect(response.body.error.code).toBe("unauthorized")
  })

  it("lists by status and unattributed, and validates filters", async () => {
    const reversed = await getJson(`${service.url}/admin/conversions?status=reversed`, ADMIN)
    expect(reversed.status).toBe(200)
    expect(reversed.body.data.map((c: any) => c.id)).toEqual(["awin:PB-1"])
    expect(reversed.body.pagination).toEqual({ limit: 20, offset: 0, total: 1, next_offset: null })
    const unattributed = await getJson(`${service.url}/admin/conversions?unattributed=true`, ADMIN)
    expect(unattributed.body.data.map((c: any) => [c.id, c.click_ref, c.tracking_id])).toEqual([
      ["awin:PB-2", "NotOurLink99", null]
    ])
    expect(unattributed.body.data[0]).toMatchObject({
      commission: "10.0100",
      reporting_currency: "USD",
      platform_share: "10.0100"
    })
    const bad = await getJson(`${service.url}/admin/conversions?status=paid&limit=0`, ADMIN)
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toMatch(/status|limit/)
  })

  it("re-attributes on demand (nothing to do here) and requires the token for it", async () => {
    const ok = await fetch(`${service.url}/admin/conversions/reattribute`, { method: "POST", headers: ADMIN })
    expect({ status: ok.status, body: await ok.json() }).toEqual({ status: 200, body: { reattributed: 0 } })
    const denied = await fetch(`${service.url}/admin/conversions/reattribute`, { method: "POST" })
    expect(denied.status).toBe(401)
  })

  it("sums platform revenue in the reporting currency", async () => {
    const summary = await getJson(`${service.url}/admin/conversions/summary`, ADMIN)
    expect(summary.status).toBe(200)
    expect(summary.body).toMatchObject({
      reporting_currency: "USD",
      unattributed: { conversions: 1, commission: "10.0100" },
      // PB-2 unattributed (10.01 to the platform) + PB-RECENT attributed (3.00); PB-1 reversed earns nothing
      platform_revenue: { pending: "0.0000", approved: "13.0100", total: "13.0100" },
      partner_revenue: { pending: "0.0000", approved: "7.0100", total: "7.0100" }
    })
    expect(summary.body.by_status.map((s: any) => [s.status, s.conversions])).toEqual([
      ["approved", 2],
      ["reversed", 1]
    ])
  })
})
