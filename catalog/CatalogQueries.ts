import { Context, Effect, Layer, Schema } from "effect"
import { hostCandidates } from "../domain/matching/hostCandidates.ts"
import { Bool, CountRow, Integer, NullableNumber, NullableText, Text, TextList } from "../infra/columns.ts"
import { Database, type DatabaseError, filters } from "../infra/Database.ts"

// Catalog browsing straight from the store (small tables; filters as bound
// parameters): GET /api/v1/networks, GET /api/v1/programs and the MCP tool
// find_programs, one query each. The same SQL on DuckDB and PostgreSQL.

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

const NetworkRow = Schema.Struct({
  id: Text,
  name: Text,
  status: Text,
  website: NullableText,
  click_hosts: TextList,
  subid_param: NullableText,
  confidence: Text,
  successor_id: NullableText,
  regions: TextList,
  programs: Integer
})
export type NetworkRow = typeof NetworkRow.Type

const ProgramRow = Schema.Struct({
  id: Text,
  number: Integer,
  network_id: Text,
  merchant_id: Text,
  name: Text,
  domains: TextList,
  country: NullableText,
  category: NullableText,
  commission_type: Text,
  commission_rate: Text,
  commission_currency: NullableText,
  cookie_days: NullableNumber,
  status: Text,
  deep_link_allowed: Bool,
  epc: NullableText
})
export type ProgramRow = typeof ProgramRow.Type

const ProgramIdRow = Schema.Struct({ program_id: Text })
const ProgramNumberRow = Schema.Struct({ number: Integer })
const NumberedProgramRow = Schema.Struct({ program_id: Text, number: Integer })

export class CatalogQueries extends Context.Service<
  CatalogQueries,
  {
    networks(query: NetworksQuery, page: Page): Effect.Effect<Rows<NetworkRow>, DatabaseError>
    programs(query: ProgramsQuery, page: Page): Effect.Effect<Rows<ProgramRow>, DatabaseError>
    /** The programme id a programme number stands for; undefined when none does. */
    programIdOf(number: number): Effect.Effect<string | undefined, DatabaseError>
    /** The number of a programme id; undefined for an id never ingested. */
    numberOf(programId: string): Effect.Effect<number | undefined, DatabaseError>
    /** The numbers of these programme ids, in one query (a page of links). */
    numbersOf(programIds: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<string, number>, DatabaseError>
  }
>()("app/catalog/CatalogQueries") {
  static readonly layer = Layer.effect(
    CatalogQueries,
    Effect.gen(function* () {
      const db = yield* Database

      const networks = (query: NetworksQuery, page: Page) =>
        Effect.gen(function* () {
          const { add, params, where } = filters()
          if (query.status !== undefined) add((p) => `n.status = ${p}`, query.status)
          if (query.q !== undefined && query.q.trim() !== "") {
            add(
              (p) => `(lower(n.name) LIKE ${p} ESCAPE '\\' OR n.id LIKE ${p} ESCAPE '\\')`,
              likePattern(query.q.trim())
            )
          }
          const rows = yield* db.queryAs(
            NetworkRow,
            `SELECT n.id, n.name, n.status, n.website, n.click_hosts, n.subid_param, n.confidence, n.successor_id, n.regions,
                    (SELECT count(*) FROM programs p WHERE p.network_id = n.id)::INTEGER AS programs
             FROM networks n ${where()} ORDER BY lower(n.name), n.id LIMIT ${page.limit} OFFSET ${page.offset}`,
            params
          )
          const total = yield* db.queryAs(CountRow, `SELECT count(*)::INTEGER AS n FROM networks n ${where()}`, params)
          return { rows, total: total[0]?.n ?? 0 }
        })

      const programs = (query: ProgramsQuery, page: Page) =>
        Effect.gen(function* () {
          const { add, params, where } = filters()
          if (query.network !== undefined) add((p) => `p.network_id = ${p}`, query.network.toLowerCase())
          if (query.status !== undefined) add((p) => `p.status = ${p}`, query.status)
          if (query.country !== undefined) add((p) => `upper(p.country) = ${p}`, query.country.toUpperCase())
          if (query.q !== undefined && query.q.trim() !== "") {
            add(
              (p) => `(lower(p.name) LIKE ${p} ESCAPE '\\' OR lower(p.merchant_id) LIKE ${p} ESCAPE '\\')`,
              likePattern(query.q.trim())
            )
          }
          if (query.domain !== undefined && query.domain.trim() !== "") {
            // The same lookup the matcher does: the host, each parent, the registrable domain.
            const host = query.domain
              .trim()
              .toLowerCase()
              .replace(/^https?:\/\//, "")
              .replace(/[/:?#].*$/, "")
            add(
              (p) => `EXISTS (SELECT 1 FROM unnest(p.domains) AS listed(domain) WHERE domain IN ${db.jsonList(p)})`,
              JSON.stringify(hostCandidates(host))
            )
          }
          const rows = yield* db.queryAs(
            ProgramRow,
            `SELECT p.id, n.number, p.network_id, p.merchant_id, p.name, p.domains, p.country, p.category, p.commission_type,
                    p.commission_rate::VARCHAR AS commission_rate, p.commission_currency, p.cookie_days, p.status,
                    p.deep_link_allowed, p.epc::VARCHAR AS epc
             FROM programs p LEFT JOIN program_numbers n ON n.program_id = p.id
             ${where()} ORDER BY lower(p.name), p.id LIMIT ${page.limit} OFFSET ${page.offset}`,
            params
          )
          const total = yield* db.queryAs(CountRow, `SELECT count(*)::INTEGER AS n FROM programs p ${where()}`, params)
          return { rows, total: total[0]?.n ?? 0 }
        })

      const programIdOf = (number: number) =>
        db
          .queryAs(ProgramIdRow, "SELECT program_id FROM program_numbers WHERE number = $1", [number])
          .pipe(Effect.map((rows) => rows[0]?.program_id))

      const numberOf = (programId: string) =>
        db
          .queryAs(ProgramNumberRow, "SELECT number FROM program_numbers WHERE program_id = $1", [programId])
          .pipe(Effect.map((rows) => rows[0]?.number))

      const numbersOf = (programIds: ReadonlyArray<string>) =>
        programIds.length === 0
          ? Effect.succeed(new Map<string, number>())
          : db
              .queryAs(
                NumberedProgramRow,
                `SELECT program_id, number FROM program_numbers WHERE program_id IN ${db.jsonList("$1")}`,
                [JSON.stringify([...new Set(programIds)])]
              )
              .pipe(Effect.map((rows) => new Map(rows.map((row) => [row.program_id, row.number]))))

      return { networks, programs, programIdOf, numberOf, numbersOf }
    })
  )
}
