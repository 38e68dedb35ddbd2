import { parse } from "tldts"
import { marketOf } from "../markets/markets.ts"

// The market a merchant URL names itself, if any: a country domain
// (amazon.co.uk, zalando.de) or a country or locale as the first path
// segment (nike.com/gb/..., apple.com/uk/..., ikea.com/de/de/...,
// zara.com/en-gb/...). A URL that names its market is matched to that
// market's programme whoever asks; only a URL that names none (nike.com/t/...)
// is matched by the visitor's market.

const LOCALE = /^([a-z]{2})(?:[-_]([a-z]{2}))?$/i

export const marketNamedByUrl = (url: URL): string | undefined => {
  const suffix = parse(url.hostname, { allowPrivateDomains: false }).publicSuffix ?? ""
  const tld = suffix.slice(suffix.lastIndexOf(".") + 1)
  const byDomain = tld.length === 2 ? marketOf(tld) : undefined
  if (byDomain !== undefined) return byDomain.country
  const first = url.pathname.split("/").find((segment) => segment !== "")
  const locale = first === undefined ? null : LOCALE.exec(first)
  if (locale === null) return undefined
  // "en-gb": the region names the country; "gb" alone: the segment is the country
  return marketOf(locale[2] ?? locale[1]!)?.country
}
