import { describePrice, type Intent, quote } from "../domain/intent/parseIntent.ts"

// A market narrows a search to the offers priced in its currency, and a
// price phrase without a currency ("under 100") is read in it: in GB that
// is £100. Done on the phrase's reading (the Intent), so the relaxation
// ladder keeps the currency as the hard constraint it already is for
// "under £100", and its probes say what it excluded.

/** The filter clause that keeps only offers priced in `currency` (checked per offer, readModel/offerFilter.ts). */
export const currencyFilter = (currency: string) => `currency = ${quote(currency)}`

/**
 * The filter clause that keeps only offers sold in `country` (each offer's
 * `countries`, from its feed: readModel/documents.ts). A market's currency is
 * shared by many countries (EUR: DE, FR, IT, ES, ...), so the currency alone
 * would show a French shopper German stores.
 */
export const countryFilter = (country: string) => `countries = ${quote(country)}`

/**
 * The intent read for a market whose prices are in `currency` (none: as read)
 * and whose stores are in `country` (none: any country; the caller passes
 * one only while the market's own currency is asked for). A phrase that
 * names its own currency ("under $50") is the shopper asking for that one,
 * so it stays as typed, and, another than the market's, is shopping abroad
 * as a `currency` parameter is: offers priced in it from any country.
 */
export const intentInCurrency = (intent: Intent, currency: string | undefined, country?: string): Intent => {
  const named = intent.price?.currency
  const inCountry =
    country === undefined || (named !== undefined && named !== currency)
      ? intent
      : { ...intent, filters: [...intent.filters, countryFilter(country)] }
  if (currency === undefined || named !== undefined) return inCountry
  const filters = [...inCountry.filters, currencyFilter(currency)]
  if (intent.price === undefined) return { ...intent, filters }
  // the phrase's price, now with its currency, said as such in the interpretation
  const price = { ...intent.price, currency: currency as NonNullable<Intent["price"]>["currency"] }
  return {
    ...intent,
    price,
    filters,
    interpretation: intent.interpretation.replace(describePrice(intent.price), describePrice(price))
  }
}
