import type { Judgement } from "./judgement.ts"

// The "market purity per country" family of the judged set: every judged
// phrase asked again for each market the sample catalog sells in. An answer
// for a market must hold only offers priced in that market's currency (0
// mixed-currency answers is the target) and sold in its country (0 answers
// with a foreign-country offer: a French shopper is not shown German stores
// because both price in euros); the same phrases without a market show how
// often an answer spans currencies (the figure a market fixes). Measured on
// the answers themselves, so it needs no judged relevance.

/** The sample feeds' markets: the US (USD), the UK (GBP), and the euro countries whose stores the Awin sample holds. */
export const PURITY_MARKETS = [
  { country: "US", currency: "USD" },
  { country: "GB", currency: "GBP" },
  { country: "DE", currency: "EUR" },
  { country: "FR", currency: "EUR" },
  { country: "IT", currency: "EUR" },
  { country: "ES", currency: "EUR" }
] as const

/** One result of an answer: its offer's currency and where that offer sells. */
export interface PurityResult {
  readonly currency: string
  readonly countries: ReadonlyArray<string>
}

export interface PurityRow {
  /** The market asked for, or "none". */
  readonly country: string
  readonly queries: number
  /** Answers whose offers are priced in more than one currency. */
  readonly mixed: number
  /** Answers holding an offer in another currency than the market's (always 0 without a market). */
  readonly foreign: number
  /** Answers holding an offer not sold in the market's country (always 0 without a market). */
  readonly foreignCountry: number
  readonly empty: number
}

/** `search` answers a phrase (for a country, or none) with its results' currencies and countries, in order. */
export const marketPurity = async (
  judgements: ReadonlyArray<Judgement>,
  search: (q: string, country: string | undefined) => Promise<ReadonlyArray<PurityResult>>
): Promise<ReadonlyArray<PurityRow>> => {
  // a phrase that names a currency ("under $50") asks for that currency whatever the market
  const phrases = [...new Set(judgements.map((j) => j.q))].filter(
    (q) => !/[$€£]|\b(usd|eur|gbp|euros?|dollars?|pounds?|bucks)\b/i.test(q)
  )
  const rows: Array<PurityRow> = []
  for (const market of [undefined, ...PURITY_MARKETS]) {
    let mixed = 0
    let foreign = 0
    let foreignCountry = 0
    let empty = 0
    for (const q of phrases) {
      const results = await search(q, market?.country)
      const currencies = results.map((result) => result.currency)
      if (results.length === 0) empty++
      if (new Set(currencies).size > 1) mixed++
      if (market !== undefined && currencies.some((currency) => currency !== market.currency)) foreign++
      if (market !== undefined && results.some((result) => !result.countries.includes(market.country))) foreignCountry++
    }
    rows.push({ country: market?.country ?? "none", queries: phrases.length, mixed, foreign, foreignCountry, empty })
  }
  return rows
}

export const formatPurity = (rows: ReadonlyArray<PurityRow>): string =>
  [
    "market purity        queries  mixed  foreign  foreign-country  empty   (target with a market: 0 mixed, 0 foreign, 0 foreign-country)",
    ...rows.map(
      (row) =>
        `${row.country.padEnd(20)} ${String(row.queries).padStart(7)} ${String(row.mixed).padStart(6)} ` +
        `${String(row.foreign).padStart(8)} ${String(row.foreignCountry).padStart(16)} ${String(row.empty).padStart(6)}`
    )
  ].join("\n")
