import { describe, expect, it } from "vitest"
import { type CatalogNetwork, type CatalogProgram, makeCatalog } from "../../domain/matching/catalog.ts"
import { keyLevel, makeBrandIndex, nameKeys } from "../../domain/matching/fuzzy/brandIndex.ts"
import { chooseProgram, destinationFor } from "../../domain/matching/fuzzy/chooseProgram.ts"
import { hostLabelScore, MATCH_THRESHOLD, scoreUrl } from "../../domain/matching/fuzzy/fuzzyScore.ts"
import { adjacentKeys, damerauLevenshtein, editKind, jaroWinkler } from "../../domain/matching/fuzzy/similarity.ts"
import { countryOfSuffix, hostParts, pathSegments } from "../../domain/matching/fuzzy/urlParts.ts"

describe("string similarity", () => {
  it.each([
    ["nike", "nike", 0],
    ["nikee", "nike", 1],
    ["amzaon", "amazon", 1],
    ["amazn", "amazon", 1],
    ["nice", "nike", 1],
    ["kitten", "sitting", 3],
    ["", "abc", 3],
    ["bestbuyy", "bestbuy", 1]
  ])("damerauLevenshtein(%s, %s) = %i", (a, b, d) => {
    expect(damerauLevenshtein(a, b)).toBe(d)
    expect(damerauLevenshtein(b, a)).toBe(d)
  })

  it("jaroWinkler: 1 for equal, 0 for nothing shared, higher for a shared prefix", () => {
    expect(jaroWinkler("dyson", "dyson")).toBe(1)
    expect(jaroWinkler("abc", "xyz")).toBe(0)
    expect(jaroWinkler("martha", "marhta")).toBeCloseTo(0.961, 3)
    expect(jaroWinkler("nikee", "nike")).toBeGreaterThan(jaroWinkler("bike", "nike"))
  })

  it("adjacentKeys follows the QWERTY layout", () => {
    expect(adjacentKeys("e", "w")).toBe(true)
    expect(adjacentKeys("n", "m")).toBe(true)
    expect(adjacentKeys("k", "c")).toBe(false)
    expect(adjacentKeys("a", "a")).toBe(false)
  })

  it.each([
    ["nike", "nike", "exact"],
    ["nikee", "nike", "doubled_letter"],
    ["gogle", "google", "repeated_dropped"],
    ["amzaon", "amazon", "transposition"],
    ["amazn", "amazon", "missing_letter"],
    ["amazoni", "amazon", "extra_letter"],
    ["nikw", "nike", "adjacent_key"],
    ["nice", "nike", "substitution"],
    ["nicer", "nike", "distant"]
  ])("editKind(%s, %s) = %s", (typed, intended, kind) => {
    expect(editKind(typed, intended)).toBe(kind)
  })
})

describe("URL parts", () => {
  it("reads the registrable label, its words and the suffix's country", () => {
    expect(hostParts("shop.best-buyy.co.uk")).toMatchObject({
      registrable: "best-buyy.co.uk",
      label: "bestbuyy",
      labelWords: ["best", "buyy"],
      suffix: "co.uk",
      country: "GB",
      userHosted: false
    })
    expect(hostParts("nike.github.io")).toMatchObject({ label: "nike", userHosted: true })
    expect(hostParts("127.0.0.1")).toBeUndefined()
  })

  it.each([
    ["com", null],
    ["co.uk", "GB"],
    ["de", "DE"],
    ["com.au", "AU"],
    ["io", null],
    ["eu", null],
    ["shop", null]
  ])("countryOfSuffix(%s) = %s", (suffix, country) => expect(countryOfSuffix(suffix)).toBe(country))

  it("splits the path into words per segment, decoded and without accents", () => {
    expect(pathSegments("/listing/Dyson-V15_Detect/%C3%A9clair//")).toEqual([
      ["listing"],
      ["dyson", "v15", "detect"],
      ["eclair"]
    ])
  })
})

describe("brand keys", () => {
  it.each([
    ["Nike UK", ["nikeuk", "nike"]],
    ["The North Face", ["thenorthface", "northface"]],
    ["Amazon.co.uk", ["amazon"]],
    ["De'Longhi", ["delonghi"]],
    ["Marks & Spencer", ["marksspencer"]],
    ["Google Store", ["googlestore", "google"]]
  ])("nameKeys(%s)", (name, keys) => expect(nameKeys(name)).toEqual(keys))

  it.each([
    ["nike", "distinctive"],
    ["lululemon", "distinctive"],
    ["next", "word"],
    ["boots", "word"],
    ["gap", "word"],
    ["hp", "word"],
    ["bestbuy", "compound"],
    ["thenorthface", "compound"]
  ])("keyLevel(%s) = %s", (key, level) => expect(keyLevel(key)).toBe(level))
})

const network = (id: string, status = "active"): CatalogNetwork => ({
  id,
  name: id,
  status,
  clickHosts: [],
  deepLinkTemplate: "https://track.example/{sub}?u={enc(url)}",
  subidParam: "sub",
  unwrapParams: [],
  confidence: "H",
  accountParams: {}
})

const program = (
  id: string,
  name: string,
  domains: Array<string>,
  country: string | null,
  extra: Partial<CatalogProgram> = {}
): CatalogProgram => ({
  id,
  networkId: "net",
  merchantId: id,
  name,
  domains,
  country,
  commissionType: "CPS",
  commissionRate: 5,
  status: "active",
  deepLinkAllowed: true,
  epc: null,
  cookieDays: 30,
  linkParams: {},
  ...extra
})

const catalog = makeCatalog(
  [network("net")],
  [
    program("nike-us", "Nike", ["nike.com"], "US"),
    program("nike-gb", "Nike UK", ["nike.com"], "GB", { commissionRate: 4 }),
    program("dyson-us", "Dyson", ["dyson.com"], "US"),
    program("dyson-gb", "Dyson UK", ["dyson.co.uk"], "GB"),
    program("gstore", "Google Store", ["store.google.com"], "US"),
    program("next", "Next", ["next.co.uk"], "GB"),
    program("boots", "Boots", ["boots.com"], "GB"),
    program("pata", "Patagonia", ["patagonia.com"], "US", { status: "paused" })
  ]
)
const index = makeBrandIndex(catalog)

describe("scoring", () => {
  const brand = (key: string) => index.byKey.get(key)!

  it("hostLabelScore accepts typing slips and refuses everyday words and far substitutions", () => {
    expect(hostLabelScore("nikee", brand("nike"))!.confidence).toBeGreaterThanOrEqual(MATCH_THRESHOLD)
    expect(hostLabelScore("nkie", brand("nike"))!.kind).toBe("transposition")
    expect(hostLabelScore("nice", brand("nike"))).toBeUndefined()
    expect(hostLabelScore("nikw", brand("nike"))).toBeUndefined() // short brands: only unmistakable slips
    expect(hostLabelScore("dysson", brand("dyson"))!.kind).toBe("doubled_letter")
    expect(hostLabelScore("dysan", brand("dyson"))).toBeUndefined() // far substitution on a short key
    expect(hostLabelScore("nexxt", brand("next"))).toBeUndefined() // an everyday-word brand is never guessed
    expect(hostLabelScore("google", brand("google"))).toBeUndefined() // names the parent site, not the store
  })

  it("ranks: exact label on another suffix > slip; the in-memory scan and the candidate list agree", () => {
    const exact = scoreUrl(new URL("https://nike.de/x"), index, "all")
    const slip = scoreUrl(new URL("https://nikee.de/x"), index, "all")
    expect(exact.kind === "candidate" && slip.kind === "candidate").toBe(true)
    if (exact.kind !== "candidate" || slip.kind !== "candidate") return
    expect(exact.best.confidence).toBeGreaterThan(slip.best.confidence)
    const viaCandidates = scoreUrl(new URL("https://nikee.de/x"), index, new Set(["nike"]))
    expect(viaCandidates.kind === "candidate" && viaCandidates.best).toEqual(slip.best)
    // without the candidate the search index would have supplied, only exact keys are looked up
    expect(scoreUrl(new URL("https://nikee.de/x"), index, new Set()).kind).toBe("none")
  })

  it("reports but does not match a brand's label on a foundation or developer suffix (nike.org)", () => {
    const outcome = scoreUrl(new URL("https://nike.org/"), index, "all")
    expect(outcome.kind === "candidate" && outcome.best.brand.key).toBe("nike")
    expect(outcome.kind === "candidate" && outcome.best.confidence).toBeLessThan(MATCH_THRESHOLD)
  })

  it("recognises a site known only through a subdomain, and user-hosted sites", () => {
    expect(scoreUrl(new URL("https://www.google.com/search?q=nike"), index, "all").kind).toBe("known_site")
    expect(scoreUrl(new URL("https://nike.github.io/"), index, "all").kind).toBe("none")
  })

  it("reads a brand from a listing path, not from an article or a plain word", () => {
    const listing = scoreUrl(new URL("https://some-market.example/listing/dyson-v15-detect"), index, "all")
    expect(listing.kind === "candidate" && listing.best).toMatchObject({
      brand: { key: "dyson" },
      evidence: { from: "path" }
    })
    expect(listing.kind === "candidate" && listing.best.confidence).toBeGreaterThanOrEqual(MATCH_THRESHOLD)
    const article = scoreUrl(new URL("https://reviews.example/2024/dyson-v15"), index, "all")
    expect(article.kind === "candidate" && article.best.confidence).toBeLessThan(MATCH_THRESHOLD)
    expect(scoreUrl(new URL("https://en.wikipedia.org/wiki/Dyson"), index, "all").kind).toBe("none")
    expect(scoreUrl(new URL("https://shop.example/products/hiking-boots"), index, "all").kind).toBe("none")
  })

  it("takes a country word in a store label as the country (dyson-uk.com)", () => {
    const outcome = scoreUrl(new URL("https://dyson-store-uk.com/v15"), index, "all")
    expect(outcome.kind === "candidate" && outcome.best).toMatchObject({
      evidence: { kind: "store_affix" },
      country: "GB"
    })
  })
})

describe("chooseProgram", () => {
  const url = new URL("https://nikee.co.uk/t/shoe?size=9")
  const hostEvidence = { from: "host", kind: "doubled_letter", text: "nikee", edits: 1 } as const

  it("prefers the programme of the URL's country, then the main one (by expected earnings)", () => {
    const gb = chooseProgram(catalog, index.byKey.get("nike")!, hostEvidence, url, "GB")
    expect(gb).toMatchObject({ ok: true, countryMatched: true, selection: { program: { id: "nike-gb" } } })
    const fr = chooseProgram(catalog, index.byKey.get("nike")!, hostEvidence, url, "FR")
    expect(fr).toMatchObject({ ok: true, countryMatched: false, selection: { program: { id: "nike-us" } } })
    const dysonGb = chooseProgram(catalog, index.byKey.get("dyson")!, hostEvidence, url, "GB")
    expect(dysonGb).toMatchObject({
      ok: true,
      selection: { program: { id: "dyson-gb" } },
      destination: "https://dyson.co.uk/t/shoe?size=9"
    })
    const dysonAnywhere = chooseProgram(catalog, index.byKey.get("dyson")!, hostEvidence, url, null)
    expect(dysonAnywhere).toMatchObject({ ok: true, selection: { program: { id: "dyson-us" } } })
  })

  it("reports a recognised brand without an active programme", () => {
    expect(chooseProgram(catalog, index.byKey.get("patagonia")!, hostEvidence, url, null)).toEqual({
      ok: false,
      reason: "no_active_program"
    })
  })

  it("reports deep_link_unavailable for an active programme whose network has no link template", () => {
    const unlinkable = makeCatalog(
      [{ ...network("bare"), deepLinkTemplate: null }],
      [program("exp", "Expedia", ["expedia.com"], "US", { networkId: "bare", deepLinkAllowed: false })]
    )
    const brand = makeBrandIndex(unlinkable).byKey.get("expedia")!
    expect(chooseProgram(unlinkable, brand, hostEvidence, url, null)).toEqual({
      ok: false,
      reason: "deep_link_unavailable"
    })
  })

  it("sends host matches to the same path on the real domain and path matches to the home page", () => {
    expect(destinationFor("nike.com", hostEvidence, url)).toBe("https://nike.com/t/shoe?size=9")
    expect(destinationFor("nike.com", { from: "path", kind: "listing_brand", text: "nike", edits: 0 }, url)).toBe(
      "https://nike.com/"
    )
  })
})
