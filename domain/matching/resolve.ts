import { buildDeepLink } from "../links/deepLink.ts"
import type { Catalog, CatalogNetwork, CatalogProgram } from "./catalog.ts"
import { type Selection, selectProgram } from "./selectProgram.ts"
import { parseHttpUrl } from "./submittedUrl.ts"
import { stripTracking } from "./trackingParams.ts"
import { marketNamedByUrl } from "./urlMarket.ts"
import { type ClickHostRule, normaliseRuleHost, REFERENCE_CLICK_HOSTS, unwrap } from "./unwrap.ts"

// From a submitted URL to "which programme, which merchant page": the whole
// matching decision, on plain values. Building the final affiliate URL needs
// the tracking id, so it is a separate step (affiliateUrlFor).

/** Why nothing matched; documented in the API (matched: false). */
export type NoMatchReason =
  | "no_program" // no programme covers this merchant
  | "no_active_program" // programmes exist but none is active on an open network with a usable deep-link template
  | "unwrap_loop"
  | "unwrap_too_deep"
  | "tracking_link_without_destination"
  | "deep_link_unavailable" // the best programme's template could not be filled

export type Resolution =
  | { readonly kind: "invalid"; readonly message: string }
  | {
      readonly kind: "resolved"
      /** unwrapped, tracking parameters stripped, WHATWG-normalised: the dedup key */
      readonly normalizedUrl: string
      readonly unwrappedFrom: ReadonlyArray<string>
      readonly selection: Selection | undefined
      readonly reason: NoMatchReason | undefined
      readonly domain: string | undefined
      /** The market whose programme was preferred: the one the URL names, else the visitor's; none without either. */
      readonly market: MatchMarket | undefined
      /**
       * The visitor's country when it chose another programme than no market
       * would have (a merchant with programmes in several countries, a URL
       * that names no market): a link made for it serves that market only.
       * undefined when the programme is every market's.
       */
      readonly linkMarket: string | undefined
    }

/** Which market link matching preferred, and why: the URL named it, or it was the visitor's. */
export interface MatchMarket {
  readonly country: string
  readonly source: "url" | "visitor"
}

/** Click-host rules: the catalog's networks first (they may name extra hosts), then the reference list. */
export const clickHostRules = (catalog: Catalog): ReadonlyArray<ClickHostRule> => {
  const rules: Array<ClickHostRule> = []
  for (const network of catalog.networks.values()) {
    for (const host of network.clickHosts) {
      const normalised = normaliseRuleHost(host)
      if (normalised.length > 0 && normalised !== "*.")
        rules.push({ host: normalised, networkId: network.id, params: network.unwrapParams })
    }
  }
  return [...rules, ...REFERENCE_CLICK_HOSTS]
}

export const resolveUrl = (
  input: string,
  catalog: Catalog,
  rules: ReadonlyArray<ClickHostRule>,
  /** The visitor's market (ISO 3166-1 alpha-2), for a URL that names none. */
  visitorCountry?: string
): Resolution => {
  const parsed = parseHttpUrl(input)
  if (!parsed.ok) return { kind: "invalid", message: parsed.message }
  const unwrapped = unwrap(parsed.url, rules)
  if (!unwrapped.ok) {
    return {
      kind: "resolved",
      normalizedUrl: stripTracking(parsed.url).href,
      unwrappedFrom: unwrapped.via,
      selection: undefined,
      reason: unwrapped.reason,
      domain: undefined,
      market: undefined,
      linkMarket: undefined
    }
  }
  const destination = stripTracking(unwrapped.url)
  const named = marketNamedByUrl(destination)
  const market: MatchMarket | undefined =
    named !== undefined
      ? { country: named, source: "url" }
      : visitorCountry !== undefined
        ? { country: visitorCountry, source: "visitor" }
        : undefined
  const linkable = (program: CatalogProgram, network: CatalogNetwork) =>
    network.deepLinkTemplate !== null &&
    buildDeepLink(network.deepLinkTemplate, {
      url: destination.href,
      sub: "probe",
      params: { ...network.accountParams, ...program.linkParams }
    }) !== undefined
  const selected = selectProgram(catalog, destination.hostname, linkable, market?.country)
  // Did the visitor's market decide? Only then is the link that market's own
  // (a GB shopper's nike.com link is not a US shopper's); otherwise every
  // market shares one link per URL.
  const withoutMarket =
    selected.ok && market?.source === "visitor" ? selectProgram(catalog, destination.hostname, linkable) : undefined
  const marketDecided =
    selected.ok && withoutMarket?.ok === true && withoutMarket.selection.program.id !== selected.selection.program.id
  const linkMarket = marketDecided ? market?.country : undefined
  return {
    kind: "resolved",
    normalizedUrl: destination.href,
    unwrappedFrom: unwrapped.via,
    selection: selected.ok ? selected.selection : undefined,
    reason: selected.ok ? undefined : selected.reason,
    domain: selected.ok ? selected.selection.domain : selected.domain,
    market,
    linkMarket
  }
}

/**
 * Where the shopper lands: the requested page, or the merchant's home page
 * when the programme forbids deep links. The link is still made (partners of
 * Skimlinks/Sovrn expect a home-page link rather than none) and the answer
 * says so (deep_link: false, lands_on).
 */
export const landingPageFor = (selection: Selection, destination: string): string =>
  selection.program.deepLinkAllowed ? destination : `${new URL(destination).origin}/`

/**
 * The network deep link carrying `trackingId` as the click reference. When a
 * programme forbids deep links the shopper lands on the merchant's home page.
 */
export const affiliateUrlFor = (selection: Selection, destination: string, trackingId: string): string | undefined => {
  const target = landingPageFor(selection, destination)
  const template = selection.network.deepLinkTemplate
  if (template === null) return undefined
  return buildDeepLink(template, {
    url: target,
    sub: trackingId,
    params: { ...selection.network.accountParams, ...selection.program.linkParams }
  })
}
