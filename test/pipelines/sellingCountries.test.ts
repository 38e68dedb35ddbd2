import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { query, runFeed, startWithFeeds } from "./support.ts"
import { tempDir } from "../support/TestService.ts"

// Where an offer sells, as the product loader stores it (products.countries):
// the row's Google Merchant shipping countries, else the feed definition's
// country, else the country the link's domain names, else the country of the
// store's programme when every programme on its domain is in one. A market's
// answer holds only offers sold in its country (test/discovery/markets.both.test.ts).

const HEADER = ["id", "title", "link", "availability", "price", "shipping", "custom_label_0"]
const row = (id: string, link: string, shipping = "", price = "10.00 EUR") =>
  [id, `Product ${id}`, link, "in_stock", price, shipping, "Shop"].join("\t")
const tsv = (rows: ReadonlyArray<string>) => [HEADER.join("\t"), ...rows].join("\n") + "\n"

const programme = (merchant: string, name: string, domain: string, country: string) =>
  JSON.stringify({
    network_id: "awin",
    merchant_id: merchant,
    name,
    domains: [domain],
    country,
    category: "Electronics",
    commission_type: "CPS",
    commission_rate: 3,
    commission_currency: null,
    cookie_days: 30,
    status: "active",
    deep_link_allowed: true,
    epc: null,
    link_params: {}
  })

describe("product feeds say where each offer sells", () => {
  const files = tempDir("countries-")
  const path = (name: string) => join(files.dir, name)
  let env: Awaited<ReturnType<typeof startWithFeeds>>
  beforeAll(async () => {
    env = await startWithFeeds([
      { name: "networks", kind: "networks", format: "networks-jsonl", location: "data/samples/networks.jsonl" },
      { name: "programs", kind: "programs", format: "programs-jsonl", location: path("programs.jsonl") },
      {
        name: "mixed",
        kind: "products",
        format: "gmc-tsv",
        location: path("mixed.tsv"),
        options: { storeColumn: "custom_label_0" }
      },
      {
        name: "irish",
        kind: "products",
        format: "gmc-tsv",
        location: path("irish.tsv"),
        options: { storeColumn: "custom_label_0", country: "IE" }
      }
    ])
  })
  afterAll(async () => {
    await env.close()
    files.rm()
  })

  it("shipping countries first, then the feed's country, the link's country domain, the store's programme", async () => {
    writeFileSync(
      path("programs.jsonl"),
      [
        programme("7432", "Fnac", "fnac.com", "FR"),
        // one domain, two countries: the programme says nothing about where a product sells
        programme("9001", "Nike US", "nike.com", "US"),
        programme("9002", "Nike UK", "nike.com", "GB")
      ].join("\n") + "\n"
    )
    expect(await runFeed(env.service, "networks")).toMatchObject({ status: "succeeded" })
    expect(await runFeed(env.service, "programs")).toMatchObject({ status: "succeeded" })
    writeFileSync(
      path("mixed.tsv"),
      tsv([
        row(
          "S1",
          "https://www.bestbuy.com/p/1",
          "US::Standard:0.00 USD,CA::Standard:5.00 USD,US:CA:Express:9.99 USD",
          "10.00 USD"
        ),
        row("S2", "https://www.zalando.de/p/2"),
        row("S3", "https://www.fnac.com/a/3"),
        row("S4", "https://www.nike.com/t/4", "", "10.00 USD"),
        row("S5", "https://www.argos.co.uk/p/5", "UK::Standard:0.00 GBP", "10.00 GBP")
      ])
    )
    writeFileSync(
      path("irish.tsv"),
      tsv([row("L1", "https://www.zalando.de/p/1"), row("L2", "https://www.argos.ie/p/2", "GB::Standard:0.00 EUR")])
    )
    expect(await runFeed(env.service, "mixed")).toMatchObject({ status: "succeeded", rowsLoaded: 5 })
    expect(await runFeed(env.service, "irish")).toMatchObject({ status: "succeeded", rowsLoaded: 2 })
    const stored = await query<{ id: string; countries: string | null }>(
      env.service,
      "SELECT id, countries FROM products WHERE feed IN ('mixed', 'irish') ORDER BY id"
    )
    expect(stored.map((r) => [r.id, r.countries])).toEqual([
      ["irish:L1", "IE"], // the feed's country wins over the link's .de
      ["irish:L2", "GB"], // the row's shipping country wins over the feed's
      ["mixed:S1", "CA,US"], // every shipping country, once, sorted
      ["mixed:S2", "DE"], // zalando.de
      ["mixed:S3", "FR"], // fnac.com: Fnac's programme is French
      ["mixed:S4", null], // nike.com: a US and a UK programme, so nowhere said
      ["mixed:S5", "GB"] // UK is how feeds write GB
    ])
  })
})
