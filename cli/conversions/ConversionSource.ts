import { Effect, Exit, Redacted, Scope } from "effect"
import {
  makeConversionQueries,
  type ConversionFilter,
  type ConversionItem,
  type RevenueSummary
} from "../../conversions/ConversionQueries.ts"
import { makeReconciliation, type ReconciliationQuery } from "../../conversions/Reconciliation.ts"
import { VALIDATION_DAYS } from "../../conversions/reconciliationRules.ts"
import { Database, type DatabaseError, type DatabaseShape } from "../../infra/Database.ts"
import { adminCall, serverAnswers } from "../operator/AdminHttp.ts"
import { AdminTokenMissing, findAdminToken, type FoundToken } from "../operator/AdminToken.ts"
import type { ReconciliationResponse } from "./reconcileReport.ts"

// Where the operator command reads conversions from. DuckDB allows one
// writer process, so while a server runs the command goes through its admin
// endpoints; with no server it opens the database file itself, or
// PostgreSQL when DATABASE_URL names it.

export interface ConversionPage {
  readonly data: ReadonlyArray<ConversionItem>
  readonly pagination: {
    readonly limit: number
    readonly offset: number
    readonly total: number
    readonly next_offset: number | null
  }
}

export interface ConversionSource {
  readonly describe: string
  list(filter: ConversionFilter, limit: number, offset: number): Promise<ConversionPage>
  summary(): Promise<RevenueSummary>
  reconcile(query: ReconciliationQuery): Promise<ReconciliationResponse>
}

export class CliError extends Error {}

export { serverAnswers }

/** Through the server's admin endpoints, with its token found as every operator command finds it. */
export const httpSource = (url: string): ConversionSource => {
  let found: FoundToken
  try {
    found = findAdminToken(url)
  } catch (error) {
    throw error instanceof AdminTokenMissing ? new CliError(error.message) : error
  }
  const { token } = found
  const get = async (path: string) => {
    const response = await adminCall(url, token, "GET", path, { timeoutMs: 30_000 })
    const body = response.json as { error?: { message?: string } } | undefined
    if (!response.ok) throw new CliError(`server answered ${response.status}: ${body?.error?.message ?? "no details"}`)
    return body
  }
  return {
    describe: `server ${url} (admin token from ${found.from})`,
    list: async (filter, limit, offset) => {
      const query = new URLSearchParams({ limit: String(limit), offset: String(offset) })
      if (filter.status !== undefined) query.set("status", filter.status)
      if (filter.unattributed !== undefined) query.set("unattributed", String(filter.unattributed))
      if (filter.network !== undefined) query.set("network", filter.network)
      return (await get(`/admin/conversions?${query}`)) as ConversionPage
    },
    summary: async () => (await get("/admin/conversions/summary")) as RevenueSummary,
    reconcile: async (filter) => {
      const query = new URLSearchParams()
      if (filter.network !== undefined) query.set("network", filter.network)
      if (filter.month !== undefined) query.set("month", filter.month)
      return (await get(`/admin/conversions/reconciliation?${query}`)) as ReconciliationResponse
    }
  }
}

/** Reads the store `open` gives, in a scope of its own; `close` releases it. */
const storeSource = async (
  describe: string,
  open: Effect.Effect<DatabaseShape, DatabaseError, Scope.Scope>,
  failed: (error: DatabaseError) => string,
  reportingCurrency: string
) => {
  const scope = Effect.runSync(Scope.make())
  const db = await Effect.runPromise(Scope.provide(open, scope)).catch((error: DatabaseError) => {
    throw new CliError(failed(error))
  })
  const queries = makeConversionQueries(db)
  const run = <A>(effect: Effect.Effect<A, { readonly message: string }>) =>
    Effect.runPromise(effect.pipe(Effect.mapError((error) => new CliError(error.message))))
  const source: ConversionSource = {
    describe,
    list: async (filter, limit, offset) => {
      const { items, total } = await run(queries.list(filter, { limit, offset }))
      return {
        data: items,
        pagination: { limit, offset, total, next_offset: offset + items.length < total ? offset + items.length : null }
      }
    },
    summary: () => run(queries.summary(reportingCurrency)),
    // Read straight from the store, the month's state is judged by this machine's clock.
    reconcile: async (query) => ({
      reporting_currency: reportingCurrency,
      validation_days: VALIDATION_DAYS,
      months: await run(makeReconciliation(db).reconcile(query, reportingCurrency, new Date()))
    })
  }
  return { source, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

/** Opens the DuckDB file directly (only when no server owns it). */
export const fileSource = (path: string, reportingCurrency: string) =>
  storeSource(
    `file ${path}`,
    Database.open({ file: path }),
    (error) =>
      /lock/i.test(error.message)
        ? `${path} is locked by another process (a running server?): start it, or pass --server and ADMIN_TOKEN`
        : `cannot open ${path}: ${error.message}`,
    reportingCurrency
  )

/** Reads PostgreSQL (DATABASE_URL) directly: unlike the DuckDB file, it serves any number of processes. */
export const postgresSource = (url: string, reportingCurrency: string) => {
  const shown = new URL(url)
  shown.password = ""
  return storeSource(
    `PostgreSQL ${shown.host}${shown.pathname}`,
    Database.open({ url: Redacted.make(url) }),
    (error) => `cannot connect to DATABASE_URL (${shown.host}${shown.pathname}): ${error.message}`,
    reportingCurrency
  )
}
