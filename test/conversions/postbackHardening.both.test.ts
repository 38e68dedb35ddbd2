import { Effect, Redacted } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sign } from "../../conversions/PostbackSignature.ts"
import { GENERIC_COLUMNS } from "../../conversions/reports/generic.ts"
import { Database } from "../../infra/Database.ts"
import { getJson, postJson } from "../support/http.ts"
import { type RunningService, startService, tempDir } from "../support/TestService.ts"
import { postbackClock, seedSampleLinks } from "./fixtures.ts"

// Postbacks nobody can forge, replay or aim at another network's links, over
// real HTTP: no built-in secret (postbacks off without POSTBACK_SECRETS), two
// secrets per network while one is rotated, conversions credited only to links
// on the reporting network (postback or report feed run), one acceptance per
// signed request, no reversed revenue restored without a newer status time, and
// a strict body (types, properties, text a store can hold, sane dates).
const OLD_SECRET = "awin-old-secret-0123456789abcdef0123"
const NEW_SECRET = "awin-new-secret-0123456789abcdef0123"
const IMPACT_SECRET = "impact-secret-0123456789abcdef012345"
const ADMIN = { authorization: "Bearer test-admin-token" }
const samples = new URL("../../data/samples/reports/", import.meta.url).pathname
const temp = tempDir("postback-hardening-")
let service: RunningService
let off: RunningService
const clock = postbackClock()

beforeAll(async () => {
  const feeds = join(temp.dir, "feeds.json")
  writeFileSync(
    feeds,
    JSON.stringify({
      feeds: [
        {
          name: "impact-report",
          kind: "conversions",
          format: "impact-actions",
          location: join(samples, "impact-actions.csv"),
          options: { rejectThreshold: 0.5 }
        }
      ]
    })
  )
  service = await startService(
    {
      feedsConfigPath: feeds,
      postbackSecrets: {
        awin: [Redacted.make(NEW_SECRET), Redacted.make(OLD_SECRET)],
        impact: [Redacted.make(IMPACT_SECRET)]
      }
    },
    { clock }
  )
  // The sample links are on Awin's programmes.
  await service.run(Effect.flatMap(Database, (db) => db.transaction((tx) => seedSampleLinks(tx, "awin"))))
  off = await startService({ postbackSecrets: {} }, { clock })
})
afterAll(async () => {
  await service?.close()
  await off?.close()
  temp.rm()
})

const URL_PATH = "/api/v1/conversions/postback"
let lastTimestamp = Infinity
/** Each request a second earlier than any before (well inside the window), so only deliberate replays repeat a signature. */
const timestamp = () =>
  String((lastTimestamp = Math.min(Math.floor(clock.currentTimeMillisUnsafe() / 1000), lastTimestamp - 1)))

const signedHeaders = (text: string, network = "awin", secret = NEW_SECRET, at = timestamp()) => ({
  "x-network": network,
  "x-timestamp": at,
  "x-signature": sign(secret, at, text)
})

const send = (body: unknown, options: { network?: string; secret?: string; target?: RunningService } = {}) => {
  const text = typeof body === "string" ? body : JSON.stringify(body)
  const target = options.target ?? service
  return postJson(`${target.url}${URL_PATH}`, text, signedHeaders(text, options.network, options.secret))
}

const conversion = (overrides: Record<string, unknown> = {}) => ({
  transaction_id: "H-1",
  click_ref: "Qm7xK2pL9vTa",
  order_amount: "100.00",
  commission: "10.00",
  currency: "USD",
  status: "approved",
  event_time: "2026-11-20T10:00:00Z",
  ...overrides
})

const listed = async (query: string) => (await getJson(`${service.url}/admin/conversions?${query}`, ADMIN)).body.data

const row = async (id: string) => (await listed("limit=100")).find((c: { id: string }) => c.id === id)

describe("postback secrets", () => {
  it("without POSTBACK_SECRETS postbacks are off: 403 naming the variable, for any network and signature", async () => {
    for (const network of ["awin", "dev"]) {
      const answer = await send(conversion(), { network, secret: "dev-postback-secret", target: off })
      expect(answer.status).toBe(403)
      expect(answer.body.error).toMatchObject({
        code: "postbacks_disabled",
        message: expect.stringContaining("POSTBACK_SECRETS"),
        details: { variable: "POSTBACK_SECRETS" }
      })
    }
  })

  it("accepts either of a network's two secrets during a rotation, and no other", async () => {
    expect((await send(conversion({ transaction_id: "ROT-NEW" }))).status).toBe(200)
    expect((await send(conversion({ transaction_id: "ROT-OLD" }), { secret: OLD_SECRET })).status).toBe(200)
    const other = await send(conversion({ transaction_id: "ROT-X" }), { secret: IMPACT_SECRET })
    expect([other.status, other.body.error.details]).toEqual([401, { field: "X-Signature" }])
  })
})

describe("the reporting network must be the link's", () => {
  it("a postback of another network naming an Awin link is stored unattributed as network_mismatch", async () => {
    const answer = await send(conversion({ transaction_id: "MM-1" }), { network: "impact", secret: IMPACT_SECRET })
    expect(answer.status).toBe(200)
    expect(await row("impact:MM-1")).toMatchObject({
      tracking_id: null,
      partner_id: null,
      partner_share: "0.0000",
      platform_share: "10.0000",
      unattributed_reason: "network_mismatch"
    })
    // The same link reported by its own network is credited.
    expect((await send(conversion({ transaction_id: "MM-2" }))).status).toBe(200)
    expect(await row("awin:MM-2")).toMatchObject({
      tracking_id: "Qm7xK2pL9vTa",
      partner_id: 1,
      partner_share: "7.0000",
      unattributed_reason: null
    })
    // Unknown and missing references say so too.
    await send([
      conversion({ transaction_id: "MM-3", click_ref: "NoSuchLink01" }),
      conversion({ transaction_id: "MM-4", click_ref: null })
    ])
    expect((await row("awin:MM-3")).unattributed_reason).toBe("unknown_link")
    expect((await row("awin:MM-4")).unattributed_reason).toBe("no_click_ref")
  })

  it("a report feed run of another network is not credited to Awin links either", async () => {
    const run = await postJson(`${service.url}/admin/ingest`, { feed: "impact-report" }, ADMIN)
    expect(run.status, JSON.stringify(run.body)).toBe(200)
    const impact = await listed("network=impact&limit=100")
    const fromReport = impact.filter((c: { id: string }) => c.id.startsWith("impact:59942."))
    expect(fromReport.length).toBeGreaterThan(0)
    for (const c of fromReport) {
      expect([c.id, c.tracking_id, c.partner_share, c.unattributed_reason]).toEqual([
        c.id,
        null,
        "0.0000",
        "network_mismatch"
      ])
    }
    const filtered = await listed("unattributed_reason=network_mismatch&limit=100")
    expect(filtered.map((c: { id: string }) => c.id).sort()).toEqual(
      ["impact:MM-1", ...fromReport.map((c: { id: string }) => c.id)].sort()
    )
  })
})

describe("replay and status regression", () => {
  it("answers 401 replay for the same signed request again, after it was stored", async () => {
    const text = JSON.stringify(conversion({ transaction_id: "RP-1" }))
    const headers = signedHeaders(text)
    const first = await postJson(`${service.url}${URL_PATH}`, text, headers)
    expect(first.status).toBe(200)
    const again = await postJson(`${service.url}${URL_PATH}`, text, headers)
    expect([again.status, again.body.error.code, again.body.error.details]).toEqual([
      401,
      "replay",
      { field: "X-Signature" }
    ])
  })

  it("an approval sent again after a reversal does not restore the revenue; a newer one does", async () => {
    expect((await send(conversion({ transaction_id: "RV-1" }))).body.inserted).toBe(1)
    const reversal = conversion({ transaction_id: "RV-1", status: "reversed", updated_time: "2026-11-21T00:00:00Z" })
    expect((await send(reversal)).body.updated).toBe(1)
    // Re-signed copies of the approval: without an update time, and with one not newer than the reversal's.
    for (const stale of [
      conversion({ transaction_id: "RV-1" }),
      conversion({ transaction_id: "RV-1", updated_time: "2026-11-21T00:00:00Z" }),
      conversion({ transaction_id: "RV-1", status: "pending", updated_time: "2026-11-20T12:00:00Z" })
    ]) {
      const answer = await send(stale)
      expect([answer.status, answer.body.stale]).toEqual([200, 1])
      expect(await row("awin:RV-1")).toMatchObject({ status: "reversed", partner_share: "0.0000" })
    }
    // The network approves it again later: a newer status time moves it.
    await send(conversion({ transaction_id: "RV-1", updated_time: "2026-11-22T00:00:00Z" }))
    expect(await row("awin:RV-1")).toMatchObject({ status: "approved", partner_share: "7.0000" })
  })

  it("refuses duplicate transaction ids inside one batch, naming the id, and writes nothing", async () => {
    const answer = await send({
      conversions: [
        conversion({ transaction_id: "DUP-1", status: "reversed" }),
        conversion({ transaction_id: "DUP-2" }),
        conversion({ transaction_id: "DUP-1", status: "approved" })
      ]
    })
    expect(answer.status).toBe(400)
    expect(answer.body.error.details).toEqual({ field: "conversions.2.transaction_id", row: 2 })
    expect(answer.body.error.message).toContain('"DUP-1"')
    expect(await row("awin:DUP-2")).toBeUndefined()
  })
})

describe("a strict postback body", () => {
  const refused = async (body: unknown) => {
    const answer = await send(body)
    return { status: answer.status, code: answer.body.error?.code, details: answer.body.error?.details }
  }

  it("refuses dates before 2000 or more than a day ahead of the server's clock, naming the field", async () => {
    const inTwoDays = new Date(clock.currentTimeMillisUnsafe() + 2 * 86_400_000).toISOString()
    const inOneHour = new Date(clock.currentTimeMillisUnsafe() + 3_600_000).toISOString()
    expect(await refused(conversion({ event_time: "0001-01-01T00:00:00Z" }))).toEqual({
      status: 400,
      code: "invalid_parameter",
      details: { field: "event_time", row: 0 }
    })
    expect((await refused(conversion({ event_time: "1999-12-31T23:59:59Z" }))).details.field).toBe("event_time")
    expect((await refused(conversion({ event_time: "9999-12-31T00:00:00Z" }))).details.field).toBe("event_time")
    expect((await refused(conversion({ event_time: inTwoDays }))).details.field).toBe("event_time")
    expect((await refused(conversion({ updated_time: inTwoDays }))).details.field).toBe("updated_time")
    // A network's clock a little ahead of ours is fine.
    expect((await send(conversion({ transaction_id: "DT-OK", event_time: inOneHour }))).status).toBe(200)
  })

  it("refuses control characters and lone surrogates in every text, naming the field and the row", async () => {
    const texts: Array<[string, string]> = [
      ["transaction_id", "a\u0000b"],
      ["transaction_id", "T\u001b[31mred"],
      ["transaction_id", "\ud800x"],
      ["click_ref", "a\udc00"],
      ["click_ref", "Qm7x\u0085"],
      ["currency", "\ud800SD"],
      ["status", "approved\u0000"],
      ["event_time", "2026-11-20T10:00:00Z\u0007"],
      ["network", "awin\ud800"]
    ]
    for (const [field, value] of texts) {
      // JSON.stringify writes a lone surrogate as its \u escape: the bytes are valid UTF-8, JSON.parse restores it.
      const body = { conversions: [conversion({ transaction_id: "OK-ROW" }), conversion({ [field]: value })] }
      expect({ field, answer: await refused(body) }).toEqual({
        field,
        answer: { status: 400, code: "invalid_parameter", details: { field: `conversions.1.${field}`, row: 1 } }
      })
    }
    expect(await row("awin:OK-ROW")).toBeUndefined()
  })

  it("refuses numbers where the contract says strings, and unknown properties, naming them", async () => {
    const cases: Array<[unknown, string]> = [
      [conversion({ transaction_id: 12345 }), "transaction_id"],
      [conversion({ click_ref: 42 }), "click_ref"],
      [conversion({ order_amount: 100.5 }), "order_amount"],
      [conversion({ commission: 10 }), "commission"],
      [conversion({ status: true }), "status"],
      [conversion({ event_time: 1_732_000_000 }), "event_time"],
      [conversion({ updated_tme: "2026-11-21T00:00:00Z" }), "updated_tme"],
      [[conversion(), conversion({ transaction_id: "B", extra: {} })], "1.extra"],
      [{ conversions: [conversion()], dry_run: true }, "dry_run"]
    ]
    for (const [body, field] of cases) {
      const answer = await send(body)
      expect({ field, status: answer.status, named: answer.body.error?.details?.field }).toEqual({
        field,
        status: 400,
        named: field
      })
      expect(answer.body.error.message.startsWith(`${field}: `)).toBe(true)
    }
  })

  it("refuses a body that is not UTF-8 instead of storing replacement characters", async () => {
    const bytes = new TextEncoder().encode(JSON.stringify(conversion({ transaction_id: "UTF-X" })))
    const at = bytes.indexOf("X".charCodeAt(0))
    bytes[at] = 0xff // no UTF-8 sequence starts with 0xFF
    const headers = { ...signedHeaders("", "awin", NEW_SECRET), "content-type": "application/json" }
    headers["x-signature"] = sign(NEW_SECRET, headers["x-timestamp"], bytes)
    const response = await fetch(`${service.url}${URL_PATH}`, { method: "POST", headers, body: bytes })
    const body = (await response.json()) as any
    expect([response.status, body.error.details]).toEqual([400, { field: "(body)" }])
  })

  it("documents exactly what it accepts in /openapi.json", async () => {
    const spec = (await getJson(`${service.url}/openapi.json`)).body
    const operation = spec.paths[URL_PATH].post
    const [single, list, wrapped] = operation.requestBody.content["application/json"].schema.oneOf
    expect(single.additionalProperties).toBe(false)
    expect(wrapped.additionalProperties).toBe(false)
    expect(list.items).toEqual(single)
    expect(Object.keys(single.properties).sort()).toEqual([...GENERIC_COLUMNS].sort())
    for (const field of ["transaction_id", "order_amount", "commission", "currency", "status", "event_time"]) {
      expect([field, single.properties[field].type]).toEqual([field, "string"])
    }
    expect(single.properties.click_ref.type).toEqual(["string", "null"])
    expect(single.properties.updated_time.type).toEqual(["string", "null"])
    expect(Object.keys(operation.responses)).toContain("403")
    expect(operation.responses["401"].description).toContain("replay")
  })
})

describe("a store that cannot take the postback", () => {
  it("answers 503 with Retry-After, and the same signed request goes through once the store is back", async () => {
    const text = JSON.stringify(conversion({ transaction_id: "OUTAGE-1" }))
    const headers = signedHeaders(text)
    // The claim table gone stands in for a store refusing writes: the write transaction fails.
    await service.run(Effect.flatMap(Database, (db) => db.run("ALTER TABLE postback_signatures RENAME TO claims_away")))
    try {
      const refused = await postJson(`${service.url}${URL_PATH}`, text, headers)
      expect([refused.status, refused.body.error.code, refused.headers.get("retry-after")]).toEqual([
        503,
        "storage_unavailable",
        "5"
      ])
    } finally {
      await service.run(
        Effect.flatMap(Database, (db) => db.run("ALTER TABLE claims_away RENAME TO postback_signatures"))
      )
    }
    // Nothing was claimed or stored: the network's retry of the same bytes is accepted.
    const retried = await postJson(`${service.url}${URL_PATH}`, text, headers)
    expect([retried.status, retried.body.inserted]).toEqual([200, 1])
  })
})
