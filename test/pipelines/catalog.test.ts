import { writeFileSync } from "node:fs"
import { getJson } from "../support/http.ts"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { count, query, rejected, runFeed, startWithFeeds } from "./support.ts"
import { tempDir } from "../support/TestService.ts"

// Networks, programmes and price-history feeds: validated line by line,
// replaced atomically like the product feeds.
const network = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id.toUpperCase(),
  status: "active",
  website: `https://${id}.example`,
  click_hosts: [`click.${id}.example`],
  deep_link_template: `https://click.${id}.example/?u={enc(url)}&s={sub}`,
  subid_param: "s",
  unwrap_params: ["u"],
  confidence: "M",
  successor_id: null,
  regions: ["GLOBAL"],
  account_params: { pubId: 7 },
  ...extra
})
const program = (network_id: string, merchant_id: string, extra: Record<string, unknown> = {}) => ({
  network_id,
  merchant_id,
  name: `Shop ${merchant_id}`,
  domains: [`Shop${merchant_id}.example`, `www.shop${merchant_id}.example`],
  country: "GB",
  category: "Home",
  commission_type: "CPS",
  commission_rate: 5.5,
  commission_currency: null,
  cookie_days: 30,
  status: "active",
  deep_link_allowed: true,
  epc: null,
  link_params: { mid: merchant_id },
  ...extra
})
const jsonl = (records: ReadonlyArray<unknown>) =>
  records.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n"

describe("catalog feeds", () => {
  const files = tempDir("catalog-")
  const path = (name: string) => join(files.dir, name)
  let env: Awaited<ReturnType<typeof startWithFeeds>>
  beforeAll(async () => {
    env = await startWithFeeds([
      { name: "networks", kind: "networks", format: "networks-jsonl", location: path("networks.jsonl") },
      {
        name: "programs",
        kind: "programs",
        format: "programs-jsonl",
        location: path("programs.jsonl"),
        options: { rejectThreshold: 0.8 }
      },
      { name: "history", kind: "price_history", format: "price-history-csv", location: path("history.csv") },
      {
        name: "history-eur",
        kind: "price_history",
        format: "price-history-csv",
        location: path("history-eur.csv"),
        options: { currency: "EUR", rejectThreshold: 0.9 }
      }
    ])
  })
  afterAll(async () => {
    await env.close()
    files.rm()
  })

  it("loads networks with their lists and JSON parameters", async () => {
    writeFileSync(
      path("networks.jsonl"),
      jsonl([network("awin"), network("cj"), network("shareasale", { status: "closed", successor_id: "awin" })])
    )
    expect(await runFeed(env.service, "networks")).toMatchObject({ status: "succeeded", rowsLoaded: 3 })
    const [awin] = await query<any>(
      env.service,
      "SELECT click_hosts, unwrap_params, account_params::VARCHAR AS params FROM networks WHERE id = 'awin'"
    )
    expect(awin).toEqual({ click_hosts: ["click.awin.example"], unwrap_params: ["u"], params: '{"pubId":"7"}' })
    expect(await query(env.service, "SELECT successor_id FROM networks WHERE id = 'shareasale'")).toEqual([
      { successor_id: "awin" }
    ])
  })

  it("validates programmes line by line (bad JSON, Schema rules, unknown network, duplicates) and fills program_domains", async () => {
    writeFileSync(
      path("programs.jsonl"),
      jsonl([
        program("awin", "1"),
        program("cj", "2", { commission_type: "CPA", commission_rate: 12, commission_currency: "USD" }),
        "{ not json",
        program("awin", "3", { commission_rate: 150 }),
        program("nowhere", "4"),
        program("awin", "1", { name: "again" }),
        "",
        program("cj", "5", { domains: [] })
      ])
    )
    const run = await runFeed(env.service, "programs")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 7, rowsLoaded: 2, rowsRejected: 5 })
    expect(await rejected(env.service, run.id)).toEqual([
      { line: 3, reason: expect.stringMatching(/^not valid JSON/) },
      { line: 4, reason: "commission_rate: a CPS rate is a percentage (0..100)" },
      { line: 5, reason: "network_id: unknown network nowhere" },
      { line: 6, reason: "duplicate id awin:1 (first on line 1)" },
      { line: 8, reason: "domains: must list at least one domain" }
    ])
    expect(
      await query(env.service, "SELECT domain, program_id FROM program_domains ORDER BY domain, program_id")
    ).toEqual([
      { domain: "shop1.example", program_id: "awin:1" },
      { domain: "shop2.example", program_id: "cj:2" },
      { domain: "www.shop1.example", program_id: "awin:1" },
      { domain: "www.shop2.example", program_id: "cj:2" }
    ])
    // a failing run (over the 80% threshold here) leaves programmes and their domains as they were
    writeFileSync(path("programs.jsonl"), jsonl([program("awin", "9"), "x", "y", "z", "v", "w"]))
    expect((await runFeed(env.service, "programs")).status).toBe("failed")
    expect(await count(env.service, "SELECT count(*) AS n FROM program_domains")).toBe(4)
    expect(await count(env.service, "SELECT count(*) AS n FROM programs")).toBe(2)
  })

  it("gives every programme a stable integer number: kept across re-ingests, never reused, listed by /api/v1/programs", async () => {
    const numbers = async () => {
      const listed = await getJson(`${env.service.url}/api/v1/programs?limit=100`)
      expect(listed.status).toBe(200)
      return Object.fromEntries(listed.body.data.map((p: { id: string; number: number }) => [p.id, p.number]))
    }
    writeFileSync(path("programs.jsonl"), jsonl([program("cj", "2"), program("awin", "1")]))
    expect((await runFeed(env.service, "programs")).status).toBe("succeeded")
    const first = await numbers()
    expect(Object.keys(first).sort()).toEqual(["awin:1", "cj:2"])
    // a new programme gets a new number; the others keep theirs, renamed or not
    writeFileSync(
      path("programs.jsonl"),
      jsonl([program("awin", "7"), program("cj", "2"), program("awin", "1", { name: "Renamed" })])
    )
    expect((await runFeed(env.service, "programs")).status).toBe("succeeded")
    const second = await numbers()
    expect(second).toMatchObject(first)
    expect(second["awin:7"]).toBeGreaterThan(Math.max(first["awin:1"], first["cj:2"]))
    // a programme out of the feed for a run comes back with its number
    writeFileSync(path("programs.jsonl"), jsonl([program("awin", "7")]))
    expect((await runFeed(env.service, "programs")).status).toBe("succeeded")
    writeFileSync(path("programs.jsonl"), jsonl([program("awin", "1"), program("awin", "7"), program("cj", "2")]))
    expect((await runFeed(env.service, "programs")).status).toBe("succeeded")
    expect(await numbers()).toEqual(second)
    expect(new Set(Object.values(second)).size).toBe(3)
  })

  it("imports past price observations and replaces only its own on the next run", async () => {
    await env.service.run(
      (await import("../../infra/Database.ts")).Database.use((db) =>
        // a product run's observation after every one the history feed brings
        db.run("INSERT INTO price_history VALUES ('shop:A', '2026-11-15T00:00:00Z', 5, 'USD', 'some-product-run')")
      )
    )
    writeFileSync(
      path("history.csv"),
      [
        "product_key,observed_at,price,currency",
        "shop:A,2026-08-01T00:00:00Z,9.99,USD",
        "shop:A,2026-09-01T00:00:00Z,7.50 USD,",
        "shop:B,not a date,1.00,USD"
      ].join("\n") + "\n"
    )
    const first = await runFeed(env.service, "history")
    expect(first).toMatchObject({ status: "failed", rowsRejected: 1 }) // 1 of 3 is over the 20% default
    expect(await rejected(env.service, first.id)).toEqual([
      { line: 4, reason: "observed_at: must be an ISO 8601 date" }
    ])
    writeFileSync(
      path("history.csv"),
      "product_key,observed_at,price,currency\nshop:A,2026-08-01T00:00:00Z,9.99,USD\nshop:A,2026-09-01T00:00:00Z,7.50 USD,\n"
    )
    expect(await runFeed(env.service, "history")).toMatchObject({ status: "succeeded", rowsLoaded: 2 })
    writeFileSync(
      path("history.csv"),
      "product_id,observed_at,price,currency\nshop:A,2026-08-01T00:00:00Z,9.99,USD\nshop:A,2026-09-01T00:00:00Z,7.50,USD\nshop:A,2026-10-01T00:00:00Z,8.00,USD\n"
    )
    expect(await runFeed(env.service, "history")).toMatchObject({ status: "succeeded", rowsLoaded: 3 })
    expect(
      await query(
        env.service,
        "SELECT price::VARCHAR AS price, run_id = 'some-product-run' AS ours FROM price_history WHERE product_id = 'shop:A' ORDER BY observed_at"
      )
    ).toEqual([
      { price: "9.9900", ours: false },
      { price: "7.5000", ours: false },
      { price: "8.0000", ours: false },
      { price: "5.0000", ours: true }
    ])
  })

  it("reads every instant, price and currency a row may spell as Date.parse would, and rejects the rest by line", async () => {
    // Rows in the plain form load in SQL; the others are read row by row as
    // before (a date alone is midnight UTC, minutes without seconds, a 30th of
    // February rolled over, a fourth decimal of a second dropped, an offset).
    writeFileSync(
      path("history-eur.csv"),
      [
        "product_id,observed_at,price,currency",
        "p:1,2026-08-01T10:00:00Z,1.00,",
        "p:2,2026-08-01,2.00,USD",
        "p:3,2026-08-01T10:00Z,3.00 GBP,",
        "p:4,2026-02-30T00:00:00Z,4.5,",
        "p:5,2026-08-01T00:00:00.1234Z,5,",
        "p:6,2026-08-01T10:00:00+02:00,6.00,",
        ",2026-08-01T10:00:00Z,7.00,",
        "p:8,yesterday,8.00,usd",
        `${"x".repeat(201)},2026-08-01T10:00:00Z,9.00 USD,`,
        "p:10,2026-08-01T10:00:00.5Z,10.12345,"
      ].join("\n") + "\n"
    )
    const run = await runFeed(env.service, "history-eur")
    expect(run).toMatchObject({ status: "succeeded", rowsRead: 10, rowsLoaded: 6, rowsRejected: 4 })
    expect(await rejected(env.service, run.id)).toEqual([
      { line: 8, reason: "product_id: is required" },
      { line: 9, reason: "observed_at: must be an ISO 8601 date; currency: must be an ISO 4217 code" },
      { line: 10, reason: "product_id: must be at most 200 characters" },
      { line: 11, reason: 'price: must look like "15.00" or "15.00 USD"' }
    ])
    expect(
      await query(
        env.service,
        `SELECT product_id, strftime(observed_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%g') AS at, price::VARCHAR AS price, currency
         FROM price_history WHERE run_id = $1 ORDER BY product_id`,
        [run.id]
      )
    ).toEqual([
      { product_id: "p:1", at: "2026-08-01T10:00:00.000", price: "1.0000", currency: "EUR" },
      { product_id: "p:2", at: "2026-08-01T00:00:00.000", price: "2.0000", currency: "USD" },
      { product_id: "p:3", at: "2026-08-01T10:00:00.000", price: "3.0000", currency: "GBP" },
      { product_id: "p:4", at: "2026-03-02T00:00:00.000", price: "4.5000", currency: "EUR" },
      { product_id: "p:5", at: "2026-08-01T00:00:00.123", price: "5.0000", currency: "EUR" },
      { product_id: "p:6", at: "2026-08-01T08:00:00.000", price: "6.0000", currency: "EUR" }
    ])
  })
})
