import type { Catalog, CatalogNetwork, CatalogProgram } from "./catalog.ts"
import { hostCandidates } from "./hostCandidates.ts"

// Expected earnings per 100 clicks, the one figure that makes a percentage
// commission comparable with a fixed one. The network's reported EPC wins
// when present; otherwise we assume a typical shop: 2% of clicks convert, an
// average order of 80 (in the programme's currency: currencies are not
// converted here, which is good enough to rank programmes of one merchant).
export const CONVERSION_RATE = 0.02
export const LEAD_RATE = 0.05
const AVERAGE_ORDER = 80

export const expectedEarningsPer100Clicks = (program: CatalogProgram): number => {
  if (program.epc !== null && Number.isFinite(program.epc) && program.epc > 0) return program.epc
  const rate = program.commissionRate
  switch (program.commissionType.toUpperCase()) {
    case "CPS":
      return 100 * CONVERSION_RATE * AVERAGE_ORDER * (rate / 100)
    case "CPA":
      return 100 * CONVERSION_RATE * rate
    case "CPL":
      return 100 * LEAD_RATE * rate
    case "CPC":
      return 100 * rate
    default:
      return 0
  }
}

const CONFIDENCE_RANK: Record<string, number> = { H: 0, M: 1, U: 2 }

const isOpenNetwork = (network: CatalogNetwork | undefined): network is CatalogNetwork =>
  network !== undefined && network.status !== "closed" && network.status !== "paused"

const hasTemplate = (network: CatalogNetwork) => network.deepLinkTemplate !== null && network.deepLinkTemplate !== ""

/** A network we may send traffic to: not closed or paused, and with a template to build links from. */
export const isUsableNetwork = (network: CatalogNetwork | undefined): network is CatalogNetwork =>
  isOpenNetwork(network) && hasTemplate(network)

export interface Selection {
  readonly program: CatalogProgram
  readonly network: CatalogNetwork
  /** The catalog domain that matched (exact host, a parent, or the registrable domain). */
  readonly domain: string
  readonly expectedEpc: number
}

export type SelectionResult =
  | { readonly ok: true; readonly selection: Selection }
  | {
      readonly ok: false
      readonly reason: "no_program" | "no_active_program" | "deep_link_unavailable"
      readonly domain?: string
    }

/**
 * The best programme for a host. Levels are tried most specific first; at the
 * first level that has an eligible programme we rank by: deep-link capable,
 * expected earnings, cookie length, network confidence, then programme id, so
 * the same catalog always gives the same answer.
 *
 * Without a winner the reason tells the partner the truth: deep_link_unavailable
 * when an active programme on an open network exists but no link to the page
 * can be built from its network (no template, or one we cannot fill);
 * no_active_program when every programme or network is paused or closed.
 */
export const selectProgram = (
  catalog: Catalog,
  hostname: string,
  /** Extra eligibility, e.g. "its deep-link template can be filled". */
  usable: (program: CatalogProgram, network: CatalogNetwork) => boolean = () => true,
  /**
   * The shopper's market (ISO 3166-1 alpha-2): among a multi-country
   * merchant's programmes its own comes first, whatever the others pay (a
   * US shopper cannot buy through Nike UK). None: ranked as below.
   */
  country?: string
): SelectionResult => {
  let sawInactive: string | undefined
  let sawUnlinkable: string | undefined
  for (const domain of hostCandidates(hostname)) {
    const programs = catalog.byDomain.get(domain)
    if (programs === undefined || programs.length === 0) continue
    const eligible: Array<Selection> = []
    for (const program of programs) {
      const network = catalog.networks.get(program.networkId)
      if (program.status !== "active" || !isOpenNetwork(network)) continue
      if (!hasTemplate(network) || !usable(program, network)) {
        sawUnlinkable ??= domain
        continue
      }
      eligible.push({ program, network, domain, expectedEpc: expectedEarningsPer100Clicks(program) })
    }
    if (eligible.length === 0) {
      sawInactive ??= domain
      continue
    }
    eligible.sort((a, b) => marketRank(a, country) - marketRank(b, country) || compareSelections(a, b))
    return { ok: true, selection: eligible[0] }
  }
  if (sawUnlinkable !== undefined) return { ok: false, reason: "deep_link_unavailable", domain: sawUnlinkable }
  return sawInactive === undefined
    ? { ok: false, reason: "no_program" }
    : { ok: false, reason: "no_active_program", domain: sawInactive }
}

/** 0 for a programme of the shopper's market (or when there is none), 1 for another market's. */
const marketRank = (selection: Selection, country: string | undefined) =>
  country === undefined || selection.program.country === country ? 0 : 1

const compareSelections = (a: Selection, b: Selection): number =>
  Number(b.program.deepLinkAllowed) - Number(a.program.deepLinkAllowed) ||
  b.expectedEpc - a.expectedEpc ||
  (b.program.cookieDays ?? 0) - (a.program.cookieDays ?? 0) ||
  (CONFIDENCE_RANK[a.network.confidence] ?? 9) - (CONFIDENCE_RANK[b.network.confidence] ?? 9) ||
  (a.program.id < b.program.id ? -1 : a.program.id > b.program.id ? 1 : 0)

/**
 * The Selection of a programme already chosen (a stored link's), looked up at
 * the domain it was matched on first; undefined when the catalog no longer
 * holds it or its network.
 */
export const selectionOfProgram = (catalog: Catalog, programId: string, domain: string): Selection | undefined => {
  const listing = (programs: ReadonlyArray<CatalogProgram> | undefined) => programs?.find((p) => p.id === programId)
  let found = listing(catalog.byDomain.get(domain))
  let foundAt = domain
  if (found === undefined) {
    for (const [other, programs] of catalog.byDomain) {
      found = listing(programs)
      foundAt = other
      if (found !== undefined) break
    }
  }
  const network = found === undefined ? undefined : catalog.networks.get(found.networkId)
  if (found === undefined || network === undefined) return undefined
  return { program: found, network, domain: foundAt, expectedEpc: expectedEarningsPer100Clicks(found) }
}
