import { Option, Schema } from "effect"
import {
  chooseMarket,
  type ChosenMarket,
  isMarketCurrency,
  MARKET_COUNTRIES,
  MARKET_CURRENCIES,
  marketOf
} from "../../domain/markets/markets.ts"

// The shopper's market as request parameters, shared by /api/search,
// /api/deals and /api/v1/ai/deals: `country` picks the market (its currency
// and the currency price words are read in), `currency` asks for another
// currency than the market's. Both optional; a value we have no market or
// currency for is a 400 naming the field, never a silently wider answer.

/** What each market parameter accepts, for the API's schemas and the pages' own messages. */
export const MARKET_PARAMS = {
  country: { known: MARKET_COUNTRIES, accepts: (code: string) => marketOf(code) !== undefined },
  currency: { known: MARKET_CURRENCIES, accepts: isMarketCurrency }
} as const

export const CountryParam = Schema.String.check(
  Schema.makeFilter((code: string) =>
    MARKET_PARAMS.country.accepts(code)
      ? true
      : `must be an ISO 3166-1 alpha-2 country we sell in: ${MARKET_COUNTRIES.join(", ")}`
  )
).annotate({
  description:
    "The shopper's country (ISO 3166-1 alpha-2, e.g. US, GB, DE): only offers priced in its currency, and price " +
    "words read in it ('under 100' in GB is £100). Default: the operator's DEFAULT_COUNTRY, else every market " +
    "(the answer's market.currencies says which currencies it spans)."
})

export const CurrencyParam = Schema.String.check(
  Schema.makeFilter((code: string) =>
    MARKET_PARAMS.currency.accepts(code)
      ? true
      : `must be an ISO 4217 currency of a market: ${MARKET_CURRENCIES.join(", ")}`
  )
).annotate({
  description:
    "Only offers priced in this currency (ISO 4217), when the shopper wants another than the market's. " +
    "Default: the market's currency."
})

/** The query fields every market-aware endpoint adds. */
export const marketFields = {
  country: Schema.optional(CountryParam),
  currency: Schema.optional(CurrencyParam)
}

export interface MarketParams {
  readonly country?: string | undefined
  readonly currency?: string | undefined
}

/**
 * The country whose stores answer a market: the market's, while its own
 * currency is asked for. A `currency` parameter naming another is the
 * shopper shopping abroad: offers priced in it, from any country.
 */
export const sellingCountry = (chosen: ChosenMarket | undefined): string | undefined =>
  chosen !== undefined && chosen.currency === chosen.market.currency ? chosen.market.country : undefined

/**
 * The market of an API request: its parameters, else the operator's default
 * (APIs do not guess from Accept-Language: an agent's header is its own, not
 * its shopper's). A currency alone selects offers, without a market.
 */
export const requestMarket = (
  params: MarketParams,
  defaultCountry: Option.Option<string>,
  acceptLanguage?: string
): {
  readonly chosen: ChosenMarket | undefined
  readonly currency: string | undefined
  readonly country: string | undefined
} => {
  const chosen = chooseMarket({
    country: params.country,
    currency: params.currency,
    acceptLanguage,
    defaultCountry: Option.getOrUndefined(defaultCountry)
  })
  return {
    chosen,
    currency: chosen?.currency ?? params.currency?.trim().toUpperCase(),
    country: sellingCountry(chosen)
  }
}

/**
 * The market of the visitor behind a link request: the `country` given,
 * else the region of the request's Accept-Language (the visitor's browser,
 * or an agent speaking for one), else DEFAULT_COUNTRY.
 */
export const visitorMarket = (
  country: string | undefined,
  acceptLanguage: string | undefined,
  defaultCountry: Option.Option<string>
): ChosenMarket | undefined =>
  chooseMarket({ country, acceptLanguage, defaultCountry: Option.getOrUndefined(defaultCountry) })
