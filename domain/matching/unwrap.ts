import { parseHttpUrl } from "./submittedUrl.ts"

// Already-affiliated or tracking links carry their destination in a query
// parameter (or, for Partnerize, a `destination:` path segment). We follow
// them to the merchant URL before matching. Depth is bounded and loops are
// detected, because a crafted link can wrap itself.
export interface ClickHostRule {
  /** e.g. "www.awin1.com", or "*.pxf.io" for any subdomain. */
  readonly host: string
  readonly networkId: string
  /** Parameters that carry the destination, in order of preference. */
  readonly params: ReadonlyArray<string>
}

export const MAX_UNWRAP_DEPTH = 5

// The reference table (shared/reference/affiliate-networks.md), used in
// addition to the networks catalog so unwrapping works before any feed ran.
export const REFERENCE_CLICK_HOSTS: ReadonlyArray<ClickHostRule> = [
  { host: "awin1.com", networkId: "awin", params: ["ued"] },
  ...["anrdoezrs.net", "dpbolvw.net", "jdoqocy.com", "kqzyfj.com", "tkqlhce.com"].map((host) => ({
    host,
    networkId: "cj",
    params: ["url"]
  })),
  { host: "click.linksynergy.com", networkId: "rakuten", params: ["murl"] },
  { host: "*.sjv.io", networkId: "impact", params: ["u"] },
  { host: "*.pxf.io", networkId: "impact", params: ["u"] },
  { host: "7eer.net", networkId: "impact", params: ["u"] },
  { host: "evyy.net", networkId: "impact", params: ["u"] },
  { host: "shareasale.com", networkId: "shareasale", params: ["urllink"] },
  { host: "prf.hn", networkId: "partnerize", params: [] },
  { host: "clk.tradedoubler.com", networkId: "tradedoubler", params: ["url"] },
  { host: "track.webgains.com", networkId: "webgains", params: ["wgtarget"] },
  { host: "ad.admitad.com", networkId: "admitad", params: ["ulp"] },
  { host: "track.flexlinkspro.com", networkId: "flexoffers", params: ["url"] },
  ...["pjtra.com", "pjatr.com", "gopjn.com", "pntra.com", "pntrac.com", "pntrs.com"].map((host) => ({
    host,
    networkId: "pepperjam",
    params: ["url"]
  })),
  ...["ds1.nl", "jf79.net", "rkn3.net", "lt45.net"].map((host) => ({ host, networkId: "daisycon", params: ["dl"] })),
  { host: "tc.tradetracker.net", networkId: "tradetracker", params: ["u"] },
  { host: "track.adtraction.com", networkId: "adtraction", params: ["url"] },
  { host: "t.cfjump.com", networkId: "commissionfactory", params: ["Url"] },
  { host: "avantlink.com", networkId: "avantlink", params: ["url"] },
  { host: "go.skimresources.com", networkId: "skimlinks", params: ["url"] },
  { host: "go.redirectingat.com", networkId: "skimlinks", params: ["url"] },
  { host: "sovrn.co", networkId: "sovrn", params: ["u"] },
  { host: "redirect.viglink.com", networkId: "sovrn", params: ["u"] }
]

/** Every destination parameter of the reference list, used when a rule names none. */
export const DEFAULT_UNWRAP_PARAMS = ["ued", "url", "murl", "u", "urllink", "wgtarget", "dl", "Url", "ulp"]

/** Hosts are compared without their template braces: "{brand}.sjv.io" means "*.sjv.io". */
export const normaliseRuleHost = (host: string): string =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\{[^}]*\}\./, "*.")
    .replace(/^https?:\/\//, "")
    .replace(/\/.*$/, "")

const hostMatches = (ruleHost: string, host: string): boolean => {
  if (ruleHost.startsWith("*.")) return host.endsWith(ruleHost.slice(1))
  return host === ruleHost || host.endsWith(`.${ruleHost}`)
}

export const findClickHostRule = (rules: ReadonlyArray<ClickHostRule>, host: string): ClickHostRule | undefined =>
  rules.find((rule) => hostMatches(rule.host, host))

// A destination may arrive encoded once more than URLSearchParams undoes
// (Admitad's ulp is often double-encoded): decode until it parses, a few times at most.
const decodeDestination = (raw: string): URL | undefined => {
  let value = raw
  for (let i = 0; i < 3; i++) {
    const parsed = parseHttpUrl(value)
    if (parsed.ok) return parsed.url
    if (!/%[0-9a-f]{2}/i.test(value)) return undefined
    try {
      value = decodeURIComponent(value)
    } catch {
      return undefined
    }
  }
  const parsed = parseHttpUrl(value)
  return parsed.ok ? parsed.url : undefined
}

const partnerizeDestination = (url: URL): URL | undefined => {
  const marker = url.pathname.indexOf("/destination:")
  if (marker < 0) return undefined
  // Everything after the marker is the destination, slashes included, and it
  // may be percent-encoded; the query string (if any) belongs to it too.
  return decodeDestination(url.pathname.slice(marker + "/destination:".length) + url.search)
}

const destinationOf = (url: URL, rule: ClickHostRule): URL | undefined => {
  if (rule.networkId === "partnerize" || url.pathname.includes("/destination:")) {
    const found = partnerizeDestination(url)
    if (found !== undefined) return found
  }
  const params = rule.params.length > 0 ? rule.params : DEFAULT_UNWRAP_PARAMS
  for (const name of params) {
    const value = url.searchParams.get(name)
    if (value !== null && value.length > 0) {
      const found = decodeDestination(value)
      if (found !== undefined) return found
    }
  }
  return undefined
}

export type UnwrapResult =
  | { readonly ok: true; readonly url: URL; readonly via: ReadonlyArray<string> }
  | {
      readonly ok: false
      readonly reason: "unwrap_loop" | "unwrap_too_deep" | "tracking_link_without_destination"
      readonly via: ReadonlyArray<string>
    }

/** Follows tracking links to the merchant URL; `via` lists the networks peeled off. */
export const unwrap = (start: URL, rules: ReadonlyArray<ClickHostRule>): UnwrapResult => {
  const via: Array<string> = []
  const seen = new Set<string>()
  let current = start
  for (let depth = 0; ; depth++) {
    const rule = findClickHostRule(rules, current.hostname)
    if (rule === undefined) return { ok: true, url: current, via }
    if (seen.has(current.href)) return { ok: false, reason: "unwrap_loop", via }
    seen.add(current.href)
    if (depth >= MAX_UNWRAP_DEPTH) return { ok: false, reason: "unwrap_too_deep", via }
    const next = destinationOf(current, rule)
    if (next === undefined) return { ok: false, reason: "tracking_link_without_destination", via }
    via.push(rule.networkId)
    current = next
  }
}
