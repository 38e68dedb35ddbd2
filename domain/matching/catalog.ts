// The slice of the catalog the matcher needs, as plain values (loaded from
// DuckDB by ProgramMatcher, built by hand in unit tests).
export interface CatalogNetwork {
  readonly id: string
  readonly name: string
  readonly status: string
  readonly clickHosts: ReadonlyArray<string>
  readonly deepLinkTemplate: string | null
  readonly subidParam: string | null
  readonly unwrapParams: ReadonlyArray<string>
  readonly confidence: string
  readonly accountParams: Readonly<Record<string, unknown>>
}

export interface CatalogProgram {
  readonly id: string
  readonly networkId: string
  readonly merchantId: string
  readonly name: string
  readonly domains: ReadonlyArray<string>
  readonly country: string | null
  readonly commissionType: string
  readonly commissionRate: number
  readonly status: string
  readonly deepLinkAllowed: boolean
  readonly epc: number | null
  readonly cookieDays: number | null
  readonly linkParams: Readonly<Record<string, unknown>>
  /** The programme's stable integer id (program_numbers); absent when not numbered yet. */
  readonly number?: number
}

export interface Catalog {
  readonly networks: ReadonlyMap<string, CatalogNetwork>
  /** domain -> programmes listing it */
  readonly byDomain: ReadonlyMap<string, ReadonlyArray<CatalogProgram>>
}

export const makeCatalog = (
  networks: ReadonlyArray<CatalogNetwork>,
  programs: ReadonlyArray<CatalogProgram>
): Catalog => {
  const byDomain = new Map<string, Array<CatalogProgram>>()
  for (const program of programs) {
    for (const raw of program.domains) {
      const domain = raw
        .trim()
        .toLowerCase()
        .replace(/^www\.(?=.+\..+)/, "")
      const list = byDomain.get(domain)
      if (list === undefined) byDomain.set(domain, [program])
      else if (!list.includes(program)) list.push(program)
    }
  }
  return { networks: new Map(networks.map((network) => [network.id, network])), byDomain }
}
