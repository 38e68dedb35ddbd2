import { describe, expect, it } from "vitest"
import { buildDeepLink } from "../../domain/links/deepLink.ts"
import { type CatalogNetwork, type CatalogProgram, makeCatalog } from "../../domain/matching/catalog.ts"
import { hostCandidates } from "../../domain/matching/hostCandidates.ts"
import { affiliateUrlFor, clickHostRules, resolveUrl } from "../../domain/matching/resolve.ts"
import { expectedEarningsPer100Clicks, selectProgram } from "../../domain/matching/selectProgram.ts"
import { isSafeRedirectTarget, MAX_URL_LENGTH, parseHttpUrl } from "../../domain/matching/submittedUrl.ts"
import { stripTracking } from "../../domain/matching/trackingParams.ts"
import { REFERENCE_CLICK_HOSTS, unwrap } from "../../domain/matching/unwrap.ts"

const network = (id: string, over: Partial<CatalogNetwork> = {}): CatalogNetwork => ({
  id,
  name: id,
  status: "active",
  clickHosts: [],
  deepLinkTemplate: `https://go.${id}.example/c?u={enc(url)}&s={sub}`,
  subidParam: "s",
  unwrapParams: [],
  confidence: "H",
  accountParams: {},
  ...over
})

const program = (
  id: string,
  networkId: string,
  domains: Array<string>,
  over: Partial<CatalogProgram> = {}
): CatalogProgram => ({
  id,
  networkId,
  merchantId: id,
  name: id,
  domains,
  country: null,
  commissionType: "CPS",
  commissionRate: 5,
  status: "active",
  deepLinkAllowed: true,
  epc: null,
  cookieDays: 30,
  linkParams: {},
  ...over
})

describe("parseHttpUrl", () => {
  it.each([
    ["HTTPS://Example.COM/Path?Q=1", "https://example.com/Path?Q=1"],
    ["http://example.com:80/a", "http://example.com/a"],
    ["https://example.com:443/a", "https://example.com/a"],
    ["https://example.com:8443/a", "https://example.com:8443/a"],
    ["https://bücher.de/x", "https://xn--bcher-kva.de/x"],
    ["https://example.com./a", "https://example.com/a"],
    ["https://example.com/a/../b", "https://example.com/b"]
  ])("normalises %s", (input, expected) => {
    const parsed = parseHttpUrl(input)
    expect(parsed.ok && parsed.url.href).toBe(expected)
  })

  it.each([
    ["", "empty"],
    ["example.com/no-scheme", "absolute"],
    ["/relative/path", "absolute"],
    ["javascript:alert(1)", "http or https"],
    ["data:text/html,hi", "http or https"],
    ["ftp://example.com/", "http or https"],
    ["mailto:a@b.example", "http or https"],
    ["https://exa mple.com/", "spaces"],
    ["https://example.com/\r\nSet-Cookie: x", "control"],
    ["https://user:pw@example.com/", "credentials"],
    ["not a url at all", "spaces"],
    [`https://example.com/${"a".repeat(MAX_URL_LENGTH)}`, "at most"]
  ])("refuses %j", (input, message) => {
    const parsed = parseHttpUrl(input)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.message).toContain(message)
  })

  it("accepts exactly MAX_URL_LENGTH characters", () => {
    const base = "https://example.com/"
    expect(parseHttpUrl(base + "a".repeat(MAX_URL_LENGTH - base.length)).ok).toBe(true)
  })

  it("isSafeRedirectTarget refuses CR/LF and non-http(s) schemes", () => {
    expect(isSafeRedirectTarget("https://a.example/x")).toBe(true)
    expect(isSafeRedirectTarget("https://a.example/x\r\nLocation: evil")).toBe(false)
    expect(isSafeRedirectTarget("javascript:alert(1)")).toBe(false)
    expect(isSafeRedirectTarget("//evil.example")).toBe(false)
    expect(isSafeRedirectTarget("")).toBe(false)
  })
})

describe("hostCandidates", () => {
  it.each([
    ["www.shop.example.com", ["www.shop.example.com", "shop.example.com", "example.com"]],
    ["example.com", ["example.com"]],
    ["www.amazon.co.uk", ["www.amazon.co.uk", "amazon.co.uk"]],
    ["coolshop.myshopify.com", ["coolshop.myshopify.com"]],
    ["a.coolshop.myshopify.com", ["a.coolshop.myshopify.com", "coolshop.myshopify.com"]],
    ["127.0.0.1", ["127.0.0.1"]],
    ["localhost", ["localhost"]]
  ])("%s -> %j", (host, expected) => {
    expect(hostCandidates(host)).toEqual(expected)
  })
})

describe("stripTracking", () => {
  it("removes affiliate and ad-click parameters, keeps the rest, drops the fragment", () => {
    const url = new URL(
      "https://shop.example/p?id=7&utm_source=x&UTM_Medium=y&tag=someone-20&gclid=1&fbclid=2&color=red&ascsubtag=z&irclickid=q#reviews"
    )
    expect(stripTracking(url).href).toBe("https://shop.example/p?id=7&color=red")
  })
  it("leaves a clean URL byte for byte", () => {
    const url = new URL("https://shop.example/p?q=a%20b&x=%2F")
    expect(stripTracking(url).href).toBe("https://shop.example/p?q=a%20b&x=%2F")
  })
  it("removes the query entirely when only tracking parameters were there", () => {
    expect(stripTracking(new URL("https://shop.example/p?utm_source=x")).href).toBe("https://shop.example/p")
  })
})

describe("unwrap", () => {
  const dest = "https://www.example-store.com/p/1?size=m"
  const enc = encodeURIComponent(dest)
  it.each([
    ["awin", `https://www.awin1.com/cread.php?awinmid=1&awinaffid=2&clickref=x&ued=${enc}`],
    ["cj", `https://www.anrdoezrs.net/click-1-2?url=${enc}&sid=x`],
    ["cj", `https://www.kqzyfj.com/click-1-2?url=${enc}`],
    ["rakuten", `https://click.linksynergy.com/deeplink?id=a&mid=1&murl=${enc}&u1=x`],
    ["impact", `https://brand.sjv.io/c/1/2/3?subId1=x&u=${enc}`],
    ["impact", `https://acme.pxf.io/c/1/2/3?u=${enc}`],
    ["shareasale", `https://shareasale.com/r.cfm?b=1&u=2&m=3&urllink=${enc}&afftrack=x`],
    ["partnerize", `https://prf.hn/click/camref:1101l/pubref:x/destination:${enc}`],
    ["partnerize", `https://prf.hn/click/camref:1101l/destination:${dest}`],
    ["admitad", `https://ad.admitad.com/g/abc/?ulp=${encodeURIComponent(enc)}&subid=x`],
    ["webgains", `https://track.webgains.com/click.html?wgcampaignid=1&wgtarget=${enc}`],
    ["daisycon", `https://ds1.nl/c/?si=1&li=2&dl=${enc}`],
    ["commissionfactory", `https://t.cfjump.com/1/t/2?Url=${enc}`],
    ["skimlinks", `https://go.skimresources.com/?id=1&xs=1&url=${enc}`]
  ])("follows %s links to the merchant page", (networkId, link) => {
    const result = unwrap(new URL(link), REFERENCE_CLICK_HOSTS)
    expect(result.ok).toBe(true)
    if (result.ok) {
      expect(result.url.href).toBe(dest)
      expect(result.via).toEqual([networkId])
    }
  })

  it("follows nested wrappers, and bounds the depth", () => {
    let link = dest
    for (let i = 0; i < 3; i++) link = `https://www.awin1.com/cread.php?ued=${encodeURIComponent(link)}`
    const three = unwrap(new URL(link), REFERENCE_CLICK_HOSTS)
    expect(three.ok && three.url.href).toBe(dest)
    for (let i = 0; i < 5; i++) link = `https://www.awin1.com/cread.php?ued=${encodeURIComponent(link)}`
    const eight = unwrap(new URL(link), REFERENCE_CLICK_HOSTS)
    expect(eight).toMatchObject({ ok: false, reason: "unwrap_too_deep" })
  })

  it("reports a tracking link without a readable destination", () => {
    expect(unwrap(new URL("https://www.awin1.com/cread.php?awinmid=1"), REFERENCE_CLICK_HOSTS)).toMatchObject({
      ok: false,
      reason: "tracking_link_without_destination"
    })
    expect(
      unwrap(new URL("https://www.awin1.com/cread.php?ued=javascript%3Aalert(1)"), REFERENCE_CLICK_HOSTS)
    ).toMatchObject({
      ok: false
    })
  })

  it("leaves merchant URLs with a url= parameter alone (only click hosts are unwrapped)", () => {
    const url = new URL(`https://shop.example/login?url=${enc}`)
    expect(unwrap(url, REFERENCE_CLICK_HOSTS)).toMatchObject({ ok: true, via: [] })
  })
})

describe("selectProgram", () => {
  const networks = [
    network("a"),
    network("b"),
    network("closed", { status: "closed" }),
    network("paused", { status: "paused" }),
    network("h", { confidence: "H" }),
    network("u", { confidence: "U" })
  ]
  const catalog = makeCatalog(networks, [
    program("store-a", "a", ["store.example"], { commissionRate: 5 }),
    program("store-b", "b", ["store.example"], { commissionRate: 8 }),
    program("outlet", "a", ["outlet.store.example"]),
    program("uk", "a", ["gadget.co.uk"]),
    program("de", "b", ["gadget.de"]),
    program("epc-low-rate", "a", ["epc.example"], { commissionRate: 2, epc: 50 }),
    program("epc-high-rate", "b", ["epc.example"], { commissionRate: 30 }),
    program("closed-net", "closed", ["dead.example"], { commissionRate: 50 }),
    program("paused-prog", "a", ["dead.example"], { status: "paused", commissionRate: 50 }),
    program("paused-net", "paused", ["dead.example"]),
    program("no-deeplink", "a", ["deep.example"], { commissionRate: 40, deepLinkAllowed: false }),
    program("deeplink", "b", ["deep.example"], { commissionRate: 1 }),
    program("tie-z", "h", ["tie.example"]),
    program("tie-a", "h", ["tie.example"]),
    program("conf-u", "u", ["conf.example"]),
    program("conf-h", "h", ["conf.example"])
  ])
  const pick = (host: string) => {
    const result = selectProgram(catalog, host)
    return result.ok ? result.selection.program.id : result.reason
  }

  it("picks the higher expected earnings among a merchant's programmes", () =>
    expect(pick("store.example")).toBe("store-b"))
  it("matches www and deeper subdomains through their parents", () => {
    expect(pick("www.store.example")).toBe("store-b")
    expect(pick("a.b.store.example")).toBe("store-b")
  })
  it("prefers the most specific host", () => expect(pick("outlet.store.example")).toBe("outlet"))
  it("keeps country domains apart", () => {
    expect(pick("www.gadget.co.uk")).toBe("uk")
    expect(pick("gadget.de")).toBe("de")
    expect(pick("gadget.fr")).toBe("no_program")
  })
  it("uses the network's EPC when it has one", () => expect(pick("epc.example")).toBe("epc-low-rate"))
  it("excludes closed and paused networks and inactive programmes", () =>
    expect(pick("dead.example")).toBe("no_active_program"))
  it("prefers deep-link-capable programmes", () => expect(pick("deep.example")).toBe("deeplink"))
  it("breaks ties deterministically (confidence, then id)", () => {
    expect(pick("tie.example")).toBe("tie-a")
    expect(pick("conf.example")).toBe("conf-h")
  })
  it("reports unknown merchants", () => expect(pick("unknown.example")).toBe("no_program"))
  it("ranks fixed and percentage commissions on one scale", () => {
    expect(expectedEarningsPer100Clicks(program("x", "a", [], { commissionType: "CPA", commissionRate: 30 }))).toBe(60)
    expect(
      expectedEarningsPer100Clicks(program("x", "a", [], { commissionType: "CPS", commissionRate: 10 }))
    ).toBeCloseTo(16)
  })
})

describe("resolveUrl and affiliateUrlFor", () => {
  const awin = network("awin", {
    clickHosts: ["www.awin1.com"],
    deepLinkTemplate: "https://www.awin1.com/cread.php?awinmid={mid}&awinaffid={pubId}&clickref={sub}&ued={enc(url)}",
    accountParams: { pubId: "111" }
  })
  const ebay = network("ebay", {
    deepLinkTemplate: "{url}?mkevt=1&campid={campId}&customid={sub}",
    accountParams: { campId: "533" }
  })
  const catalog = makeCatalog(
    [awin, ebay],
    [
      program("awin:1", "awin", ["store.example"], { linkParams: { mid: "1" } }),
      program("ebay:us", "ebay", ["ebay.com"]),
      program("awin:home", "awin", ["home.example"], { deepLinkAllowed: false, linkParams: { mid: "9" } })
    ]
  )
  const rules = clickHostRules(catalog)

  it("unwraps someone else's link, strips their tracking, and builds ours", () => {
    const theirs = `https://www.awin1.com/cread.php?awinmid=1&awinaffid=999&clickref=them&ued=${encodeURIComponent(
      "https://Store.Example/p/1?utm_source=x&awc=abc&id=5"
    )}`
    const resolution = resolveUrl(theirs, catalog, rules)
    expect(resolution.kind).toBe("resolved")
    if (resolution.kind !== "resolved" || resolution.selection === undefined) throw new Error("no selection")
    expect(resolution.normalizedUrl).toBe("https://store.example/p/1?id=5")
    expect(resolution.unwrappedFrom).toEqual(["awin"])
    const url = affiliateUrlFor(resolution.selection, resolution.normalizedUrl, "TRACK123")!
    expect(url).toBe(
      `https://www.awin1.com/cread.php?awinmid=1&awinaffid=111&clickref=TRACK123&ued=${encodeURIComponent("https://store.example/p/1?id=5")}`
    )
    expect(url).not.toContain("999")
  })

  it("appends to a merchant URL that already has a query (eBay style)", () => {
    const resolution = resolveUrl("https://www.ebay.com/itm/1?var=2", catalog, rules)
    if (resolution.kind !== "resolved" || resolution.selection === undefined) throw new Error("no selection")
    expect(affiliateUrlFor(resolution.selection, resolution.normalizedUrl, "T1")).toBe(
      "https://www.ebay.com/itm/1?var=2&mkevt=1&campid=533&customid=T1"
    )
  })

  it("sends homepage-only programmes to the merchant's home page", () => {
    const resolution = resolveUrl("https://home.example/deep/page", catalog, rules)
    if (resolution.kind !== "resolved" || resolution.selection === undefined) throw new Error("no selection")
    expect(affiliateUrlFor(resolution.selection, resolution.normalizedUrl, "T")).toContain(
      encodeURIComponent("https://home.example/")
    )
  })

  it("refuses to build a half-filled deep link", () => {
    expect(
      buildDeepLink("https://x.example/?a={missing}&s={sub}", { url: "https://m.example/", sub: "T", params: {} })
    ).toBeUndefined()
    expect(
      buildDeepLink("https://x.example/?a={a}&s={sub}", { url: "https://m.example/", sub: "T", params: { a: "1 2" } })
    ).toBe("https://x.example/?a=1%202&s=T")
  })

  it("percent-encodes {url} wherever it stands except at the start of the template", () => {
    // A destination carrying its own afftrack= and a fragment: raw, it would
    // override our click reference and cut off the parameters after it.
    const url = "https://m.example/p?id=7&afftrack=someone-else#top"
    const values = { url, sub: "T", params: { banner: "1", affId: "2", mid: "3", camref: "c" } }
    const shareASale = buildDeepLink(
      "https://shareasale.com/r.cfm?b={banner}&u={affId}&m={mid}&urllink={url}&afftrack={sub}",
      values
    )
    expect(shareASale).toBe(`https://shareasale.com/r.cfm?b=1&u=2&m=3&urllink=${encodeURIComponent(url)}&afftrack=T`)
    expect(new URL(shareASale!).searchParams.getAll("afftrack")).toEqual(["T"])
    expect(new URL(shareASale!).searchParams.get("urllink")).toBe(url)
    expect(buildDeepLink("https://prf.hn/click/camref:{camref}/pubref:{sub}/destination:{url}", values)).toBe(
      `https://prf.hn/click/camref:c/pubref:T/destination:${encodeURIComponent(url)}`
    )
    // At the start the destination is the link itself (eBay's "{url}?..."): verbatim.
    expect(buildDeepLink("{url}?campid={mid}&customid={sub}", { ...values, url: "https://m.example/p" })).toBe(
      "https://m.example/p?campid=3&customid=T"
    )
  })

  it("classifies invalid input", () => {
    expect(resolveUrl("javascript:alert(1)", catalog, rules).kind).toBe("invalid")
    expect(resolveUrl("nope", catalog, rules).kind).toBe("invalid")
  })
})
