import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { CRASH_WINDOW_MS } from "../../clicks/ClickRecorder.ts"
import { crashBound } from "../support/journalBehind.ts"
import { sign } from "../../conversions/PostbackSignature.ts"
import { connectPostgres } from "../../infra/postgres/client.ts"
import { startClickTrail, trailNumbers } from "../support/clickTrail.ts"
import { waitFor } from "../support/waitFor.ts"
import { getJson, postJson } from "../support/http.ts"
import { freshDatabaseUrl } from "../support/postgres.ts"
import { type ServerProcess, startServerProcess } from "../support/serverProcess.ts"
import { tempDir } from "../support/TestService.ts"
import { type ClusterFeeds, writeClusterFeeds } from "./clusterFeeds.ts"
import { call } from "../api/mcp/mcpClient.ts"
import { openSession, postMcp } from "../api/mcp/rawMcp.ts"

// The whole system as it would be deployed: ONE PostgreSQL database and ONE
// Meilisearch, one ROLE=worker and two ROLE=api processes started as
// `node main.ts` with their own DATA_DIR and port, driven over real HTTP
// through every promise of docs/replicas.md. The tests
// run in order and share the cluster.
const ADMIN_TOKEN = "cluster-admin-token"
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` }
const POSTBACK_SECRET = "cluster-awin-secret-0123456789abcdef"
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
const NEW_SHOP = "https://cluster-new-shop.example/item/1"

let databaseUrl: string
let feeds: ClusterFeeds
const temp = tempDir("cluster-")
const processes: Array<ServerProcess> = []

/** One process of the cluster: its own DATA_DIR (under the test's temp folder) and port, the shared stores. */
const start = async (role: "api" | "worker", dataDir: string, extra: Record<string, string> = {}) => {
  const server = await startServerProcess({
    ROLE: role,
    DATABASE_URL: databaseUrl,
    DATA_DIR: `${temp.dir}/${dataDir}`,
    MEILI_URL: inject("meiliUrl"),
    MEILI_MASTER_KEY: inject("meiliKey"),
    MEILI_INDEX_PREFIX: `cluster${process.pid}_`,
    FEEDS_CONFIG: feeds.configPath,
    ADMIN_TOKEN,
    POSTBACK_SECRETS: JSON.stringify({ awin: POSTBACK_SECRET }),
    CATALOG_POLL_MS: "250",
    // Every test request comes from 127.0.0.1: the per-IP limits would be the test's bottleneck, not the service's.
    RATE_LIMIT_IP_PER_MINUTE: "100000",
    RATE_LIMIT_IP_BURST: "100000",
    RATE_LIMIT_REGISTER_PER_MINUTE: "100",
    RATE_LIMIT_REGISTER_BURST: "100",
    CONCURRENT_REQUESTS_PER_IP: "0",
    ...extra
  })
  processes.push(server)
  return server
}

const stop = async (server: ServerProcess, signal: NodeJS.Signals) => {
  server.child.kill(signal)
  await server.exited
}

let worker: ServerProcess
let a: ServerProcess
let b: ServerProcess

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl()
  feeds = writeClusterFeeds(temp.dir)
  // The worker first: it applies the migrations under their lock; the replicas would wait on it anyway.
  worker = await start("worker", "worker-1", { INGEST_ON_START: "true", LOG_LEVEL: "Info" })
  ;[a, b] = await Promise.all([start("api", "api-a"), start("api", "api-b")])
})

afterAll(async () => {
  await Promise.all(processes.map((server) => (server.child.exitCode === null ? stop(server, "SIGKILL") : undefined)))
  temp.rm()
})

const failureContext = () => processes.map((p) => p.output().slice(-2_000)).join("\n----\n")

describe("one worker and two API replicas on one PostgreSQL and one Meilisearch", () => {
  it("the worker ingests the feeds; both replicas serve search, deals and a landing page", async () => {
    await waitFor(async () => expect((await getJson(`${worker.url}/ready`)).status, failureContext()).toBe(200), {
      timeoutMs: 40_000
    })
    const runs = (await getJson(`${worker.url}/admin/runs`, ADMIN)).body.runs
    expect(runs.filter((run: { status: string }) => run.status !== "succeeded")).toEqual([])
    expect(runs.length).toBe(feeds.names.length)

    for (const replica of [a, b]) {
      const search = await getJson(`${replica.url}/api/search?q=headphones`)
      expect(search.status).toBe(200)
      expect(search.body.results.length).toBeGreaterThan(0)
      const deals = await getJson(`${replica.url}/api/deals`)
      expect(deals.status).toBe(200)
      expect(deals.body.deals.length).toBeGreaterThan(0)
      const landing = await fetch(`${replica.url}/deals/${encodeURIComponent(search.body.results[0].id)}`)
      expect(landing.status).toBe(200)
      expect(landing.headers.get("content-type")).toContain("text/html")
    }
  })

  let apiKey: string
  let trackingId: string

  it("a link created on A redirects on B at once; its click counted on B shows in partners/me on A", async () => {
    const registered = await postJson(`${a.url}/api/v1/partners/register`, { name: "Cluster Co", email: "c@x.example" })
    expect(registered.status).toBe(200)
    apiKey = registered.body.api_key
    const matched = await postJson(
      `${a.url}/api/v1/links/match`,
      { url: feeds.matchableUrl },
      { authorization: `Bearer ${apiKey}` }
    )
    expect(matched.body.matched, JSON.stringify(matched.body)).toBe(true)
    trackingId = matched.body.link.tracking_id

    const redirect = await fetch(`${b.url}/t/${trackingId}`, { redirect: "manual", headers: { "user-agent": CHROME } })
    expect(redirect.status).toBe(302)
    expect(redirect.headers.get("location")).toBe(matched.body.link.affiliate_url)

    await waitFor(async () => {
      const me = await getJson(`${a.url}/api/v1/partners/me`, { authorization: `Bearer ${apiKey}` })
      expect(me.status).toBe(200)
      expect(me.body.totals.clicks).toBe(1)
    })
  })

  it("MCP keeps no session: the official client initialized on A calls tools on A and B in turn", async () => {
    // every request after initialize goes to the other replica than the one before
    const replicas = [a.url, b.url]
    const served: Array<string> = []
    const alternating = (url: string | URL, init?: RequestInit) => {
      const target = replicas[served.length % 2]
      served.push(target)
      return fetch(String(url).replace(a.url, target), init)
    }
    const client = new Client({ name: "cluster-test", version: "1.0.0" })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${a.url}/mcp`), {
        fetch: alternating,
        requestInit: { headers: { authorization: `Bearer ${apiKey}` } }
      })
    )
    try {
      for (let i = 0; i < 4; i++) {
        const search = await call(client, "search_catalog", { catalog: { query: "headphones" } })
        expect(search.isError, JSON.stringify(search.body)).toBe(false)
        expect(search.body.products.length).toBeGreaterThan(0)
      }
      const matched = await call(client, "match_link", { url: feeds.matchableUrl })
      expect(matched.isError, JSON.stringify(matched.body)).toBe(false)
      expect(matched.body.link.tracking_id).toBe(trackingId)
      expect(new Set(served)).toEqual(new Set([a.url, b.url]))
    } finally {
      await client.close()
    }
    // the same over raw HTTP: initialize on A, a tool call on B, no Mcp-Session-Id anywhere
    const { init } = await openSession(a.url, "2025-11-25")
    expect(init.headers.get("mcp-session-id")).toBeNull()
    const onB = await postMcp(
      b.url,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_deals", arguments: { limit: 1 } } },
      { "mcp-protocol-version": "2025-11-25" }
    )
    expect(onB.status).toBe(200)
    expect(onB.messages[0].result.isError).not.toBe(true)
  })

  it("unique clicks are unique across replicas: the same visitor on A and B counts once", async () => {
    for (let i = 0; i < 6; i++) {
      const replica = i % 2 === 0 ? a : b
      const response = await fetch(`${replica.url}/t/${trackingId}`, {
        redirect: "manual",
        headers: { "user-agent": CHROME }
      })
      expect(response.status).toBe(302)
    }
    await waitFor(async () => {
      const me = await getJson(`${a.url}/api/v1/partners/me`, { authorization: `Bearer ${apiKey}` })
      expect(me.body.totals).toMatchObject({ clicks: 7, unique_clicks: 1 })
    })
  })

  it("a catalog change run on the worker reaches both replicas' matchers within a few seconds", async () => {
    for (const replica of [a, b]) {
      expect((await postJson(`${replica.url}/api/v1/links/match`, { url: NEW_SHOP })).body.matched).toBe(false)
    }
    feeds.addProgramFor(NEW_SHOP)
    const run = await postJson(`${worker.url}/admin/ingest`, { feed: "programs" }, ADMIN)
    expect(run.status, JSON.stringify(run.body)).toBe(200)
    const committedAt = Date.now()
    await Promise.all(
      [a, b].map((replica) =>
        waitFor(
          async () =>
            expect((await postJson(`${replica.url}/api/v1/links/match`, { url: NEW_SHOP })).body.matched).toBe(true),
          { timeoutMs: 5_000 }
        )
      )
    )
    console.log(`catalog change seen by both replicas ${Date.now() - committedAt} ms after the run returned`)
  })

  it("the same postback sent to A and B at once yields one conversion", async () => {
    // Signed a second apart: the same signed bytes on both would be a replay (refused on the second).
    const postback = (replica: ServerProcess, transactionId: string, secondsAgo: number) => {
      const text = JSON.stringify({
        transaction_id: transactionId,
        click_ref: trackingId,
        order_amount: "100.00",
        commission: "10.00",
        currency: "USD",
        status: "pending",
        event_time: new Date().toISOString()
      })
      const timestamp = String(Math.floor(Date.now() / 1000) - secondsAgo)
      return postJson(`${replica.url}/api/v1/conversions/postback`, text, {
        "x-network": "awin",
        "x-timestamp": timestamp,
        "x-signature": sign(POSTBACK_SECRET, timestamp, text)
      })
    }
    for (let round = 0; round < 5; round++) {
      const [fromA, fromB] = await Promise.all([postback(a, `CLUSTER-${round}`, 0), postback(b, `CLUSTER-${round}`, 1)])
      expect([fromA.status, fromB.status]).toEqual([200, 200])
      expect(fromA.body.inserted + fromB.body.inserted).toBe(1)
    }
    const conversions = await getJson(`${b.url}/admin/conversions?limit=100`, ADMIN)
    const ids = conversions.body.data.map((row: { id: string }) => row.id)
    expect(ids.filter((id: string) => id.startsWith("awin:CLUSTER-")).sort()).toEqual(
      [0, 1, 2, 3, 4].map((round) => `awin:CLUSTER-${round}`)
    )
  })

  it("a second worker waits for the pipeline lock, says so, and takes over when the first stops", async () => {
    const second = await start("worker", "worker-2")
    await waitFor(() => expect(second.output()).toContain("another worker holds the pipeline lock; waiting"))
    expect((await getJson(`${second.url}/ready`)).status).toBe(503)
    const refused = await postJson(`${second.url}/admin/ingest`, { feed: "networks" }, ADMIN)
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe("pipeline_lock_waiting")

    await stop(worker, "SIGTERM")
    await waitFor(async () => expect((await getJson(`${second.url}/ready`)).status).toBe(200), { timeoutMs: 20_000 })
    const run = await postJson(`${second.url}/admin/ingest`, { feed: "networks" }, ADMIN)
    expect(run.status, JSON.stringify(run.body)).toBe(200)
  })

  it(`SIGKILL of A under redirect load: B answers 302 throughout; A restarted stores every click it answered more than ${CRASH_WINDOW_MS} ms before the kill`, async () => {
    const linkOnB = (
      await postJson(
        `${b.url}/api/v1/links/match`,
        { url: `${feeds.matchableUrl}?variant=b` },
        { authorization: `Bearer ${apiKey}` }
      )
    ).body.link.tracking_id
    const onA = startClickTrail({ url: a.url, path: `/t/${trackingId}`, connections: 8, userAgent: CHROME })
    const onB = startClickTrail({ url: b.url, path: `/t/${linkOnB}`, connections: 8, userAgent: CHROME })
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    const killedAt = Date.now()
    await stop(a, "SIGKILL")
    const { behindSince, covers } = crashBound(a.output(), killedAt)
    await onA.stop()
    await new Promise((resolve) => setTimeout(resolve, 1_000)) // B alone, after the kill
    await onB.stop()

    // B: every click sent was answered with a 302, with no pause longer than a second around the kill.
    const answeredOnB = onB.answeredAt.filter((at) => at !== undefined)
    expect(answeredOnB.length).toBe(onB.sent())
    const afterKill = answeredOnB.filter((at) => at > killedAt)
    expect(afterKill.length).toBeGreaterThan(0)
    const times = [...answeredOnB].sort((x, y) => x - y)
    const longestPause = Math.max(...times.slice(1).map((at, i) => at - times[i]))
    expect(longestPause).toBeLessThan(1_000)

    // A again, on the same DATA_DIR: start-up replays its click journal into PostgreSQL.
    a = await start("api", "api-a")
    const answeredOnA = onA.answeredAt.flatMap((at, n) => (at === undefined ? [] : [n]))
    const due = answeredOnA.filter((n) => onA.answeredAt[n] < killedAt - CRASH_WINDOW_MS)
    const sql = connectPostgres(databaseUrl, 1)
    try {
      const rows = await sql<
        Array<{ referrer: string | null }>
      >`SELECT referrer FROM clicks WHERE tracking_id = ${trackingId}`
      const stored = trailNumbers(rows.map((row) => row.referrer))
      const lost = answeredOnA.filter((n) => !stored.has(n))
      const oldestLost = Math.max(0, ...lost.map((n) => killedAt - onA.answeredAt[n]))
      console.log(
        `SIGKILL of A: A answered ${answeredOnA.length} (${due.length} more than ${CRASH_WINDOW_MS} ms before the kill), ` +
          `lost ${lost.length}, answered at most ${oldestLost} ms before the kill` +
          (behindSince === Infinity ? "" : ` (A's journal fell behind from ${killedAt - behindSince} ms before it)`) +
          `; B answered ${answeredOnB.length}/${onB.sent()}, ${afterKill.length} after the kill, longest pause ${longestPause} ms`
      )
      expect(answeredOnA.length).toBeGreaterThan(100)
      // The bound holds while A's journal keeps up; when it fell behind, A said so before the kill (see crash.both.test.ts).
      expect(due.filter((n) => !stored.has(n) && covers(onA.answeredAt[n]))).toEqual([])
    } finally {
      await sql.end()
    }
  })
})
