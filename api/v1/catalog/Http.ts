import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Database } from "../../../infra/Database.ts"
import { Api } from "../../Api.ts"
import { orUnavailable } from "../dbUnavailable.ts"
import { pageOf, pageRequest } from "../ListParams.ts"
import { likePattern, listPrograms } from "./programQueries.ts"

// Catalog browsing straight from DuckDB (small tables; filters as bound parameters).

export const CatalogHandlers = HttpApiBuilder.group(
  Api,
  "catalog",
  Effect.fn(function*(handlers) {
    const db = yield* Database
    return handlers
      .handle("networks", ({ query }) =>
        Effect.gen(function*() {
          const page = pageRequest(query)
          const where: Array<string> = []
          const params: Array<string | number> = []
          if (query.status !== undefined) {
            params.push(query.status)
            where.push(`n.status = $${params.length}`)
          }
          if (query.q !== undefined && query.q.trim() !== "") {
            params.push(likePattern(query.q.trim()))
            where.push(`(lower(n.name) LIKE $${params.length} ESCAPE '\\' OR n.id LIKE $${params.length} ESCAPE '\\')`)
          }
          const clause = where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""
          const rows = yield* orUnavailable(db.query<Record<string, any>>(
            `SELECT n.id, n.name, n.status, n.website, n.click_hosts, n.subid_param, n.confidence, n.successor_id, n.regions,
                    (SELECT count(*) FROM programs p WHERE p.network_id = n.id)::INTEGER AS programs
             FROM networks n ${clause} ORDER BY lower(n.name), n.id LIMIT ${page.limit} OFFSET ${page.offset}`,
            params
          ))
          const total = yield* orUnavailable(db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM networks n ${clause}`, params))
          return pageOf(
            rows.map((row) => ({
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
            page,
            total[0]?.n ?? 0
          )
        }))
      .handle("programs", ({ query }) => listPrograms(db, query))
  })
)
