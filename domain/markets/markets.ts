// A market is where a shopper buys: a country (ISO 3166-1 alpha-2) with the
// currency its stores price in (ISO 4217) and its main language. An answer
// for a market shows only offers priced in that currency, and reads price
// words ("under 100") in it. The table covers every country the sample
// feeds and programmes sell in, plus common ones; a country missing here is
// refused with the list of those we know rather than guessed.

export interface Market {
  readonly country: string
  readonly currency: string
  /** ISO 639-1 language of the market's pages and copy. */
  readonly language: string
  readonly name: string
}

const market = (country: string, currency: string, language: string, name: string): Market => ({
  country,
  currency,
  language,
  name
})

export const MARKETS: ReadonlyArray<Market> = [
  market("US", "USD", "en", "United States"),
  market("GB", "GBP", "en", "United Kingdom"),
  market("IE", "EUR", "en", "Ireland"),
  market("DE", "EUR", "de", "Germany"),
  market("AT", "EUR", "de", "Austria"),
  market("CH", "CHF", "de", "Switzerland"),
  market("FR", "EUR", "fr", "France"),
  market("BE", "EUR", "nl", "Belgium"),
  market("NL", "EUR", "nl", "Netherlands"),
  market("LU", "EUR", "fr", "Luxembourg"),
  market("IT", "EUR", "it", "Italy"),
  market("ES", "EUR", "es", "Spain"),
  market("PT", "EUR", "pt", "Portugal"),
  market("FI", "EUR", "fi", "Finland"),
  market("GR", "EUR", "el", "Greece"),
  market("SE", "SEK", "sv", "Sweden"),
  market("DK", "DKK", "da", "Denmark"),
  market("NO", "NOK", "nb", "Norway"),
  market("PL", "PLN", "pl", "Poland"),
  market("CZ", "CZK", "cs", "Czechia"),
  market("RO", "RON", "ro", "Romania"),
  market("CA", "CAD", "en", "Canada"),
  market("MX", "MXN", "es", "Mexico"),
  market("BR", "BRL", "pt", "Brazil"),
  market("AU", "AUD", "en", "Australia"),
  market("NZ", "NZD", "en", "New Zealand"),
  market("JP", "JPY", "ja", "Japan"),
  market("KR", "KRW", "ko", "South Korea"),
  market("IN", "INR", "en", "India"),
  market("SG", "SGD", "en", "Singapore"),
  market("MY", "MYR", "ms", "Malaysia"),
  market("AE", "AED", "ar", "United Arab Emirates")
]

const BY_COUNTRY = new Map(MARKETS.map((m) => [m.country, m]))

/** Every currency some market prices in (what a `currency` parameter may ask for). */
export const MARKET_CURRENCIES: ReadonlyArray<string> = [...new Set(MARKETS.map((m) => m.currency))].sort()
export const MARKET_COUNTRIES: ReadonlyArray<string> = MARKETS.map((m) => m.country)

/** The market of a country code (any case; "UK" is read as GB, as shoppers write it). */
export const marketOf = (country: string): Market | undefined => {
  const code = country.trim().toUpperCase()
  return BY_COUNTRY.get(code === "UK" ? "GB" : code)
}

export const isMarketCurrency = (currency: string) => MARKET_CURRENCIES.includes(currency.trim().toUpperCase())

/**
 * The region of the first language range of an Accept-Language header that
 * names a known market ("en-GB,en;q=0.9" is GB), by q-value, then order.
 * A language alone ("de") names no country: Germans, Austrians and Swiss
 * all send it, so it never picks a market.
 */
export const regionOfAcceptLanguage = (header: string | undefined): Market | undefined => {
  if (header === undefined || header.length > 1_000) return undefined
  const ranges = header
    .split(",")
    .slice(0, 20)
    .map((part, order) => {
      const [tag = "", ...params] = part.trim().split(";")
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined)
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), order }
    })
    .filter((range) => Number.isFinite(range.q) && range.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order)
  for (const { tag } of ranges) {
    // language-REGION, language-Script-REGION: the region is the 2-letter subtag after the language
    const region = tag
      .split(/[-_]/)
      .slice(1)
      .find((sub) => /^[A-Za-z]{2}$/.test(sub))
    const found = region === undefined ? undefined : marketOf(region)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * The countries an offer sells in, from its stored list (comma-separated
 * ISO codes, pipelines/products/ProductLoader.ts). An offer whose feed said
 * nowhere counts as sold in every market of its currency: its currency is
 * the only thing known of where it sells, and a market filtered on country
 * then answers as it did on currency alone rather than dropping it.
 */
export const sellingCountries = (stored: string | null | undefined, currency: string): ReadonlyArray<string> => {
  const listed = (stored ?? "")
    .split(",")
    .map((code) => code.trim())
    .filter((code) => code !== "")
  return listed.length > 0 ? listed : MARKETS.filter((m) => m.currency === currency).map((m) => m.country)
}

/** Where the market of a request came from, said in answers so an agent knows why these prices. */
export type MarketSource = "parameter" | "accept-language" | "default"

/** The market a request is answered for, and the currency its prices are in (the market's, unless asked otherwise). */
export interface ChosenMarket {
  readonly market: Market
  readonly currency: string
  readonly source: MarketSource
}

export interface MarketRequest {
  /** A validated `country` parameter. */
  readonly country?: string | undefined
  /** A validated `currency` parameter (another currency than the market's). */
  readonly currency?: string | undefined
  /** Pages only: the browser's Accept-Language header. */
  readonly acceptLanguage?: string | undefined
  /** The operator's DEFAULT_COUNTRY. */
  readonly defaultCountry?: string | undefined
}

/**
 * The request's market: the `country` parameter, else Accept-Language's
 * region (pages), else DEFAULT_COUNTRY; none when none of them names one.
 * A `currency` parameter alone makes no market, but filters the answer.
 */
export const chooseMarket = (request: MarketRequest): ChosenMarket | undefined => {
  const fromParameter = request.country === undefined ? undefined : marketOf(request.country)
  const fromHeader = fromParameter === undefined ? regionOfAcceptLanguage(request.acceptLanguage) : undefined
  const fromDefault =
    fromParameter === undefined && fromHeader === undefined && request.defaultCountry !== undefined
      ? marketOf(request.defaultCountry)
      : undefined
  const chosen = fromParameter ?? fromHeader ?? fromDefault
  if (chosen === undefined) return undefined
  const source: MarketSource =
    fromParameter !== undefined ? "parameter" : fromHeader !== undefined ? "accept-language" : "default"
  const currency = request.currency?.trim().toUpperCase() || chosen.currency
  return { market: chosen, currency, source }
}

/** What an answer says about its market: the chosen one, or none (then the currencies it spans). */
export interface MarketNote {
  readonly country: string | null
  readonly currency: string | null
  readonly source: MarketSource | null
  /** The currencies of the offers in the answer, sorted: one for a market, maybe several without one. */
  readonly currencies: ReadonlyArray<string>
  /** The countries the answer's offers sell in, sorted: the markets an answer spans. */
  readonly countries?: ReadonlyArray<string>
  /** When prices of several currencies were ordered converted: into what, at which day's rates. */
  readonly convertedTo?: { readonly currency: string; readonly ratesAsOf: string; readonly source: string }
}

/** Where reference rates come from, as answers name it. */
export const RATES_SOURCE = "European Central Bank euro foreign exchange reference rates"

export const marketNote = (
  chosen: ChosenMarket | undefined,
  shown: Iterable<string>,
  more: {
    readonly countries?: Iterable<string>
    readonly converted?: { readonly currency: string; readonly ratesAsOf: string } | undefined
  } = {}
): MarketNote => {
  const currencies = [...new Set(shown)].sort()
  const countries =
    more.countries === undefined
      ? undefined
      : chosen !== undefined && currencies.every((currency) => currency === chosen.market.currency)
        ? [chosen.market.country]
        : [...new Set(more.countries)].sort()
  return {
    country: chosen?.market.country ?? null,
    currency: chosen?.currency ?? null,
    source: chosen?.source ?? null,
    currencies,
    ...(countries === undefined ? {} : { countries }),
    // said only where it mattered: prices of more than one currency in one order
    ...(more.converted !== undefined && currencies.length > 1
      ? {
          convertedTo: {
            currency: more.converted.currency,
            ratesAsOf: more.converted.ratesAsOf,
            source: RATES_SOURCE
          }
        }
      : {})
  }
}

/** One sentence for guidance: which market, or which currencies an answer without one spans. */
export const describeMarket = (note: MarketNote): string =>
  note.country !== null
    ? `Market: ${note.country} (prices in ${note.currency}, from the ${note.source === "parameter" ? "country parameter" : note.source === "accept-language" ? "browser's language region" : "operator's default country"}); only offers priced in ${note.currency} are shown.`
    : note.currencies.length > 1 && note.convertedTo !== undefined
      ? `No market given: these results span ${note.currencies.join(", ")}${note.countries === undefined ? "" : ` (stores in ${note.countries.join(", ")})`}; they are ordered by price converted to ${note.convertedTo.currency} at the reference rates of ${note.convertedTo.ratesAsOf} (each result's price.converted, for comparing only: the store charges its own price in its own currency; pass country to get one market).`
      : note.currencies.length > 1
        ? `No market given: these results span ${note.currencies.join(", ")}${note.countries === undefined ? "" : ` (stores in ${note.countries.join(", ")})`}; prices in different currencies are not comparable as shown (pass country to get one market).`
        : note.currencies.length === 1
          ? `No market given: these results are all priced in ${note.currencies[0]}.`
          : "No market given."
