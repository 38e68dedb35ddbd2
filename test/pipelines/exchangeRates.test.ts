import { copyFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ExchangeRates } from "../../discovery/ExchangeRates.ts"
import { byComparablePrice, comparablePrice } from "../../domain/money/exchangeRates.ts"
import { REPO_ROOT } from "../../pipelines/FeedConfig.ts"
import { count, rejected, runFeed, startWithFeeds } from "./support.ts"
import { tempDir } from "../support/TestService.ts"

// The exchange-rates feed: the ECB's daily reference-rates XML (the shipped
// sample is one), loaded into exchange_rates and held by ExchangeRates, by
// which prices of different currencies are put in one order.

describe("exchange-rates feed (ecb-xml)", () => {
  const files = tempDir("rates-")
  const path = join(files.dir, "rates.xml")
  let env: Awaited<ReturnType<typeof startWithFeeds>>
  beforeAll(async () => {
    env = await startWithFeeds([
      { name: "rates", kind: "exchange_rates", format: "ecb-xml", location: path, options: { rejectThreshold: 0.5 } }
    ])
  })
  afterAll(async () => {
    await env.close()
    files.rm()
  })
  const current = () => env.service.run(ExchangeRates.use((rates) => rates.current))

  it("loads the sample's rates; 79.99 USD and 82.95 EUR are then put in their true order", async () => {
    copyFileSync(join(REPO_ROOT, "data/samples/exchange-rates.xml"), path)
    expect(await runFeed(env.service, "rates")).toMatchObject({ status: "succeeded", rowsLoaded: 19 })
    const rates = await current()
    expect(rates.asOf).toBe("2026-11-20")
    expect(rates.perEur.get("GBP")).toBeCloseTo(0.85538, 8)
    expect(comparablePrice(100, "USD", rates, "GBP")).toBeCloseTo((100 / 1.0842) * 0.85538, 6)
    expect(comparablePrice(10, "XXX", rates)).toBeUndefined()
    const offers = [
      { price: 82.95, currency: "EUR" },
      { price: 114.99, currency: "GBP" },
      { price: 79.99, currency: "USD" },
      { price: 69.99, currency: "GBP" },
      { price: 5, currency: "ZZZ" }
    ]
    expect([...offers].sort(byComparablePrice(rates))).toEqual([
      { price: 79.99, currency: "USD" }, // 73.78 EUR
      { price: 69.99, currency: "GBP" }, // 81.82 EUR
      { price: 82.95, currency: "EUR" },
      { price: 114.99, currency: "GBP" },
      { price: 5, currency: "ZZZ" } // no rate: after every converted price
    ])
  })

  it("rejects bad lines by name, replaces the feed's rates whole, and refuses a file that is not ECB XML", async () => {
    writeFileSync(
      path,
      `<gesmes:Envelope><Cube><Cube time='2026-11-23'>
        <Cube currency='USD' rate='1.05'/><Cube currency='usd' rate='1'/><Cube currency='GBP' rate='-1'/>
        <Cube currency='CHF' rate='0.93'/></Cube></Cube></gesmes:Envelope>`
    )
    const run = await runFeed(env.service, "rates")
    expect(run).toMatchObject({ status: "succeeded", rowsLoaded: 2, rowsRejected: 2 })
    expect(await count(env.service, "SELECT count(*) AS n FROM exchange_rates")).toBe(2)
    expect((await rejected(env.service, run.id)).map((r) => r.reason).sort()).toEqual([
      "currency: must be an ISO 4217 code",
      "rate: must be a positive decimal"
    ])
    const rates = await current()
    expect(rates.asOf).toBe("2026-11-23")
    expect(rates.perEur.get("USD")).toBe(1.05)
    expect(rates.perEur.has("GBP")).toBe(false)

    writeFileSync(path, "currency,rate\nUSD,1.08\n")
    expect(await runFeed(env.service, "rates")).toMatchObject({ status: "failed" })
    expect(await count(env.service, "SELECT count(*) AS n FROM exchange_rates")).toBe(2) // the last good rates stay
  })
})
