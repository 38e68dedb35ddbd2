import { DuckDBInstance } from "@duckdb/node-api"
import { Context, Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import { HttpServer } from "effect/http"
import { AppConfig, type AppConfigShape } from "../../infra/AppConfig.ts"
import { connectPostgres } from "../../infra/postgres/client.ts"
import { makeService } from "../../service.ts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ClickRecorder } from "../../clicks/ClickRecorder.ts"
import { feedTrackingId } from "../../domain/links/feedTrackingId.ts"
import { ProgramMatcher } from "../../links/ProgramMatcher.ts"
import { Database } from "../../infra/Database.ts"
import { insertCatalog } from "../support/catalogFixture.ts"
import { insertProducts } from "../support/catalogFixtures.ts"
import { getJson, postJson } from "../support/http.ts"
import { startService, tempDir, testConfig, type RunningService } from "../support/TestService.ts"

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

const click = (url: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(url, { redirect: "manual", ...init, headers: { "user-agent": CHROME, ...init.headers } })

const query = <T>(service: RunningService, sql: string, params: Array<string | number> = []) =>
  service.run(
    Effect.gen(function* () {
      yield* (yield* ClickRecorder).flush
      return yield* (yield* Database).query<T>(sql, params)
    })
  )

const setup = async (overrides: Parameters<typeof startService>[0] = {}) => {
  const service = await startService(overrides)
  await service.run(
    Effect.gen(function* () {
      yield* insertCatalog()
      yield* (yield* ProgramMatcher).reload
    })
  )
  return service
}

describe("GET/HEAD /t/{trackingId}", () => {
  let service: RunningService
  let key: string
  let partnerId: number
  let link: { tracking_id: string; affiliate_url: string }

  beforeAll(async () => {
    service = await setup()
    const reg = await postJson(`${service.url}/api/v1/partners/register`, { name: "Clicker", email: "c@x.example" })
    key = reg.body.api_key
    partnerId = reg.body.partner.id
    link = (
      await postJson(
        `${service.url}/api/v1/links/match`,
        { url: "https://example-store.com/p/1" },
        {
          authorization: `Bearer ${key}`
        }
      )
    ).body.link
  })
  afterAll(() => service.close())

  it("answers 302 to the stored affiliate URL with no-store and noindex", async () => {
    const res = await click(`${service.url}/t/${link.tracking_id}`)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(link.affiliate_url)
    expect(res.headers.get("cache-control")).toBe("private, no-store")
    expect(res.headers.get("x-robots-tag")).toBe("noindex")
  })

  it("never takes the destination from the request", async () => {
    const tricks = [
      `${service.url}/t/${link.tracking_id}?url=https://evil.example&location=https://evil.example&u=https://evil.example`,
      `${service.url}/t/${link.tracking_id}?redirect=${encodeURIComponent("https://evil.example")}`
    ]
    for (const url of tricks) {
      const res = await click(url, {
        headers: { referer: "https://evil.example", "x-forwarded-host": "evil.example", host: "evil.example" }
      })
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(link.affiliate_url)
    }
  })

  it("HEAD answers the same headers but records no click", async () => {
    const before = (
      await query<{ n: number }>(service, "SELECT count(*)::INTEGER AS n FROM clicks WHERE tracking_id = $1", [
        link.tracking_id
      ])
    )[0].n
    const res = await click(`${service.url}/t/${link.tracking_id}`, { method: "HEAD" })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(link.affiliate_url)
    expect(res.headers.get("cache-control")).toBe("private, no-store")
    const after = (
      await query<{ n: number }>(service, "SELECT count(*)::INTEGER AS n FROM clicks WHERE tracking_id = $1", [
        link.tracking_id
      ])
    )[0].n
    expect(after).toBe(before)
  })

  it("answers unknown ids with a JSON 404, or HTML for browsers", async () => {
    for (const id of ["ZZZZZZZZZZZZ", "no-such-link", "f.bm9wZQ.tag", "bad%20id", "..%2F..%2Fetc"]) {
      const api = await click(`${service.url}/t/${id}`)
      expect(api.status, id).toBe(404)
      expect(((await api.json()) as any).error.code).toBe("link_not_found")
    }
    const page = await click(`${service.url}/t/ZZZZZZZZZZZZ`, {
      headers: { accept: "text/html,application/xhtml+xml" }
    })
    expect(page.status).toBe(404)
    expect(page.headers.get("content-type")).toContain("text/html")
    expect(await page.text()).toContain("does not exist")
  })

  it("refuses a stored destination with CR/LF or a non-http(s) scheme", async () => {
    await service.run(
      Effect.gen(function* () {
        const db = yield* Database
        for (const [id, dest] of [
          ["BADJS0000001", "javascript:alert(1)"],
          ["BADCRLF00001", "https://a.example/\r\nSet-Cookie: x=1"]
        ]) {
          yield* db.run(
            `INSERT INTO tracking_links (id, partner_id, tag, original_url, normalized_url, destination_url, affiliate_url, source, created_at)
             VALUES ($1, NULL, 'anon', 'x', $2, $2, $2, 'match', now())`,
            [id, dest]
          )
        }
      })
    )
    for (const id of ["BADJS0000001", "BADCRLF00001"]) {
      const res = await click(`${service.url}/t/${id}`)
      expect(res.status).toBe(404)
      expect(res.headers.get("location")).toBeNull()
    }
  })

  it("records each GET once, with partner, tag, hashed IP, UA, referrer and bot verdicts", async () => {
    const fresh = (
      await postJson(
        `${service.url}/api/v1/links/match`,
        { url: "https://example-store.com/p/clicks" },
        {
          authorization: `Bearer ${key}`
        }
      )
    ).body.link.tracking_id
    const url = `${service.url}/t/${fresh}`
    await click(url, { headers: { referer: "https://blog.example/post" } })
    await click(url)
    await click(url, { headers: { "user-agent": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)" } })
    await click(url, { headers: { "user-agent": "" } })
    await click(url, { headers: { "user-agent": "facebookexternalhit/1.1" } })
    const rows = await query<Record<string, any>>(
      service,
      "SELECT partner_id, tag, ip_hash, user_agent, referrer, is_bot, bot_reason, is_unique FROM clicks WHERE tracking_id = $1 ORDER BY clicked_at",
      [fresh]
    )
    expect(rows).toHaveLength(5)
    expect(rows.every((r) => r.partner_id === partnerId && r.tag === "clicker")).toBe(true)
    expect(rows[0]).toMatchObject({
      referrer: "https://blog.example/post",
      is_bot: false,
      is_unique: true,
      user_agent: CHROME
    })
    expect(rows[1]).toMatchObject({ is_bot: false, is_unique: false })
    expect(rows[2]).toMatchObject({ is_bot: true, bot_reason: "preview:slackbot", is_unique: false })
    expect(rows[3]).toMatchObject({ is_bot: true, bot_reason: "empty_user_agent" })
    expect(rows[4]).toMatchObject({ is_bot: true, bot_reason: "preview:facebook" })
    // The raw address is nowhere in the row.
    expect(JSON.stringify(rows)).not.toContain("127.0.0.1")
    expect(new Set(rows.map((r) => r.ip_hash)).size).toBe(1)
  })

  it("stores a Referer without parameters that look like credentials", async () => {
    const referer =
      "https://shop.example/account?SessionID=abc123&reset_token=tok&api_key=k&view=list&mail=x@y.example#id_token=t"
    await click(`${service.url}/t/${link.tracking_id}`, { headers: { referer } })
    const rows = await query<{ referrer: string }>(
      service,
      "SELECT referrer FROM clicks WHERE tracking_id = $1 AND referrer LIKE 'https://shop.example/account%'",
      [link.tracking_id]
    )
    expect(rows).toEqual([{ referrer: "https://shop.example/account?view=list" }])
  })

  it("ignores X-Forwarded-For unless TRUST_PROXY is set (no forged visitors)", async () => {
    const fresh = (await postJson(`${service.url}/api/v1/links/match`, { url: "https://example-store.com/p/xff" })).body
      .link.tracking_id
    for (const ip of ["198.51.100.1", "198.51.100.2", "198.51.100.3"]) {
      await click(`${service.url}/t/${fresh}`, { headers: { "x-forwarded-for": ip } })
    }
    const rows = await query<{ ip_hash: string; is_unique: boolean }>(
      service,
      "SELECT ip_hash, is_unique FROM clicks WHERE tracking_id = $1 ORDER BY clicked_at",
      [fresh]
    )
    expect(new Set(rows.map((r) => r.ip_hash)).size).toBe(1)
    expect(rows.map((r) => r.is_unique)).toEqual([true, false, false])
  })

  it("shows human clicks, uniques and bots in /partners/me, per link and per day", async () => {
    const me = await getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${key}` })
    expect(me.status).toBe(200)
    const all = await query<Record<string, any>>(
      service,
      `SELECT count(*) FILTER (WHERE NOT is_bot)::INTEGER AS human, count(*) FILTER (WHERE NOT is_bot AND is_unique)::INTEGER AS uniq,
              count(*) FILTER (WHERE is_bot)::INTEGER AS bots FROM clicks WHERE partner_id = $1`,
      [partnerId]
    )
    expect(me.body.totals).toMatchObject({ clicks: all[0].human, unique_clicks: all[0].uniq, bot_clicks: all[0].bots })
    expect(me.body.totals.clicks).toBeGreaterThan(0)
    expect(me.body.links.reduce((sum: number, l: any) => sum + l.clicks, 0)).toBe(me.body.totals.clicks)
    // the day of the newest click: today, or yesterday when this read crossed midnight (UTC)
    const today = Date.now()
    expect([utcDay(today), utcDay(today - 86_400_000)]).toContain(me.body.days[0].date)
    expect(me.body.days.reduce((sum: number, d: any) => sum + d.bot_clicks, 0)).toBe(me.body.totals.bot_clicks)
    expect(me.body.links[0].tracking_url).toBe(`${service.url}/t/${me.body.links[0].tracking_id}`)
  })

  it("reads conversions for the statistics (status counts, partner revenue, EPC)", async () => {
    const tracking = link.tracking_id
    await service
      .run(
        Effect.gen(function* () {
          const db = yield* Database
          const rows: Array<[string, string, string]> = [
            ["tx1", "approved", "7.0000"],
            ["tx2", "pending", "3.5000"],
            ["tx3", "declined", "0.0000"]
          ]
          for (const [tx, status, share] of rows) {
            yield* db.run(
              `INSERT INTO conversions (id, network_id, network_tx_id, click_ref, tracking_id, partner_id, tag, currency, order_amount, commission,
             reporting_currency, commission_reporting, order_amount_reporting, fx_rate, partner_share, platform_share, status, event_at,
             network_updated_at, source, created_at, updated_at)
           VALUES ($1, 'cj', $2, $3, $3, $4, 'clicker', 'EUR', 100, 10, 'EUR', 10, 100, 1, $5::DECIMAL(18,4), 3, $6, now(), now(), 'test', now(), now())`,
              [`cj:${tx}`, tx, tracking, partnerId, share, status]
            )
          }
        })
      )
      .catch((error) => {
        throw new Error(`conversions columns changed? ${error}`)
      })
    const me = await getJson(`${service.url}/api/v1/partners/me`, { authorization: `Bearer ${key}` })
    expect(me.body.reporting_currency).toBe("EUR")
    expect(me.body.totals.conversions).toEqual({ total: 3, pending: 1, approved: 1, declined: 1, reversed: 0 })
    expect(me.body.totals.revenue).toEqual({ pending: "3.5000", approved: "7.0000", total: "10.5000" })
    const linkStats = me.body.links.find((l: any) => l.tracking_id === tracking)
    expect(linkStats.conversions.approved).toBe(1)
    const expectedEpc = ((10.5 * 100) / me.body.totals.clicks).toFixed(4)
    expect(me.body.totals.epc).toBe(expectedEpc)
  })

  it("exposes queue, write and cache metrics", async () => {
    const text = await (
      await fetch(`${service.url}/metrics`, { headers: { authorization: "Bearer test-admin-token" } })
    ).text()
    for (const name of [
      "click_queue_depth",
      "clicks_written_total",
      "clicks_dropped_total",
      "click_flush_last_seconds",
      // whether the crash bound held: clicks journaled later than it, and the last wait
      "clicks_journaled_late_total",
      "click_journal_lag_seconds",
      "link_cache_hits_total",
      "link_cache_misses_total"
    ]) {
      expect(text).toContain(name)
    }
  })
})

describe("discovery-feed tracking ids", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await setup()
    await postJson(`${service.url}/api/v1/partners/register`, { name: "Feed Partner", email: "f@x.example" })
    await service.run(
      insertProducts([
        {
          feed: "f1",
          itemId: "p1",
          title: "Lamp",
          price: 10,
          storeDomain: "example-store.com",
          link: "https://example-store.com/lamp?utm_source=feed"
        },
        {
          feed: "f1",
          itemId: "p2",
          title: "Vase",
          price: 10,
          storeDomain: "nowhere.example",
          link: "https://nowhere.example/vase"
        }
      ])
    )
  })
  afterAll(() => service.close())

  it("creates one stored feed link on first click and redirects through the programme", async () => {
    const id = feedTrackingId("f1:p1", "feed-partner")
    const responses = await Promise.all(Array.from({ length: 8 }, () => click(`${service.url}/t/${id}`)))
    const locations = new Set(responses.map((r) => r.headers.get("location")))
    expect(responses.every((r) => r.status === 302)).toBe(true)
    expect(locations.size).toBe(1)
    const rows = await query<Record<string, any>>(service, "SELECT * FROM tracking_links WHERE source = 'feed'")
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ tag: "feed-partner", product_id: "f1:p1", program_id: "cj:2002" })
    expect(Number(rows[0].partner_id)).toBeGreaterThan(0)
    expect([...locations][0]).toContain(`sid=${rows[0].id}`)
    const clicks = await query<{ n: number }>(
      service,
      "SELECT count(*)::INTEGER AS n FROM clicks WHERE tracking_id = $1",
      [rows[0].id]
    )
    expect(clicks[0].n).toBe(8)
  })

  it("redirects to the product page when no programme matches, and still records the click", async () => {
    // "nobody" is no partner's tag: the click counts for the default feed link (tag api)
    const res = await click(`${service.url}/t/${feedTrackingId("f1:p2", "nobody")}`)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("https://nowhere.example/vase")
    const clicks = await query<Record<string, any>>(
      service,
      "SELECT partner_id, tag FROM clicks WHERE tracking_id = $1",
      [feedTrackingId("f1:p2", "api")]
    )
    expect(clicks).toEqual([{ partner_id: null, tag: "api" }])
  })

  it("404s for a feed id whose product does not exist", async () => {
    const res = await click(`${service.url}/t/${feedTrackingId("f1:nope", "x")}`)
    expect(res.status).toBe(404)
  })
})

/** Clicks of a link in the store of a service already closed: its DuckDB file, or its PostgreSQL database. */
const countAfterClose = async (config: AppConfigShape, dataDir: string, trackingId: string) => {
  const sql = "SELECT count(*)::INTEGER AS n FROM clicks WHERE tracking_id = $1"
  if (Option.isSome(config.databaseUrl)) {
    const pg = connectPostgres(Redacted.value(config.databaseUrl.value), 1)
    try {
      return (await pg.unsafe<Array<{ n: number }>>(sql, [trackingId]))[0].n
    } finally {
      await pg.end()
    }
  }
  const instance = await DuckDBInstance.create(`${dataDir}/catalog.duckdb`)
  const connection = await instance.connect()
  try {
    return Number((await connection.runAndReadAll(sql, [trackingId])).getRowObjectsJS()[0].n)
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

describe("clicks under load and shutdown", () => {
  it("records every concurrent click exactly once and loses none on shutdown", async () => {
    // Built by hand (not startService) so the store outlives the service.
    const temp = tempDir()
    const scope = Effect.runSync(Scope.make())
    const config = testConfig(temp.dir)
    const context = await Effect.runPromise(Layer.buildWithScope(makeService(Layer.succeed(AppConfig, config)), scope))
    const server = Context.get(context, HttpServer.HttpServer)
    const base = `http://127.0.0.1:${server.address._tag === "UnixPathAddress" ? 0 : server.address.port}`
    await Effect.runPromise(
      Effect.provide(
        Effect.gen(function* () {
          yield* insertCatalog()
          yield* (yield* ProgramMatcher).reload
        }),
        context
      )
    )
    const link = (await postJson(`${base}/api/v1/links/match`, { url: "https://example-store.com/load" })).body.link
    const N = 2000
    let sent = 0
    const worker = async () => {
      while (sent < N) {
        sent++
        const res = await click(`${base}/t/${link.tracking_id}`)
        expect(res.status).toBe(302)
      }
    }
    await Promise.all(Array.from({ length: 50 }, worker))
    // Close at once: whatever is still queued must be drained by the finalizer.
    await Effect.runPromise(Scope.close(scope, Exit.void))
    expect(await countAfterClose(config, temp.dir, link.tracking_id)).toBe(N)
    temp.rm()
  })

  it("with TRUST_PROXY, the rightmost untrusted X-Forwarded-For entry is the visitor: spoofed first hops are not visitors", async () => {
    const service = await setup({ trustProxy: 1 })
    const id = (await postJson(`${service.url}/api/v1/links/match`, { url: "https://example-store.com/proxied" })).body
      .link.tracking_id
    // 20 clicks from one visitor (the entry our proxy appended), each with another forged first hop
    for (let n = 1; n <= 20; n++) {
      await click(`${service.url}/t/${id}`, { headers: { "x-forwarded-for": `198.51.100.${n}, 203.0.113.7` } })
    }
    await click(`${service.url}/t/${id}`, { headers: { "x-forwarded-for": "203.0.113.8" } })
    const rows = await query<{ ip_hash: string; is_unique: boolean }>(
      service,
      "SELECT ip_hash, is_unique FROM clicks WHERE tracking_id = $1 ORDER BY clicked_at",
      [id]
    )
    expect(rows).toHaveLength(21)
    expect(rows.filter((r) => r.is_unique)).toHaveLength(2)
    expect(new Set(rows.map((r) => r.ip_hash)).size).toBe(2)
  })

  it("with TRUST_PROXY=2, the entry our outer proxy appended is the visitor", async () => {
    const service = await setup({ trustProxy: 2 })
    const id = (await postJson(`${service.url}/api/v1/links/match`, { url: "https://example-store.com/proxied2" })).body
      .link.tracking_id
    for (const forwarded of ["198.51.100.1, 203.0.113.7, 10.0.0.2", "203.0.113.7, 10.0.0.3", "203.0.113.9, 10.0.0.2"]) {
      await click(`${service.url}/t/${id}`, { headers: { "x-forwarded-for": forwarded } })
    }
    const rows = await query<{ ip_hash: string; is_unique: boolean }>(
      service,
      "SELECT ip_hash, is_unique FROM clicks WHERE tracking_id = $1 ORDER BY clicked_at",
      [id]
    )
    expect(rows.map((r) => r.is_unique)).toEqual([true, false, true])
  })

  it("counts and reports overflow when the queue is full, never silently", async () => {
    const service = await setup({ clickQueueSize: 5 })
    const link = (await postJson(`${service.url}/api/v1/links/match`, { url: "https://example-store.com/overflow" }))
      .body.link
    await Promise.all(Array.from({ length: 300 }, () => click(`${service.url}/t/${link.tracking_id}`)))
    const metrics = await (
      await fetch(`${service.url}/metrics`, { headers: { authorization: "Bearer test-admin-token" } })
    ).text()
    const written = await query<{ n: number }>(service, "SELECT count(*)::INTEGER AS n FROM clicks")
    const dropped = Number(/clicks_dropped_total (\d+)/.exec(metrics)?.[1] ?? "NaN")
    const received = Number(/clicks_received_total (\d+)/.exec(metrics)?.[1] ?? "NaN")
    expect(dropped).toBeGreaterThan(0)
    expect(received + dropped).toBe(300)
    expect(written[0].n).toBe(received)
    await service.close()
  })
})
