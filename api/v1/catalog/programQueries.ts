import { Effect } from "effect"
import { hostCandidates } from "../../../domain/matching/hostCandidates.ts"
import type { Database } from "../../../infra/Database.ts"
import { orUnavailable } from "../dbUnavailable.ts"
import { pageOf, pageRequest } from "../ListParams.ts"

// The programme listing of GET /api/v1/programs, also behind the MCP tool
// find_programs: one query for both, filters as bound parameters.

export const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export interface ProgramsQuery {
  readonly limit?: number | undefined
  readonly offset?: number | undefined
  readonly network?: string | undefined
  readonly status?: string | undefined
  readonly country?: string | undefined
  readonly q?: string | undefined
  readonly domain?: string | undefined
}

export const listPrograms = (db: Database["Service"], query: ProgramsQuery) =>
  Effect.gen(function*() {
    const page = pageRequest(query)
    const where: Array<string> = []
    const params: Array<string | number> = []
    const add = (sql: (p: string) => string, value: string) => {
      params.push(value)
      where.push(sql(`$${params.length}`))
    }
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
    const clause = where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""
    const rows = yield* orUnavailable(db.query<Record<string, any>>(
      `SELECT p.id, p.network_id, p.merchant_id, p.name, p.domains, p.country, p.category, p.commission_type,
              p.commission_rate::VARCHAR AS commission_rate, p.commission_currency, p.cookie_days, p.status,
              p.deep_link_allowed, p.epc::VARCHAR AS epc
       FROM programs p ${clause} ORDER BY lower(p.name), p.id LIMIT ${page.limit} OFFSET ${page.offset}`,
      params
    ))
    const total = yield* orUnavailable(db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM programs p ${clause}`, params))
    return pageOf(
      rows.map((row) => ({
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
      page,
      total[0]?.n ?? 0
    )
  })
