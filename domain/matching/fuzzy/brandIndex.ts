import type { Catalog, CatalogProgram } from "../catalog.ts"
import { isCommonWord } from "./commonWords.ts"
import { hostParts, normaliseText } from "./urlParts.ts"

// The merchants of the catalog as "brand keys": the compact spellings a
// shopper would type or a listing would name. "nike" (nike.com), "bestbuy"
// (bestbuy.com, "Best Buy"), "dyson" (dyson.com, dyson.co.uk, "Dyson UK"),
// "lecreuset" ("Le Creuset"). One key groups every catalog domain spelled
// that way, so a brand on several country domains is one brand.

/**
 * How safely a key can be guessed from a near miss:
 * - word: an everyday word or shorter than 4 letters (next, very, gap, hp): never guessed
 * - compound: made only of everyday words (bestbuy, wavelabs): exact spellings and
 *   unmistakable slips (doubled or swapped letters) only, and never from a path
 * - distinctive: everything else (nike, dyson, lululemon)
 */
export type KeyLevel = "word" | "compound" | "distinctive"

export interface BrandDomain {
  readonly domain: string
  /** Countries of the programmes on this domain (null = global). */
  readonly countries: ReadonlySet<string | null>
}

export interface Brand {
  readonly key: string
  /** A programme name for people: the shortest name seen for the key. */
  readonly name: string
  readonly domains: ReadonlyArray<BrandDomain>
  /**
   * False when the key only names a site the catalog knows through one
   * subdomain: "google" from "Google Store" (store.google.com) must not turn
   * google.de into a Google Store link.
   */
  readonly hostMatchable: boolean
  readonly level: KeyLevel
}

export interface BrandIndex {
  readonly byKey: ReadonlyMap<string, Brand>
  readonly keysOfProgram: ReadonlyMap<string, ReadonlyArray<string>>
  /**
   * Registrable domains the catalog knows only as the parent of a programme's
   * subdomain (google.com for store.google.com): the site is recognised and
   * is not a shop we cover, so nothing is guessed for it.
   */
  readonly parentOnly: ReadonlySet<string>
}

// Words that qualify a programme's name rather than name the merchant.
const NAME_QUALIFIERS = new Set([
  "uk",
  "gb",
  "us",
  "usa",
  "de",
  "fr",
  "it",
  "es",
  "nl",
  "se",
  "au",
  "ca",
  "jp",
  "in",
  "br",
  "pl",
  "sg",
  "my",
  "be",
  "mx",
  "ae",
  "ro",
  "kr",
  "canada",
  "australia",
  "germany",
  "france",
  "italy",
  "spain",
  "japan",
  "singapore",
  "malaysia",
  "india",
  "store",
  "shop",
  "official",
  "online",
  "direct",
  "shopping"
])

const isEverydayWord = (word: string) =>
  isCommonWord(word) ||
  (word.endsWith("s") && isCommonWord(word.slice(0, -1))) ||
  (word.endsWith("es") && isCommonWord(word.slice(0, -2)))

/** Can the key be cut entirely into everyday words ("wavelabs" = wave + labs)? */
const isEverydayCompound = (key: string): boolean => {
  const reachable = new Array<boolean>(key.length + 1).fill(false)
  reachable[0] = true
  for (let end = 1; end <= key.length; end++) {
    for (let start = Math.max(0, end - 12); start < end && !reachable[end]; start++) {
      if (reachable[start] && end - start >= 2 && isEverydayWord(key.slice(start, end))) reachable[end] = true
    }
  }
  return reachable[key.length]
}

export const keyLevel = (key: string): KeyLevel =>
  key.length < 4 || isEverydayWord(key) ? "word" : isEverydayCompound(key) ? "compound" : "distinctive"

/** Brand keys a programme name yields: "The North Face" -> thenorthface, northface; "Dyson UK" -> dyson, dysonuk. */
export const nameKeys = (name: string): ReadonlyArray<string> => {
  const text = normaliseText(name).replace(/['’`]/g, "")
  // "Amazon.co.uk", "Booking.com": the name is a domain
  if (!/\s/.test(text) && /\.[a-z]{2,}$/.test(text)) {
    const parts = hostParts(text)
    return parts === undefined ? [] : [parts.label]
  }
  const words = text.split(/[^a-z0-9]+/).filter((word) => word.length > 0 && word !== "and")
  if (words.length === 0) return []
  const keys = new Set<string>([words.join("")])
  const core = words.filter((word) => !NAME_QUALIFIERS.has(word))
  if (core.length > 0) keys.add(core.join(""))
  if (core[0] === "the" && core.length > 1) keys.add(core.slice(1).join(""))
  return [...keys].filter((key) => /[a-z]/.test(key))
}

const GENERIC_LABELS = new Set(["com", "co", "net", "org", "gov", "edu", "ac", "or", "ne", "go"])

const normaliseDomain = (raw: string) =>
  raw
    .trim()
    .toLowerCase()
    .replace(/^www\.(?=.+\..+)/, "")

interface Building {
  key: string
  name: string
  domains: Map<string, Set<string | null>>
  hostMatchable: boolean
}

export const makeBrandIndex = (catalog: Catalog): BrandIndex => {
  const building = new Map<string, Building>()
  const keysOfProgram = new Map<string, Array<string>>()
  const programmeDomains = new Set<string>()
  const subdomainParents = new Set<string>()
  const add = (key: string, program: CatalogProgram, domain: string, hostMatchable: boolean) => {
    let entry = building.get(key)
    if (entry === undefined) {
      entry = { key, name: program.name, domains: new Map(), hostMatchable }
      building.set(key, entry)
    }
    if (program.name.length < entry.name.length) entry.name = program.name
    entry.hostMatchable ||= hostMatchable
    const countries = entry.domains.get(domain) ?? new Set<string | null>()
    countries.add(program.country)
    entry.domains.set(domain, countries)
    const keys = keysOfProgram.get(program.id) ?? []
    if (!keys.includes(key)) keys.push(key)
    keysOfProgram.set(program.id, keys)
  }

  const programs = new Set<CatalogProgram>()
  for (const list of catalog.byDomain.values()) for (const program of list) programs.add(program)
  for (const program of programs) {
    for (const raw of program.domains) {
      const domain = normaliseDomain(raw)
      const parts = hostParts(domain)
      if (parts === undefined) continue
      programmeDomains.add(domain)
      const onSubdomain = parts.registrable !== domain
      // amazon.com.be: a suffix the Public Suffix List lacks makes "com.be" look registrable; it names no site.
      if (onSubdomain && !GENERIC_LABELS.has(parts.label)) subdomainParents.add(parts.registrable)
      else add(parts.label, program, domain, true)
      for (const key of nameKeys(program.name)) {
        // A name key equal to the parent's label of a subdomain programme
        // ("google" for store.google.com) names the parent site, not the shop.
        add(key, program, domain, !(onSubdomain && key === parts.label))
      }
    }
  }

  const byKey = new Map<string, Brand>()
  for (const entry of building.values()) {
    byKey.set(entry.key, {
      key: entry.key,
      name: entry.name,
      domains: [...entry.domains].map(([domain, countries]) => ({ domain, countries })),
      hostMatchable: entry.hostMatchable,
      level: keyLevel(entry.key)
    })
  }
  const parentOnly = new Set([...subdomainParents].filter((domain) => !programmeDomains.has(domain)))
  return { byKey, keysOfProgram, parentOnly }
}
