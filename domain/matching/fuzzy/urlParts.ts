import { parse } from "tldts"

// The parts of a URL fuzzy matching reads: the registrable label of the host
// (what a shopper types and mistypes), the country its suffix names, and the
// words of the path.

export interface HostParts {
  readonly host: string
  /** eTLD+1, e.g. "nikee.co.uk" */
  readonly registrable: string
  /** The registrable label without hyphens, lower-case: "best-buyy" -> "bestbuyy" */
  readonly label: string
  /** The label's hyphen-separated words: "dyson-store" -> ["dyson", "store"] */
  readonly labelWords: ReadonlyArray<string>
  /** e.g. "co.uk" */
  readonly suffix: string
  /** ISO country of a country-code suffix ("co.uk" -> "GB", "de" -> "DE"); null for .com, .org, .shop... */
  readonly country: string | null
  /** A user-hosted site under a private suffix (*.github.io, *.myshopify.com, *.blogspot.com) */
  readonly userHosted: boolean
}

// Two-letter suffixes that are not countries (or are used as generic ones).
const NOT_COUNTRIES = new Set(["eu", "io", "co", "me", "tv", "ai", "ly", "fm", "gg", "to", "cc", "ws", "app"])

export const countryOfSuffix = (suffix: string): string | null => {
  const last = suffix.slice(suffix.lastIndexOf(".") + 1).toLowerCase()
  if (!/^[a-z]{2}$/.test(last) || NOT_COUNTRIES.has(last)) return null
  return last === "uk" ? "GB" : last.toUpperCase()
}

export const hostParts = (hostname: string): HostParts | undefined => {
  const host = hostname.toLowerCase().replace(/\.+$/, "")
  const info = parse(host, { allowPrivateDomains: true })
  if (info.isIp || info.domain === null || info.domainWithoutSuffix === null || info.domainWithoutSuffix === "")
    return undefined
  const raw = info.domainWithoutSuffix
  const suffix = info.publicSuffix ?? ""
  return {
    host,
    registrable: info.domain,
    label: raw.replace(/-/g, ""),
    labelWords: raw.split("-").filter((word) => word.length > 0),
    suffix,
    country: countryOfSuffix(suffix),
    userHosted: info.isPrivate === true
  }
}

/** Lower-case ASCII letters and digits only: accents dropped, everything else a separator. */
export const normaliseText = (text: string): string =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()

const safeDecode = (segment: string): string => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** Each path segment as its words: "/listing/dyson-v15-detect" -> [["listing"], ["dyson", "v15", "detect"]]. */
export const pathSegments = (pathname: string): ReadonlyArray<ReadonlyArray<string>> =>
  pathname
    .split("/")
    .map((segment) =>
      normaliseText(safeDecode(segment))
        .replace(/'/g, "")
        .split(/[^a-z0-9]+/)
        .filter((word) => word.length > 0)
    )
    .filter((words) => words.length > 0)
