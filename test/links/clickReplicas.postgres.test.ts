import { Effect, Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ClickRecorder } from "../../clicks/ClickRecorder.ts"
import { Database } from "../../infra/Database.ts"
import { newTrackingId } from "../../domain/links/trackingId.ts"
import { getJson, postJson } from "../support/http.ts"
import { freshDatabaseUrl } from "../support/postgres.ts"
import { startService, type RunningService } from "../support/TestService.ts"

// Two replicas (two whole services, each with its own DATA_DIR and click
// journal) on one PostgreSQL database: what they must agree on is decided
// there. PostgreSQL only (*.postgres.test.ts): two processes
// cannot share one DuckDB file.
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

const click = (service: RunningService, trackingId: string, ip: string) =>
  fetch(`${service.url}/t/${trackingId}`, {
    redirect: "manual",
    headers: { "user-agent": CHROME, "x-forwarded-for": ip }
  }).then((res) => res.status)

const flush = (service: RunningService) => service.run(Effect.flatMap(ClickRecorder, (recorder) => recorder.flush))

const clicksOf = (service: RunningService, trackingId: string) =>
  service.run(
    Effect.flatMap(Database, (db) =>
      db.query<{ ip_hash: string; is_unique: boolean }>(
        "SELECT ip_hash, is_unique FROM clicks WHERE tracking_id = $1 ORDER BY clicked_at",
        [trackingId]
      )
    )
  )

describe("clicks across two replicas on one PostgreSQL", () => {
  let a: RunningService
  let b: RunningService
  let key: string
  let trackingId: string

  beforeAll(async () => {
    const databaseUrl = Option.some(Redacted.make(await freshDatabaseUrl()))
    a = await startService({ databaseUrl, trustProxy: 1 })
    b = await startService({ databaseUrl, trustProxy: 1 })
    const registered = (
      await postJson(`${a.url}/api/v1/partners/register`, { name: "Replicated", email: "r@x.example" })
    ).body
    key = registered.api_key
    // The link as the link service stores it (the click path reads nothing else of the catalog).
    trackingId = newTrackingId()
    await a.run(
      Effect.flatMap(Database, (db) =>
        db.run(
          `INSERT INTO tracking_links (id, partner_id, tag, original_url, normalized_url, destination_url, affiliate_url, source, created_at)
           VALUES ($1, $2, $3, $4, $4, $4, $5, 'match', now())`,
          [
            trackingId,
            registered.partner.id,
            registered.partner.tag,
            "https://example-store.com/p/replicas",
            `https://network.example/click?sub=${trackingId}`
          ]
        )
      )
    )
  })
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()])
  })

  it("gives each replica its own journal id, so each records its own applied segment", async () => {
    expect(await click(a, trackingId, "198.51.100.200")).toBe(302)
    expect(await click(b, trackingId, "198.51.100.201")).toBe(302)
    await Promise.all([flush(a), flush(b)])
    const replicas = await a.run(
      Effect.flatMap(Database, (db) =>
        db.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM click_journal_replicas WHERE applied_seq > 0")
      )
    )
    expect(replicas[0].n).toBe(2)
  })

  it("counts one unique click when the same visitor clicks on A and then on B", async () => {
    expect(await click(a, trackingId, "198.51.100.7")).toBe(302)
    await flush(a)
    expect(await click(b, trackingId, "198.51.100.7")).toBe(302)
    await flush(b)
    const rows = (await clicksOf(a, trackingId)).slice(-2)
    expect(rows[0].ip_hash).toBe(rows[1].ip_hash)
    expect(rows.map((r) => r.is_unique)).toEqual([true, false])
  })

  it("counts one unique click when one visitor's clicks reach both replicas at once", async () => {
    const before = (await clicksOf(a, trackingId)).length
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, n) => click(n % 2 === 0 ? a : b, trackingId, "203.0.113.77"))
    )
    expect(statuses.every((status) => status === 302)).toBe(true)
    await Promise.all([flush(a), flush(b)])
    const rows = (await clicksOf(b, trackingId)).slice(before)
    expect(rows).toHaveLength(20)
    expect(new Set(rows.map((r) => r.ip_hash)).size).toBe(1)
    expect(rows.filter((r) => r.is_unique)).toHaveLength(1)
  })

  it("shows a click counted on B in partners/me on A", async () => {
    const me = async () =>
      (await getJson(`${a.url}/api/v1/partners/me`, { authorization: `Bearer ${key}` })).body.totals.clicks
    const before = await me()
    expect(await click(b, trackingId, "192.0.2.99")).toBe(302)
    await flush(b)
    expect(await me()).toBe(before + 1)
    const stats = (await getJson(`${a.url}/api/v1/partners/me`, { authorization: `Bearer ${key}` })).body
    const link = stats.links.find((l: { tracking_id: string }) => l.tracking_id === trackingId)
    const stored = await clicksOf(a, trackingId)
    expect(link).toMatchObject({ clicks: stored.length, unique_clicks: stored.filter((r) => r.is_unique).length })
    // the newest click's UTC day, read from the store (not the wall clock, which may have passed midnight since)
    const [{ day }] = await a.run(
      Effect.flatMap(Database, (db) =>
        db.query<{ day: string }>(
          "SELECT to_char(max(clicked_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM clicks WHERE tracking_id = $1",
          [trackingId]
        )
      )
    )
    expect(stats.days[0].date).toBe(day)
    expect(stats.days.reduce((sum: number, d: { clicks: number }) => sum + d.clicks, 0)).toBe(stored.length)
  })
})
