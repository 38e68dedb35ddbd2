import type { Catalog, CatalogNetwork, CatalogProgram } from "../catalog.ts"
import { affiliateUrlFor } from "../resolve.ts"
import { type Selection, selectProgram } from "../selectProgram.ts"
import type { Brand, BrandDomain } from "./brandIndex.ts"
import type { Evidence } from "./fuzzyScore.ts"

// From a recognised brand to one programme and the page the shopper lands on.
//
// Which domain of the brand: the one whose programme serves the country of
// the URL's suffix (amazn.co.uk -> amazon.co.uk, nikee.co.uk -> Nike's GB
// programme), else the brand's main one: a global programme (no country),
// then a .com domain, then the others alphabetically. Among the programmes
// of that domain, `selectProgram` decides as for any domain match (active,
// usable network, deep link fillable, best expected earnings).
//
// Where the shopper lands (never on the host they typed: a misspelt domain
// may be a squatter's, and an affiliate link must not send anyone there):
// - host evidence (misspelt, other country, store words): the same path and
//   query on the brand's real domain, https://nike.com/<path>;
// - path evidence (a listing naming the brand on another site): the brand's
//   home page, https://<domain>/, since the listing's path means nothing there.

export const destinationFor = (domain: string, evidence: Evidence, url: URL): string =>
  evidence.from === "host" ? `https://${domain}${url.pathname}${url.search}` : `https://${domain}/`

const mainRank = (entry: BrandDomain) => (entry.countries.has(null) ? 0 : entry.domain.endsWith(".com") ? 1 : 2)

/** The brand's domains, most fitting first for `country`. */
export const domainOrder = (brand: Brand, country: string | null): ReadonlyArray<BrandDomain> =>
  [...brand.domains].sort(
    (a, b) =>
      Number(country !== null && b.countries.has(country)) - Number(country !== null && a.countries.has(country)) ||
      mainRank(a) - mainRank(b) ||
      (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0)
  )

export type Choice =
  | { readonly ok: true; readonly selection: Selection; readonly destination: string; readonly countryMatched: boolean }
  | { readonly ok: false; readonly reason: "no_active_program" | "deep_link_unavailable" }

/** The deep-link probe of domain matching: the network template can be filled for this destination. */
const canLinkTo = (destination: string) => (program: CatalogProgram, network: CatalogNetwork) =>
  affiliateUrlFor({ program, network, domain: "", expectedEpc: 0 }, destination, "probe") !== undefined

export const chooseProgram = (
  catalog: Catalog,
  brand: Brand,
  evidence: Evidence,
  url: URL,
  country: string | null
): Choice => {
  const order = domainOrder(brand, country)
  // An active programme we could not link through is the truer reason than "nothing active".
  let unlinkable = false
  if (country !== null) {
    for (const entry of order) {
      if (!entry.countries.has(country)) continue
      const destination = destinationFor(entry.domain, evidence, url)
      const usable = canLinkTo(destination)
      const picked = selectProgram(
        catalog,
        entry.domain,
        (program, network) => program.country === country && usable(program, network)
      )
      if (picked.ok) return { ok: true, selection: picked.selection, destination, countryMatched: true }
    }
  }
  for (const entry of order) {
    const destination = destinationFor(entry.domain, evidence, url)
    const picked = selectProgram(catalog, entry.domain, canLinkTo(destination))
    if (picked.ok) return { ok: true, selection: picked.selection, destination, countryMatched: false }
    if (picked.reason === "deep_link_unavailable") unlinkable = true
  }
  return { ok: false, reason: unlinkable ? "deep_link_unavailable" : "no_active_program" }
}
