import { Effect, Schema } from "effect"
import { type Catalog, type CatalogNetwork, type CatalogProgram, makeCatalog } from "../domain/matching/catalog.ts"
import { clickHostRules } from "../domain/matching/resolve.ts"
import type { ClickHostRule } from "../domain/matching/unwrap.ts"
import { readCatalogVersion } from "../infra/CatalogVersion.ts"
import { Bool, NullableNumber, NullableText, Text, TextList } from "../infra/columns.ts"
import type { Database, DatabaseError } from "../infra/Database.ts"
import { yieldToEventLoop } from "../infra/yieldToEventLoop.ts"

// The networks and programmes as the matcher holds them, read from the store.

export interface MatcherCatalog {
  readonly catalog: Catalog
  readonly rules: ReadonlyArray<ClickHostRule>
}

const parseJsonObject = (value: unknown): Record<string, unknown> => {
  if (typeof value !== "string")
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {}
  try {
    const parsed = JSON.parse(value)
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed : {}
  } catch {
    return {}
  }
}

const NetworkRow = Schema.Struct({
  id: Text,
  name: Text,
  status: Text,
  click_hosts: TextList,
  deep_link_template: NullableText,
  subid_param: NullableText,
  unwrap_params: TextList,
  confidence: Text,
  account_params: NullableText
})

const ProgramRow = Schema.Struct({
  id: Text,
  network_id: Text,
  merchant_id: Text,
  name: Text,
  country: NullableText,
  commission_type: Text,
  commission_rate: Schema.Number,
  status: Text,
  deep_link_allowed: Bool,
  epc: NullableNumber,
  cookie_days: NullableNumber,
  link_params: NullableText,
  domains: TextList,
  number: NullableNumber
})

const ProgramDomainRow = Schema.Struct({ program_id: Text, domain: Text })

/** Programmes read (with their domains) between two turns of the event loop. */
const PROGRAM_PAGE = 1_000

const catalogProgramOf = (row: typeof ProgramRow.Type, extraDomains: ReadonlyArray<string>): CatalogProgram => ({
  id: row.id,
  networkId: row.network_id,
  merchantId: row.merchant_id,
  name: row.name,
  domains: [...new Set([...row.domains, ...extraDomains])],
  country: row.country,
  commissionType: row.commission_type,
  commissionRate: row.commission_rate,
  status: row.status,
  deepLinkAllowed: row.deep_link_allowed,
  epc: row.epc,
  cookieDays: row.cookie_days,
  linkParams: parseJsonObject(row.link_params),
  ...(row.number === null ? {} : { number: row.number })
})

const readOnce = (db: Database["Service"]) =>
  Effect.gen(function* () {
    const networks = yield* db.queryAs(
      NetworkRow,
      `SELECT id, name, status, click_hosts, deep_link_template, subid_param, unwrap_params, confidence,
              CAST(account_params AS VARCHAR) AS account_params FROM networks`
    )
    // Domains come from program_domains (the matcher's lookup table, one row
    // per domain) together with the programme's own list, so either source
    // works; merged here, as the two dialects spell list functions differently.
    // Read a page of programmes at a time, the event loop turning between two:
    // 30,000 programmes read whole held it about 0.75 s in one stretch (the
    // client's conversion of the rows and their decoding), on every process
    // that redirects, after every programmes load.
    const catalogPrograms: Array<CatalogProgram> = []
    for (let after = ""; ;) {
      const page = yield* db.queryAs(
        ProgramRow,
        `SELECT id, network_id, merchant_id, name, country, commission_type,
                CAST(commission_rate AS DOUBLE PRECISION) AS commission_rate, status, deep_link_allowed,
                CAST(epc AS DOUBLE PRECISION) AS epc, cookie_days, CAST(link_params AS VARCHAR) AS link_params, domains,
                n.number
         FROM programs LEFT JOIN program_numbers n ON n.program_id = programs.id
         WHERE programs.id > $1 ORDER BY programs.id LIMIT ${PROGRAM_PAGE}`,
        [after]
      )
      if (page.length === 0) break
      const domainRows = yield* db.queryAs(
        ProgramDomainRow,
        "SELECT program_id, domain FROM program_domains WHERE program_id >= $1 AND program_id <= $2",
        [page[0].id, page[page.length - 1].id]
      )
      const extraDomains = new Map<string, Array<string>>()
      for (const { program_id, domain } of domainRows) {
        const list = extraDomains.get(program_id)
        if (list === undefined) extraDomains.set(program_id, [domain])
        else list.push(domain)
      }
      for (const row of page) catalogPrograms.push(catalogProgramOf(row, extraDomains.get(row.id) ?? []))
      if (page.length < PROGRAM_PAGE) break
      after = page[page.length - 1].id
      yield* yieldToEventLoop
    }
    const catalogNetworks: Array<CatalogNetwork> = networks.map((row) => ({
      id: row.id,
      name: row.name,
      status: row.status,
      clickHosts: row.click_hosts,
      deepLinkTemplate: row.deep_link_template,
      subidParam: row.subid_param,
      unwrapParams: row.unwrap_params,
      confidence: row.confidence,
      accountParams: parseJsonObject(row.account_params)
    }))
    const catalog = makeCatalog(catalogNetworks, catalogPrograms)
    return { catalog, rules: clickHostRules(catalog) } satisfies MatcherCatalog
  })

/** Reads of a catalog that kept moving before one held still; the last is kept (its own event reads again). */
const CONSISTENT_READ_ATTEMPTS = 3

/**
 * The catalog as one version of the store holds it. The pages are separate
 * statements, so a load committed between two of them would mix programmes of
 * two catalogs (and the networks read before both). Every catalog change bumps
 * catalog_version in its own transaction, so a read with the same version
 * either side saw one catalog; otherwise it reads again.
 */
export const readMatcherCatalog = (db: Database["Service"]): Effect.Effect<MatcherCatalog, DatabaseError> =>
  Effect.gen(function* () {
    for (let attempt = 1; ; attempt++) {
      const before = yield* readCatalogVersion(db)
      const loaded = yield* readOnce(db)
      const after = yield* readCatalogVersion(db)
      if (before === after) return loaded
      if (attempt === CONSISTENT_READ_ATTEMPTS) {
        yield* Effect.logWarning("program matcher: the catalog moved during each read; keeping the last", {
          attempts: attempt
        })
        return loaded
      }
    }
  })
