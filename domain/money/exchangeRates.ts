// Reference exchange rates, so prices in different currencies can be put in
// one order without pretending 79.99 USD and 82.95 EUR are the same kind of
// number. The rates are the European Central Bank's daily euro foreign
// exchange reference rates (https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html,
// XML at /stats/eurofxref/eurofxref-daily.xml): units of each currency per
// 1 EUR. They are for ordering and comparing, never for charging: a shopper
// pays the store's own price in the store's currency.

export interface ExchangeRates {
  /** The day the rates are for (YYYY-MM-DD), or null when none are loaded. */
  readonly asOf: string | null
  /** Units of each currency per 1 EUR (EUR itself is 1). */
  readonly perEur: ReadonlyMap<string, number>
}

export const NO_RATES: ExchangeRates = { asOf: null, perEur: new Map([["EUR", 1]]) }

export const ratesOf = (asOf: string | null, rows: Iterable<readonly [string, number]>): ExchangeRates => ({
  asOf,
  perEur: new Map([["EUR", 1], ...rows])
})

/**
 * `amount` of `currency` in `target` at the reference rates, or undefined
 * when either currency has no rate (the caller keeps such an offer apart
 * rather than guess). The comparable price of the search's cheap ordering
 * when offers of several currencies meet in one answer.
 */
export const comparablePrice = (
  amount: number,
  currency: string,
  rates: ExchangeRates,
  target = "EUR"
): number | undefined => {
  if (currency === target) return amount
  const from = rates.perEur.get(currency)
  const to = rates.perEur.get(target)
  return from === undefined || to === undefined || from <= 0 ? undefined : (amount / from) * to
}

/**
 * An order of priced things, cheapest first, across currencies: each price
 * converted to EUR at the reference rates; things whose currency has no
 * rate come after every converted one, in their own currency's order.
 */
export const byComparablePrice =
  (rates: ExchangeRates) =>
  (
    a: { readonly price: number; readonly currency: string },
    b: { readonly price: number; readonly currency: string }
  ) => {
    const x = comparablePrice(a.price, a.currency, rates)
    const y = comparablePrice(b.price, b.currency, rates)
    if (x !== undefined && y !== undefined) return x - y
    if (x !== undefined) return -1
    if (y !== undefined) return 1
    return a.currency === b.currency ? a.price - b.price : a.currency < b.currency ? -1 : 1
  }

/** One rate of a reference-rates file, as read (checked by the loader). */
export interface RateLine {
  readonly currency: string
  readonly rate: string
}

/**
 * The rates of an ECB reference-rates XML file: the newest day's
 * `<Cube time='YYYY-MM-DD'>` and its `<Cube currency='USD' rate='1.0842'/>`
 * lines (the daily file has one day; the 90-day and historical files list
 * the newest first). Undefined when the file has no dated cube.
 */
export const parseEcbRates = (
  xml: string
): { readonly asOf: string; readonly lines: ReadonlyArray<RateLine> } | undefined => {
  const day = /<Cube\s+time\s*=\s*['"](\d{4}-\d{2}-\d{2})['"]\s*>([\s\S]*?)<\/Cube>/.exec(xml)
  if (day === null) return undefined
  const lines = [
    ...day[2].matchAll(/<Cube\s+currency\s*=\s*['"]([^'"]*)['"]\s+rate\s*=\s*['"]([^'"]*)['"]\s*\/>/g)
  ].map((match) => ({ currency: match[1], rate: match[2] }))
  return { asOf: day[1], lines }
}
