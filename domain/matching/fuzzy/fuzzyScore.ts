import type { Brand, BrandIndex } from "./brandIndex.ts"
import { isCommonWord } from "./commonWords.ts"
import { MATCH_THRESHOLD } from "./matchThreshold.ts"
import { damerauLevenshtein, type EditKind, editKind, jaroWinkler } from "./similarity.ts"
import { type HostParts, hostParts, pathSegments } from "./urlParts.ts"

// Which merchant a URL most likely means when no catalog domain matched it,
// and how sure we are (0..1). Two kinds of evidence:
//
// - the host: its registrable label is a brand on another suffix (nike.de),
//   a brand with a store word around it (dyson-store.de), or one typing slip
//   away from a brand (nikee.com, amazn.co.uk, bestbuyy.com);
// - the path, on a marketplace-looking page: a listing that names a brand
//   (some-market.example/listing/dyson-v15-detect-vacuum).
//
// Precision comes first: a wrong guess sends a shopper to a shop they did not
// mean under a partner's name, while "no match" only costs the partner one
// link. So everyday words are never guessed (nice.com is not Nike), short
// brands only accept unmistakable slips (doubled or swapped letters), and a
// brand in a path counts only on a page that looks like a product listing.

export { MATCH_THRESHOLD }

export type Evidence =
  | {
      readonly from: "host"
      readonly kind: "other_suffix" | "store_affix" | EditKind
      readonly text: string
      readonly edits: number
    }
  | { readonly from: "path"; readonly kind: "listing_brand"; readonly text: string; readonly edits: 0 }

export interface Candidate {
  readonly brand: Brand
  readonly confidence: number
  readonly evidence: Evidence
  /** The country the URL points at: its country-code suffix, or a country word in the label (nike-uk.com). */
  readonly country: string | null
}

export type FuzzyOutcome =
  | {
      readonly kind: "candidate"
      readonly best: Candidate
      readonly host: HostParts
      readonly runnerUp: Candidate | undefined
    }
  | { readonly kind: "none"; readonly host: HostParts | undefined }
  /** The site is in the catalog only through another host of it (google.com vs store.google.com). */
  | { readonly kind: "known_site"; readonly host: HostParts }

// Base confidence of one slip, by kind; null = not accepted for that key.
const SLIP_BASE: Partial<Record<EditKind, number>> = {
  doubled_letter: 0.9,
  repeated_dropped: 0.88,
  transposition: 0.86,
  missing_letter: 0.84,
  adjacent_key: 0.8,
  extra_letter: 0.78,
  substitution: 0.74
}
const UNMISTAKABLE: ReadonlySet<EditKind> = new Set(["doubled_letter", "repeated_dropped", "transposition"])

/** Confidence that `label` (the typed registrable label) means `brand`, or undefined. */
export const hostLabelScore = (
  label: string,
  brand: Brand
): { confidence: number; kind: EditKind; edits: number } | undefined => {
  if (!brand.hostMatchable || brand.level === "word") return undefined
  const key = brand.key
  if (label === key) return { confidence: brand.level === "distinctive" ? 0.9 : 0.85, kind: "exact", edits: 0 }
  if (Math.abs(label.length - key.length) > 2 || isCommonWord(label)) return undefined
  const edits = damerauLevenshtein(label, key)
  if (edits > 2) return undefined
  const kind = edits === 1 ? editKind(label, key) : "distant"
  let base: number | undefined
  if (edits === 2) base = key.length >= 8 && brand.level === "distinctive" ? 0.72 : undefined
  else if (brand.level === "compound" || key.length <= 4) base = UNMISTAKABLE.has(kind) ? SLIP_BASE[kind] : undefined
  else if (kind === "substitution") base = key.length >= 8 ? SLIP_BASE.substitution : undefined
  else base = SLIP_BASE[kind]
  if (base === undefined) return undefined
  // Jaro-Winkler weighs where the slip is: a wrong first letter is rarer as a typo than a wrong last one.
  return { confidence: base * (0.7 + 0.3 * jaroWinkler(label, key)), kind, edits }
}

// Store words around a brand in a domain label: nikestore.de, dyson-uk.com, shop-lego.fr.
// A country among them says which of the brand's countries is meant.
const STORE_AFFIXES = [
  "official",
  "online",
  "outlet",
  "store",
  "shop",
  "usa",
  "uk",
  "us",
  "eu",
  "de",
  "fr",
  "es",
  "it",
  "nl",
  "the",
  "my"
]
const AFFIX_COUNTRIES: Record<string, string> = {
  usa: "US",
  us: "US",
  uk: "GB",
  de: "DE",
  fr: "FR",
  es: "ES",
  it: "IT",
  nl: "NL"
}

const affixCores = (host: HostParts): ReadonlyArray<{ readonly core: string; readonly country: string | null }> => {
  const cores = new Map<string, string | null>()
  const removed = host.labelWords.filter((word) => STORE_AFFIXES.includes(word))
  const words = host.labelWords.filter((word) => !STORE_AFFIXES.includes(word))
  if (words.length > 0 && removed.length > 0) {
    cores.set(words.join(""), removed.map((word) => AFFIX_COUNTRIES[word]).find((c) => c !== undefined) ?? null)
  }
  for (const affix of STORE_AFFIXES) {
    if (host.label.startsWith(affix)) cores.set(host.label.slice(affix.length), AFFIX_COUNTRIES[affix] ?? null)
    if (host.label.endsWith(affix)) cores.set(host.label.slice(0, -affix.length), AFFIX_COUNTRIES[affix] ?? null)
  }
  cores.delete(host.label)
  return [...cores].filter(([core]) => core.length >= 4).map(([core, country]) => ({ core, country }))
}

// Pages about a brand rather than selling it, and sites that are not shops.
const CONTENT_SEGMENTS = new Set([
  "wiki",
  "news",
  "blog",
  "blogs",
  "article",
  "articles",
  "story",
  "stories",
  "forum",
  "forums",
  "docs",
  "doc",
  "help",
  "support",
  "about",
  "careers",
  "jobs",
  "press",
  "investors",
  "investor",
  "topics",
  "topic",
  "tag",
  "tags",
  "r"
])
const NON_SHOP_HOST_WORDS = ["wiki", "news", "blog", "bank", "github", "gitlab", "forum", "press", "journal", "times"]
const NON_SHOP_SITES = new Set([
  "google",
  "youtube",
  "facebook",
  "twitter",
  "x",
  "instagram",
  "tiktok",
  "reddit",
  "linkedin",
  "medium",
  "wordpress",
  "blogspot",
  "substack",
  "tumblr",
  "bbc",
  "cnn",
  "nytimes",
  "theguardian",
  "guardian",
  "reuters",
  "bloomberg",
  "forbes",
  "wikipedia",
  "stackoverflow",
  "quora",
  "pinterest",
  "bing",
  "duckduckgo",
  "yahoo"
])
// Path segments and host words of product listings.
const LISTING_SEGMENTS = new Set([
  "listing",
  "listings",
  "item",
  "items",
  "itm",
  "product",
  "products",
  "p",
  "dp",
  "buy",
  "shop",
  "store",
  "sale",
  "sales",
  "deal",
  "deals",
  "offer",
  "offers",
  "marketplace",
  "market",
  "ad",
  "ads",
  "classified",
  "classifieds",
  "auction",
  "auctions",
  "catalog",
  "catalogue",
  "goods",
  "i",
  "l"
])
const LISTING_HOST_WORDS = [
  "market",
  "shop",
  "store",
  "deals",
  "mall",
  "bazaar",
  "outlet",
  "auction",
  "resale",
  "trade"
]

const looksLikeNonShop = (host: HostParts) =>
  NON_SHOP_SITES.has(host.label) ||
  NON_SHOP_HOST_WORDS.some((word) => host.label.includes(word)) ||
  host.host.split(".").some((label) => NON_SHOP_HOST_WORDS.some((word) => label === word || label.startsWith(word)))

/** The first distinctive brand a listing path names, with its confidence. */
export const pathBrand = (host: HostParts, pathname: string, index: BrandIndex): Candidate | undefined => {
  if (looksLikeNonShop(host)) return undefined
  const segments = pathSegments(pathname)
  if (segments.some((words) => words.length === 1 && CONTENT_SEGMENTS.has(words[0]))) return undefined
  const listingHost = LISTING_HOST_WORDS.some((word) => host.label.includes(word))
  const listingAt = segments.findIndex((words) => words.length === 1 && LISTING_SEGMENTS.has(words[0]))
  const found: Array<{ brand: Brand; text: string; leading: boolean; model: boolean }> = []
  segments.forEach((words, s) => {
    if (listingAt >= 0 && s <= listingAt) return
    const model = words.some((word) => /[a-z]/.test(word) && /[0-9]/.test(word))
    for (let i = 0; i < words.length; i++) {
      for (let n = Math.min(4, words.length - i); n >= 1; n--) {
        const brand = index.byKey.get(words.slice(i, i + n).join(""))
        // Everyday-word names count only as a long phrase (the-north-face), never as one or two words (best-buy, wave-labs).
        if (brand === undefined || !(brand.level === "distinctive" || (brand.level === "compound" && n >= 3))) continue
        if (!found.some((f) => f.brand === brand))
          found.push({ brand, text: words.slice(i, i + n).join("-"), leading: i === 0, model })
        i += n - 1
        break
      }
    }
  })
  if (found.length === 0) return undefined
  const first = found[0]
  // Without a listing signal a brand in a path is a mention, not an offer: reported, never matched.
  const base = listingAt >= 0 || listingHost ? 0.78 : 0.5
  const confidence = base + (first.leading ? 0.04 : 0) + (first.model ? 0.03 : 0) - (found.length > 1 ? 0.12 : 0)
  return {
    brand: first.brand,
    confidence,
    evidence: { from: "path", kind: "listing_brand", text: first.text, edits: 0 },
    country: host.country
  }
}

// Suffixes of foundations, projects and developer sites rather than shops:
// dell.org is a foundation, adobe.io a developer portal. A brand's label there
// is reported, not matched.
const NON_COMMERCE_SUFFIXES = new Set([
  "org",
  "edu",
  "gov",
  "mil",
  "int",
  "io",
  "dev",
  "app",
  "ai",
  "info",
  "wiki",
  "foundation",
  "ngo",
  "museum",
  "gov.uk",
  "org.uk",
  "ac.uk"
])
const NON_COMMERCE_PENALTY = 0.25

/** Ambiguity: a runner-up this close, for another brand, costs the best candidate. */
const AMBIGUITY_MARGIN = 0.05
const AMBIGUITY_PENALTY = 0.1

/**
 * Scores the URL against `candidates` (brand keys from the search index), or
 * against every brand of the index ("all": the in-memory fallback). Exact
 * keys of the label, its store-word cores and the path are always looked up.
 */
export const scoreUrl = (url: URL, index: BrandIndex, candidates: ReadonlySet<string> | "all"): FuzzyOutcome => {
  const host = hostParts(url.hostname)
  if (host === undefined) return { kind: "none", host }
  if (index.parentOnly.has(host.registrable)) return { kind: "known_site", host }
  // nike.github.io, nike.myshopify.com: anyone can name a site there; it is not the brand's.
  if (host.userHosted) return { kind: "none", host }

  const scored: Array<Candidate> = []
  const suffixPenalty = NON_COMMERCE_SUFFIXES.has(host.suffix) ? NON_COMMERCE_PENALTY : 0
  const consider = (brand: Brand | undefined) => {
    if (brand === undefined || scored.some((c) => c.brand === brand)) return
    const score = hostLabelScore(host.label, brand)
    if (score === undefined) return
    const kind = score.kind === "exact" ? "other_suffix" : score.kind
    scored.push({
      brand,
      confidence: score.confidence - suffixPenalty,
      evidence: { from: "host", kind, text: host.label, edits: score.edits },
      country: host.country
    })
  }
  consider(index.byKey.get(host.label))
  if (candidates === "all") for (const brand of index.byKey.values()) consider(brand)
  else for (const key of candidates) consider(index.byKey.get(key))

  if (!isCommonWord(host.label)) {
    for (const { core, country } of affixCores(host)) {
      const brand = index.byKey.get(core)
      if (
        brand === undefined ||
        !brand.hostMatchable ||
        brand.level === "word" ||
        scored.some((c) => c.brand === brand)
      )
        continue
      scored.push({
        brand,
        confidence: (brand.level === "distinctive" ? 0.84 : 0.8) - suffixPenalty,
        evidence: { from: "host", kind: "store_affix", text: host.label, edits: 0 },
        country: host.country ?? country
      })
    }
  }

  // The host is the stronger evidence; the path is read only when the host says nothing.
  if (scored.length === 0) {
    const inPath = pathBrand(host, url.pathname, index)
    return inPath === undefined
      ? { kind: "none", host }
      : { kind: "candidate", best: inPath, host, runnerUp: undefined }
  }
  scored.sort((a, b) => b.confidence - a.confidence || (a.brand.key < b.brand.key ? -1 : 1))
  const [first, second] = scored
  const sameMerchant =
    second !== undefined && second.brand.domains.some((d) => first.brand.domains.some((e) => e.domain === d.domain))
  const ambiguous = second !== undefined && !sameMerchant && first.confidence - second.confidence < AMBIGUITY_MARGIN
  const best = ambiguous ? { ...first, confidence: first.confidence - AMBIGUITY_PENALTY } : first
  return { kind: "candidate", best, host, runnerUp: second }
}
