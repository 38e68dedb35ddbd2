import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ExchangeRates } from "../../discovery/ExchangeRates.ts"
import { Database } from "../../infra/Database.ts"
import { getJson } from "../support/http.ts"
import { startMarketsService, XM5 } from "../support/marketsCatalog.ts"
import type { RunningService } from "../support/TestService.ts"

// Without a market an answer spans currencies. Price words order it cheapest
// first by each price converted to EUR at the reference exchange rates (the
// exchange_rates feed), each converted figure and the rates' day said in the
// answer; without rates loaded, prices are only ordered within their currency.

const RATES = { USD: 1.05, GBP: 0.85 }
const AS_OF = "2026-11-27"

describe("cheap X without a market: cheapest first across currencies by converted price", () => {
  let service: RunningService
  beforeAll(async () => {
    service = await startMarketsService()
  })
  afterAll(() => service.close())
  const get = (path: string) => getJson(`${service.url}${path}`)
  const cheap = `/api/search?q=${encodeURIComponent("cheap headphones")}`

  it("without rates: each currency cheapest first on its own, nothing converted", async () => {
    const { status, body } = await get(cheap)
    expect(status).toBe(200)
    expect(body.market.convertedTo).toBeUndefined()
    expect(body.results.every((r: any) => r.price.converted === undefined)).toBe(true)
    expect(body.guidance).toContain("not comparable as shown")
  })

  it("with rates: one order by converted price, each figure and the rates' day in the answer", async () => {
    await service.run(
      Effect.gen(function* () {
        const db = yield* Database
        for (const [currency, rate] of Object.entries(RATES))
          yield* db.run(`INSERT INTO exchange_rates VALUES ($1, $2, CAST($3 AS DATE), 'test-rates', 'run-1')`, [
            currency,
            rate,
            AS_OF
          ])
        yield* (yield* ExchangeRates).reload
      })
    )
    const { status, body } = await get(cheap)
    expect(status).toBe(200)
    const toEur = (amount: number, currency: string) =>
      currency === "EUR" ? amount : amount / RATES[currency as keyof typeof RATES]
    expect(body.results.map((r: any) => [r.title, r.price.amount, r.price.currency])).toEqual([
      ["Kids Volume Limited Headphones", 19, "GBP"], // 22.35 EUR
      ["Sport Bluetooth Headphones", 59, "EUR"],
      ["Budget Wired Headphones", 79.99, "USD"], // 76.18 EUR
      ["Studio Monitor Headphones", 120, "GBP"], // 141.18 EUR
      [XM5.title, 279.99, "USD"] // its cheapest offer converted (266.66 EUR; 249 GBP is 292.94 EUR)
    ])
    const converted = body.results.map((r: any) => toEur(r.price.amount, r.price.currency))
    expect(converted).toEqual([...converted].sort((a, b) => a - b))
    expect(body.results[0].price.converted).toEqual({ amount: 22.35, currency: "EUR", ratesAsOf: AS_OF })
    expect(body.results[1].price.converted).toBeUndefined() // already in EUR
    expect(body.market).toMatchObject({
      country: null,
      currencies: ["EUR", "GBP", "USD"],
      countries: ["DE", "GB", "US"],
      convertedTo: { currency: "EUR", ratesAsOf: AS_OF }
    })
    expect(body.guidance).toContain(`ordered by price converted to EUR at the reference rates of ${AS_OF}`)

    const page = await fetch(`${service.url}/search?q=${encodeURIComponent("cheap headphones")}`).then((r) => r.text())
    expect(page).toContain(`ordered as converted to EUR at the reference exchange rates of ${AS_OF}`)
    expect(page).toMatch(new RegExp(`about 22,35\\s€ at the ${AS_OF} reference rate`))
  })

  it("a market answers in its own currency: nothing converted", async () => {
    const { body } = await get(`${cheap}&country=GB`)
    expect(body.results.map((r: any) => r.price.amount)).toEqual([19, 120, 249])
    expect(body.market.convertedTo).toBeUndefined()
    expect(body.market.countries).toEqual(["GB"])
    expect(body.results.every((r: any) => r.price.converted === undefined)).toBe(true)
  })
})
