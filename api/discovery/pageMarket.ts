import { Option } from "effect"
import type { ChosenMarket } from "../../domain/markets/markets.ts"
import { MARKET_PARAMS, requestMarket } from "./marketParams.ts"
import type { ConvertedPrices } from "../../discovery/priceOrder.ts"
import { comparablePrice } from "../../domain/money/exchangeRates.ts"
import { formatPrice } from "../../domain/money/formatPrice.ts"
import { round2 } from "../../domain/money/round2.ts"

// The market of a page request (/search): the `country` parameter, else the
// region of the browser's Accept-Language ("en-GB" is GB), else the
// operator's DEFAULT_COUNTRY. A page may guess from the header because a
// person's browser speaks for that person; the APIs do not.

export type PageMarket =
  | { readonly kind: "invalid"; readonly problem: string }
  | {
      readonly kind: "ok"
      readonly chosen: ChosenMarket | undefined
      readonly currency: string | undefined
      readonly country: string | undefined
    }

export const pageMarket = (
  params: URLSearchParams,
  acceptLanguage: string | undefined,
  defaultCountry: Option.Option<string>
): PageMarket => {
  const country = params.get("country")?.trim() || undefined
  const currency = params.get("currency")?.trim() || undefined
  for (const [field, value] of [
    ["country", country],
    ["currency", currency]
  ] as const) {
    const param = MARKET_PARAMS[field]
    if (value !== undefined && !param.accepts(value))
      return {
        kind: "invalid",
        problem: `We do not know the ${field} “${value.slice(0, 20)}”. Use one of ${param.known.join(", ")}.`
      }
  }
  return { kind: "ok", ...requestMarket({ country, currency }, defaultCountry, acceptLanguage) }
}

/** What the results page says about its market, beside how the phrase was read. */
export const pageMarketText = (
  chosen: ChosenMarket | undefined,
  shown: ReadonlyArray<{ currency: string }>,
  converted?: ConvertedPrices
) => {
  if (chosen !== undefined) return `prices in ${chosen.currency} for ${chosen.market.name}`
  const currencies = [...new Set(shown.map((doc) => doc.currency))].sort()
  return currencies.length > 1
    ? converted !== undefined
      ? `no country chosen: prices in ${currencies.join(", ")}, ordered as converted to ${converted.currency} at the reference exchange rates of ${converted.ratesAsOf}`
      : `no country chosen: prices in ${currencies.join(", ")} (not comparable as shown)`
    : "no country chosen"
}

/** A result's price as the order converted it, said beside it; none where nothing was converted. */
export const convertedText = (
  doc: { readonly price: number; readonly currency: string },
  shown: ReadonlyArray<{ currency: string }>,
  converted: ConvertedPrices | undefined
): string | undefined => {
  if (converted === undefined || doc.currency === converted.currency) return undefined
  if (new Set(shown.map((other) => other.currency)).size < 2) return undefined
  const amount = comparablePrice(doc.price, doc.currency, converted.rates, converted.currency)
  return amount === undefined
    ? undefined
    : `about ${formatPrice(round2(amount), converted.currency)} at the ${converted.ratesAsOf} reference rate`
}
