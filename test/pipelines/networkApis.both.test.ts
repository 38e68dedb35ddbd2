import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { parseReport } from "../../conversions/reports/index.ts"
import { PipelineRunner } from "../../pipelines/PipelineRunner.ts"
import { awinStub, cjStub, impactStub, productFeedStub, sample, type Stub } from "./networkStubs.ts"
import { count, query, rejected, runFeed, startWithFeeds } from "./support.ts"

// Feeds whose sources are the networks' report APIs, end to end: the real
// pipeline runner, real DuckDB and Meilisearch, real HTTP to a loopback stub
// per network (networkStubs.ts) that checks each request's shape. Credentials
// live in environment variables only; the logger's output, the run records
// and the error messages are searched for them.

const SECRETS = {
  T_AWIN_PUBLISHER: "882134",
  T_AWIN_TOKEN: "awin-tok-7f3e9a1c55d2",
  T_CJ_PUBLISHER: "7654321",
  T_CJ_TOKEN: "cj-pat-0b8d6e2f4a91",
  T_IMPACT_SID: "IRsid5kQ2wE8",
  T_IMPACT_TOKEN: "impact-auth-x9Yv3Lp",
  T_FEED_KEY: "feedkey-c4a1e77b"
}
const CREDENTIALS = [
  SECRETS.T_AWIN_TOKEN,
  SECRETS.T_CJ_TOKEN,
  SECRETS.T_IMPACT_TOKEN,
  SECRETS.T_FEED_KEY,
  SECRETS.T_IMPACT_SID
]
const base64Basic = Buffer.from(`${SECRETS.T_IMPACT_SID}:${SECRETS.T_IMPACT_TOKEN}`).toString("base64")

const CJ_QUERY =
  "query Commissions($publishers: [String!]!, $from: String!, $to: String!, $since: String) { publisherCommissions(" +
  "forPublishers: $publishers, sincePostingDate: $from, beforePostingDate: $to, sinceCommissionId: $since) { count payloadComplete " +
  "maxCommissionId records { commissionId originalActionId original correctionReason shopperId actionStatus " +
  "saleAmountPubCurrency pubCommissionAmountPubCurrency eventDate postingDate } } }"

let awin: Stub, cj: Stub, impact: Stub, products: Stub
let env: Awaited<ReturnType<typeof startWithFeeds>>
const logs: Array<string> = []
const conversions = (network: string) =>
  count(env.service, "SELECT count(*) AS n FROM conversions WHERE network_id = $1", [network])

beforeAll(async () => {
  Object.assign(process.env, SECRETS)
  // The logger writes through console; keep every line to search it for credentials.
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: Array<unknown>) => {
      logs.push(args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg))).join(" "))
    })
  }
  ;[awin, cj, impact, products] = await Promise.all([
    awinStub(SECRETS.T_AWIN_PUBLISHER, SECRETS.T_AWIN_TOKEN),
    cjStub(SECRETS.T_CJ_PUBLISHER, SECRETS.T_CJ_TOKEN, 3),
    impactStub(SECRETS.T_IMPACT_SID, SECRETS.T_IMPACT_TOKEN, 2),
    productFeedStub(SECRETS.T_FEED_KEY)
  ])
  const quick = { retries: 2, timeoutMs: 5000, maxRetryAfterMs: 5000, rejectThreshold: 0.5 }
  env = await startWithFeeds(
    [
      {
        name: "awin-api",
        kind: "conversions",
        format: "awin-transactions",
        location: `${awin.url}/publishers/{env:T_AWIN_PUBLISHER}/transactions/?startDate={from}&endDate={to}&timezone=UTC`,
        options: {
          ...quick,
          auth: { type: "bearer", env: "T_AWIN_TOKEN" },
          window: { days: 30, maxDays: 31, format: "datetime" }
        }
      },
      {
        name: "cj-api",
        kind: "conversions",
        format: "cj-commissions",
        location: `${cj.url}/query`,
        options: {
          ...quick,
          currency: "USD",
          auth: { type: "bearer", env: "T_CJ_TOKEN" },
          window: { days: 30, format: "datetime-utc" },
          method: "POST",
          body: {
            query: CJ_QUERY,
            variables: { publishers: ["{env:T_CJ_PUBLISHER}"], from: "{from}", to: "{to}", since: "{cursor}" }
          },
          pagination: {
            type: "cursor",
            items: "data.publisherCommissions.records",
            cursor: "data.publisherCommissions.maxCommissionId",
            done: "data.publisherCommissions.payloadComplete"
          }
        }
      },
      {
        name: "impact-api",
        kind: "conversions",
        format: "impact-actions",
        location: `${impact.url}/Mediapartners/{env:T_IMPACT_SID}/Actions?StartDate={from}&EndDate={to}&PageSize=2`,
        options: {
          ...quick,
          auth: { type: "basic", userEnv: "T_IMPACT_SID", passwordEnv: "T_IMPACT_TOKEN" },
          window: { days: 30, maxDays: 45, format: "datetime-utc" },
          pagination: { type: "next-uri", items: "Actions", next: "@nextpageuri", maxPages: 5 }
        }
      },
      ...[
        ["impact-paged", 50],
        ["impact-capped", 2]
      ].map(([name, maxPages]) => ({
        name: String(name),
        kind: "conversions",
        format: "impact-actions",
        location: `${impact.url}/Mediapartners/{env:T_IMPACT_SID}/Actions?StartDate={from}&EndDate={to}&PageSize={size}&Page={page}`,
        options: {
          ...quick,
          auth: { type: "basic", userEnv: "T_IMPACT_SID", passwordEnv: "T_IMPACT_TOKEN" },
          window: { days: 30, format: "datetime-utc" },
          pagination: { type: "page", items: "Actions", size: 2, start: 1, maxPages }
        }
      })),
      {
        name: "awin-datafeed",
        kind: "products",
        format: "awin-csv",
        location: `${products.url}/datafeed/download/apikey/{env:T_FEED_KEY}/language/en/format/csv/compression/gzip/`,
        options: { country: "DE" }
      },
      {
        name: "keyed-products",
        kind: "products",
        format: "awin-csv",
        location: `${products.url}/feeds/products.csv.gz`,
        options: { country: "DE", auth: { type: "header", header: "X-Api-Key", env: "T_FEED_KEY" } }
      },
      {
        name: "waiting-for-credentials",
        kind: "conversions",
        format: "awin-transactions",
        location: `${awin.url}/publishers/1/transactions/`,
        options: { auth: { type: "bearer", env: "T_NEVER_SET_TOKEN" } }
      }
    ],
    { ingestOnStart: false }
  )
})

afterAll(async () => {
  await env?.close()
  await Promise.all([awin, cj, impact, products].map((stub) => stub?.close()))
  for (const name of Object.keys(SECRETS)) delete process.env[name]
  vi.restoreAllMocks()
})

const DAY = 86_400_000

describe("feeds from the networks' APIs", () => {
  it("Awin: fills the 30-day window, sends the bearer token and loads the transactions into the ledger", async () => {
    const before = Date.now()
    const run = await runFeed(env.service, "awin-api")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 8, rowsLoaded: 6, rowsRejected: 2 })
    expect(awin.requests).toHaveLength(1)
    const { method, query: params, headers } = awin.requests[0]
    expect(method).toBe("GET")
    expect(headers.authorization).toBe(`Bearer ${SECRETS.T_AWIN_TOKEN}`)
    const from = Date.parse(`${params.get("startDate")}Z`)
    const to = Date.parse(`${params.get("endDate")}Z`)
    expect(to - from).toBeGreaterThanOrEqual(30 * DAY - 1000)
    expect(to - from).toBeLessThanOrEqual(30 * DAY + 1000)
    expect(to).toBeGreaterThanOrEqual(before - 1000)
    expect(await conversions("awin")).toBe(6)
    expect((await rejected(env.service, run.id)).map((r) => r.line)).toEqual([7, 8])
  })

  it("skips the next run when the report is the same, although the window moved (sha256 of the report)", async () => {
    const run = await runFeed(env.service, "awin-api")
    expect(run.status).toBe("skipped")
    expect(awin.requests).toHaveLength(2)
    expect(awin.requests[1].headers["if-none-match"]).toBeUndefined()
  })

  it("reaches back to the last success after an outage, within the network's limit (maxDays)", async () => {
    const span = async (lastSuccessHoursAgo: number) => {
      await query(
        env.service,
        `UPDATE feed_state SET last_success_at = now() - CAST('${lastSuccessHoursAgo} hours' AS INTERVAL) WHERE feed = 'awin-api'`
      )
      await runFeed(env.service, "awin-api")
      const { query: params } = awin.requests.at(-1)!
      return (Date.parse(`${params.get("endDate")}Z`) - Date.parse(`${params.get("startDate")}Z`)) / 3_600_000
    }
    expect(await span(24 * 29.5)).toBeCloseTo(24 * 30.5, 0) // back to the last success, less a day of overlap
    expect(await span(24 * 90)).toBeCloseTo(24 * 31, 0) // Awin answers at most 31 days
  })

  it("CJ: POSTs the GraphQL query with the window and follows sinceCommissionId until payloadComplete", async () => {
    const run = await runFeed(env.service, "cj-api")
    const direct = parseReport("cj", sample("cj-commissions.json"), { network: "cj", currency: "USD" })
    expect(run).toMatchObject({
      status: "succeeded",
      rowsRead: 8,
      rowsLoaded: direct.records.length,
      rowsRejected: direct.rejected.length
    })
    const bodies = cj.requests.map(
      (request) => JSON.parse(request.body) as { query: string; variables: Record<string, unknown> }
    )
    expect(bodies.map((body) => body.variables.since)).toEqual([null, "3081120003", "3081120006"])
    expect(bodies[0].query).toBe(CJ_QUERY)
    expect(bodies[0].variables).toMatchObject({ publishers: [SECRETS.T_CJ_PUBLISHER] })
    expect(Date.parse(String(bodies[0].variables.to)) - Date.parse(String(bodies[0].variables.from))).toBe(30 * DAY)
    expect(
      cj.requests.every(
        (request) => request.method === "POST" && request.headers.authorization === `Bearer ${SECRETS.T_CJ_TOKEN}`
      )
    ).toBe(true)
    // corrections (original false) move their sale instead of counting as conversions
    const corrections = direct.records.filter(({ record }) => record.correctionOf !== undefined).length
    expect(corrections).toBe(2)
    expect(await conversions("cj")).toBe(direct.records.length - corrections)
    // the pages form one report: a rejected row keeps its position in the whole report
    expect((await rejected(env.service, run.id)).map((r) => r.line)).toEqual(direct.rejected.map((r) => r.line))
  })

  it("Impact: basic auth with the Account SID, JSON asked for, pages followed through @nextpageuri", async () => {
    const run = await runFeed(env.service, "impact-api")
    const direct = parseReport("impact", sample("impact-actions.json"), { network: "impact" })
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 6, rowsLoaded: 5, rowsRejected: 1 })
    expect(impact.requests.map((request) => request.query.get("Page"))).toEqual([null, "2", "3"])
    for (const request of impact.requests) {
      expect(request.headers.authorization).toBe(`Basic ${base64Basic}`)
      expect(request.headers.accept).toBe("application/json")
      expect(request.path).toBe(`/Mediapartners/${SECRETS.T_IMPACT_SID}/Actions`)
    }
    expect((await rejected(env.service, run.id)).map((r) => r.line)).toEqual(direct.rejected.map((r) => r.line))
    expect(await conversions("impact")).toBe(5)
  })

  it("page numbers: {page} and {size} until a short page; more pages than maxPages fail the run", async () => {
    impact.requests.length = 0
    const run = await runFeed(env.service, "impact-paged")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 6, rowsLoaded: 5, rowsRejected: 1 })
    expect(impact.requests.map((request) => [request.query.get("Page"), request.query.get("PageSize")])).toEqual([
      ["1", "2"],
      ["2", "2"],
      ["3", "2"],
      ["4", "2"]
    ])
    const capped = await runFeed(env.service, "impact-capped")
    expect(capped.status).toBe("failed")
    expect(capped.error).toMatch(
      /more than options.pagination.maxPages \(2\) pages; raise it or shorten options.window \(nothing was loaded\)/
    )
  })

  it("never follows a next-page URI to another host (the credentials would go with it)", async () => {
    impact.faults = [
      { status: 200, body: JSON.stringify({ Actions: [], "@nextpageuri": "http://elsewhere.example/steal" }), times: 1 }
    ]
    const run = await runFeed(env.service, "impact-api")
    expect(run.status).toBe("failed")
    expect(run.error).toMatch(
      /next page points to another host \(http:\/\/elsewhere\.example\); refusing to send credentials there/
    )
  })

  it("product feeds with the key in the URL path or in a header load like any product feed", async () => {
    const inPath = await runFeed(env.service, "awin-datafeed")
    const inHeader = await runFeed(env.service, "keyed-products")
    expect(inPath.status).toBe("succeeded")
    expect(inPath.rowsLoaded).toBeGreaterThan(0)
    expect(inHeader).toMatchObject({ status: "succeeded", rowsLoaded: inPath.rowsLoaded })
    expect(logs.some((line) => line.includes("/datafeed/download/apikey/***/language/en"))).toBe(true)
  })

  it("waits out a 429's Retry-After, then continues", async () => {
    awin.requests.length = 0
    awin.faults = [{ status: 429, retryAfter: "1", times: 1 }]
    const started = Date.now()
    const run = await runFeed(env.service, "awin-api")
    expect(run.status).toBe("skipped") // fetched after the wait; the same report as before
    expect(awin.requests).toHaveLength(2)
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
  })

  it("fails at once when a 429 asks for longer than options.maxRetryAfterMs, keeping the ledger", async () => {
    awin.requests.length = 0
    awin.faults = [{ status: 429, retryAfter: "3600", times: 1 }]
    const run = await runFeed(env.service, "awin-api")
    expect(run.status).toBe("failed")
    expect(run.error).toMatch(
      /HTTP 429 .*rate limited.*asks to wait 3600 s, longer than options.maxRetryAfterMs \(5 s\)/
    )
    expect(awin.requests).toHaveLength(1)
    expect(await conversions("awin")).toBe(6)
  })

  it("retries 5xx with backoff, and gives up after options.retries", async () => {
    impact.requests.length = 0
    impact.faults = [{ status: 503, times: 2, after: 1 }] // page 2 fails twice, then answers
    expect((await runFeed(env.service, "impact-api")).status).toBe("skipped")
    expect(impact.requests.map((request) => request.query.get("Page"))).toEqual([null, "2", "2", "2", "3"])
    impact.faults = [{ status: 500, times: 10 }]
    const failed = await runFeed(env.service, "impact-api")
    expect(failed.status).toBe("failed")
    expect(failed.error).toMatch(
      /fetch: HTTP 500 .* from http:\/\/127\.0\.0\.1:\d+\/Mediapartners\/\*\*\*\/Actions\?.*; gave up after 3 attempts/
    )
    impact.faults = []
  })

  it("fails a run whose page is not JSON, loading none of its pages", async () => {
    impact.faults = [{ status: 200, body: "<ImpactRadiusResponse><Actions>", times: 1, after: 1 }]
    const run = await runFeed(env.service, "impact-api")
    expect(run.status).toBe("failed")
    expect(run.error).toMatch(/parse: page 2 \(.*\): not JSON/)
    expect(await conversions("impact")).toBe(5)
  })

  it("fails with a clear reason on 401, without retrying, naming the variables and not their values", async () => {
    process.env.T_CJ_TOKEN = "cj-pat-revoked-000"
    cj.requests.length = 0
    try {
      const run = await runFeed(env.service, "cj-api")
      expect(run.status).toBe("failed")
      expect(run.error).toMatch(
        /HTTP 401 .*the API refused the credentials in T_CJ_TOKEN \(options\.auth\).*does not retry/
      )
      expect(run.error).not.toContain("cj-pat-revoked-000")
      expect(cj.requests).toHaveLength(1)
      expect(await conversions("cj")).toBeGreaterThan(0)
    } finally {
      process.env.T_CJ_TOKEN = SECRETS.T_CJ_TOKEN
    }
  })

  it("keeps a feed whose variables are not set disabled, and a manual run says which are missing", async () => {
    const runnerFeeds = await env.service.run(PipelineRunner.use((runner) => Effect.succeed(runner.feeds)))
    expect(runnerFeeds.find((feed) => feed.name === "waiting-for-credentials")?.enabled).toBe(false)
    expect(runnerFeeds.find((feed) => feed.name === "awin-api")?.enabled).toBe(true)
    const run = await runFeed(env.service, "waiting-for-credentials")
    expect(run).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/environment variable T_NEVER_SET_TOKEN not set/)
    })
    expect(
      logs.some(
        (line) =>
          line.includes("feed disabled until its environment variables are set") && line.includes("T_NEVER_SET_TOKEN")
      )
    ).toBe(true)
  })

  it("never writes a credential to the logs, the run records, the rejected rows or an error", async () => {
    // the capture works: every run above logged its start and end
    expect(logs.filter((line) => line.includes("pipeline run finished")).length).toBeGreaterThanOrEqual(10)
    const records = JSON.stringify(await query(env.service, "SELECT * FROM pipeline_runs"), (_key, value) =>
      typeof value === "bigint" ? String(value) : value
    )
    const rows = JSON.stringify(await query(env.service, "SELECT reason, raw FROM rejected_rows"))
    for (const secret of [...CREDENTIALS, base64Basic, "cj-pat-revoked-000"]) {
      expect(
        logs.filter((line) => line.includes(secret)),
        secret
      ).toEqual([])
      expect(records.includes(secret), secret).toBe(false)
      expect(rows.includes(secret), secret).toBe(false)
    }
  })
})
