import { describePrice, type Intent, quote } from "../domain/intent/parseIntent.ts"

// A market narrows a search to the offers priced in its currency, and a
// price phrase without a currency ("under 100") is read in it: in GB that
// is £100. Done on the phrase's reading (the Intent), so the relaxation
// ladder keeps the currency as the hard constraint it already is for
// "under £100", and its probes say what it excluded.

/** The filter clause that keeps only offers priced in `currency` (checked per offer, readModel/offerFilter.ts). */
export const currencyFilter = (currency: string) => `currency = ${quote(currency)}`

/**
 * The intent read for a market whose prices are in `currency` (none: as read).
 * A phrase that names its own currency ("under $50") is the shopper asking
 * for that one, so it stays as typed.
 */
export const intentInCurrency = (intent: Intent, currency: string | undefined): Intent => {
  if (currency === undefined || intent.price?.currency !== undefined) return intent
  const filters = [...intent.filters, currencyFilter(currency)]
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
