// Prices as people write them: "$103.00", "£1,041.99", "153,99 €". Each
// currency is written the way a shopper paying in it reads it, so the locale
// comes from the currency, not from the reader. For pages and copy only:
// JSON keeps the number and the ISO code.

const LOCALE_OF_CURRENCY: Readonly<Record<string, string>> = {
  USD: "en-US",
  GBP: "en-GB",
  EUR: "de-DE",
  CAD: "en-CA",
  AUD: "en-AU",
  NZD: "en-NZ",
  CHF: "de-CH",
  SEK: "sv-SE",
  NOK: "nb-NO",
  DKK: "da-DK",
  PLN: "pl-PL",
  CZK: "cs-CZ",
  JPY: "ja-JP",
  INR: "en-IN",
  BRL: "pt-BR",
  MXN: "es-MX"
}

const formatters = new Map<string, Intl.NumberFormat | null>()

// Intl.NumberFormat is costly to build: one per currency, kept. null marks a
// code Intl rejects (not three letters).
const formatterFor = (currency: string): Intl.NumberFormat | null => {
  let formatter = formatters.get(currency)
  if (formatter === undefined) {
    try {
      formatter = new Intl.NumberFormat(LOCALE_OF_CURRENCY[currency] ?? "en-US", { style: "currency", currency })
    } catch {
      formatter = null
    }
    formatters.set(currency, formatter)
  }
  return formatter
}

const format = (amount: number, currency: string): string =>
  formatterFor(currency)?.format(amount) ?? `${(Math.round(amount * 100) / 100).toFixed(2)} ${currency}`

// A search result quotes its price two or three times (buying checks,
// assistant instructions) and popular prices repeat across searches:
// Intl's format costs ~1.5 µs a call, a Map look-up a tenth of that.
const formatted = new Map<string, string>()

/** `amount` in `currency` (ISO 4217) as written where that currency is used; "12.50 XX" for a code Intl rejects. */
export const formatPrice = (amount: number, currency: string): string => {
  const key = `${currency} ${amount}`
  let text = formatted.get(key)
  if (text === undefined) {
    text = format(amount, currency)
    if (formatted.size >= 10_000) formatted.clear()
    formatted.set(key, text)
  }
  return text
}
