import { Context, Effect, Layer } from "effect"
import { hostCandidates } from "../domain/matching/hostCandidates.ts"
import { Database, type DatabaseError } from "../infra/Database.ts"

// Catalog browsing straight from DuckDB (small tables; filters as bound
// parameters): GET /api/v1/networks, GET /api/v1/programs and the MCP tool
// find_programs, one query each.

export const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export interface Page {
  readonly limit: number
  readonly offset: number
}

export interface NetworksQuery {
  readonly status?: string | undefined
  readonly q?: string | undefined
}

export interface ProgramsQuery {
  readonly network?: string | undefined
  readonly status?: string | undefined
  readonly country?: string | undefined
  readonly q?: string | undefined
  readonly domain?: string | undefined
}

/** One page of rows and the count over all pages. */
export interface Rows<A> {
  readonly rows: ReadonlyArray<A>
  readonly total: number
}

export interface NetworkRow {
  readonly id: string
  readonly name: string
  readonly status: string
  readonly website: string | null
  readonly click_hosts: ReadonlyArray<string>
  readonly subid_param: string | null
  readonly confidence: string
  readonly successor_id: string | null
  readonly regions: ReadonlyArray<string>
  readonly programs: number
}

export interface ProgramRow {
  readonly id: string
  readonly network_id: string
  readonly merchant_id: string
  readonly name: string
  readonly domains: ReadonlyArray<string>
  readonly country: string | null
  readonly category: string | null
  readonly commission_type: string
  readonly commission_rate: string
  readonly commission_currency: string | null
  readonly cookie_days: number | null
  readonly status: string
  readonly deep_link_allowed: boolean
  readonly epc: string | null
}

const whereOf = () => {
  const where: Array<string> = []
  const params: Array<string | number> = []
  const add = (sql: (p: string) => string, value: string) => {
    params.push(value)
    where.push(sql(`$${params.length}`))
  }
  const clause = () => (where.length > 0 ? `WHERE ${where.join(" AND ")}` : "")
  return { add, params, clause }
}

export class CatalogQueries extends Context.Service<CatalogQueries, {
  networks(query: NetworksQuery, page: Page): Effect.Effect<Rows<NetworkRow>, DatabaseError>
  programs(query: ProgramsQuery, page: Page): Effect.Effect<Rows<ProgramRow>, DatabaseError>
}>()("app/catalog/CatalogQueries") {
  static readonly layer = Layer.effect(
    CatalogQueries,
    Effect.gen(function*() {
      const db = yield* Database

      const networks = (query: NetworksQuery, page: Page) =>
        Effect.gen(function*() {
          const { add, params, clause } = whereOf()
          if (query.status !== undefined) add((p) => `n.status = ${p}`, query.status)
          if (query.q !== undefined && query.q.trim() !== "") {
            add((p) => `(lower(n.name) LIKE ${p} ESCAPE '\\' OR n.id LIKE ${p} ESCAPE '\\')`, likePattern(query.q.trim()))
          }
          const rows = yield* db.query<Record<string, any>>(
            `SELECT n.id, n.name, n.status, n.website, n.click_hosts, n.subid_param, n.confidence, n.successor_id, n.regions,
                    (SELECT count(*) FROM programs p WHERE p.network_id = n.id)::INTEGER AS programs
             FROM networks n ${clause()} ORDER BY lower(n.name), n.id LIMIT ${page.limit} OFFSET ${page.offset}`,
            params
          )
          const total = yield* db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM networks n ${clause()}`, params)
          return {
            rows: rows.map((row): NetworkRow => ({
              id: row.id,
              name: row.name,
              status: row.status,
              website: row.website ?? null,
              click_hosts: row.click_hosts ?? [],
              subid_param: row.subid_param ?? null,
              confidence: row.confidence,
              successor_id: row.successor_id ?? null,
              regions: row.regions ?? [],
              programs: Number(row.programs)
            })),
            total: total[0]?.n ?? 0
          }
        })

      const programs = (query: ProgramsQuery, page: Page) =>
        Effect.gen(function*() {
          const { add, params, clause } = whereOf()
          if (query.network !== undefined) add((p) => `p.network_id = ${p}`, query.network.toLowerCase())
          if (query.status !== undefined) add((p) => `p.status = ${p}`, query.status)
          if (query.country !== undefined) add((p) => `upper(p.country) = ${p}`, query.country.toUpperCase())
          if (query.q !== undefined && query.q.trim() !== "") {
            add((p) => `(lower(p.name) LIKE ${p} ESCAPE '\\' OR lower(p.merchant_id) LIKE ${p} ESCAPE '\\')`, likePattern(query.q.trim()))
          }
          if (query.domain !== undefined && query.domain.trim() !== "") {
            // The same lookup the matcher does: the host, each parent, the registrable domain.
            const host = query.domain.trim().toLowerCase().replace(/^https?:\/\//, "").replace(/[/:?#].*$/, "")
            add((p) => `list_has_any(p.domains, ${p}::VARCHAR[])`, JSON.stringify(hostCandidates(host)))
          }
          const rows = yield* db.query<Record<string, any>>(
            `SELECT p.id, p.network_id, p.merchant_id, p.name, p.domains, p.country, p.category, p.commission_type,
                    p.commission_rate::VARCHAR AS commission_rate, p.commission_currency, p.cookie_days, p.status,
                    p.deep_link_allowed, p.epc::VARCHAR AS epc
             FROM programs p ${clause()} ORDER BY lower(p.name), p.id LIMIT ${page.limit} OFFSET ${page.offset}`,
            params
          )
          const total = yield* db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM programs p ${clause()}`, params)
          return {
            rows: rows.map((row): ProgramRow => ({
              id: row.id,
              network_id: row.network_id,
              merchant_id: row.merchant_id,
              name: row.name,
              domains: row.domains ?? [],
              country: row.country ?? null,
              category: row.category ?? null,
              commission_type: row.commission_type,
              commission_rate: row.commission_rate,
              commission_currency: row.commission_currency ?? null,
              cookie_days: row.cookie_days === null || row.cookie_days === undefined ? null : Number(row.cookie_days),
              status: row.status,
              deep_link_allowed: row.deep_link_allowed === true,
              epc: row.epc ?? null
            })),
            total: total[0]?.n ?? 0
          }
        })

      return { networks, programs }
    })
  )
}
