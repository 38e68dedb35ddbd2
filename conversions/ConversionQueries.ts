import { Context, Effect, Layer } from "effect"
import { Database, type DatabaseError } from "../infra/Database.ts"
import type { ConversionStatus } from "./ConversionRecord.ts"

// Operator read models over the conversions table (admin endpoints and the
// CLI). Money leaves DuckDB as text (::VARCHAR) so it stays exact; totals are
// summed by DuckDB's DECIMAL arithmetic. Statistics count only pending and
// approved conversions; declined/reversed carry zero shares anyway.
export interface ConversionFilter {
  readonly status?: ConversionStatus | undefined
  /** true: only unattributed; false: only attributed; undefined: both. */
  readonly unattributed?: boolean | undefined
  readonly network?: string | undefined
  readonly partnerId?: number | undefined
}

export interface ConversionItem {
  readonly id: string
  readonly network_id: string
  readonly network_tx_id: string
  readonly click_ref: string | null
  readonly tracking_id: string | null
  readonly partner_id: number | null
  readonly tag: string | null
  readonly status: ConversionStatus
  readonly currency: string
  readonly order_amount: string
  readonly commission: string
  readonly reporting_currency: string
  readonly commission_reporting: string
  readonly order_amount_reporting: string
  readonly revenue_share: string | null
  readonly partner_share: string
  readonly platform_share: string
  readonly event_at: string
  readonly network_updated_at: string | null
  readonly source: string
  readonly updated_at: string
}

export interface StatusTotals {
  readonly status: string
  readonly conversions: number
  readonly commission: string
  readonly partner_share: string
  readonly platform_share: string
}

export interface RevenueSummary {
  readonly reporting_currency: string
  readonly by_status: ReadonlyArray<StatusTotals>
  readonly unattributed: { readonly conversions: number; readonly commission: string }
  readonly platform_revenue: { readonly pending: string; readonly approved: string; readonly total: string }
  readonly partner_revenue: { readonly pending: string; readonly approved: string; readonly total: string }
}

export interface ConversionQueriesShape {
  list(filter: ConversionFilter, page: { readonly limit: number; readonly offset: number }): Effect.Effect<
    { readonly items: ReadonlyArray<ConversionItem>; readonly total: number },
    DatabaseError
  >
  summary(reportingCurrency: string): Effect.Effect<RevenueSummary, DatabaseError>
}

const where = (filter: ConversionFilter) => {
  const clauses: Array<string> = []
  const params: Record<string, string | number> = {}
  if (filter.status !== undefined) {
    clauses.push("status = $status")
    params.status = filter.status
  }
  if (filter.unattributed === true) clauses.push("tracking_id IS NULL")
  if (filter.unattributed === false) clauses.push("tracking_id IS NOT NULL")
  if (filter.network !== undefined) {
    clauses.push("network_id = $network")
    params.network = filter.network
  }
  if (filter.partnerId !== undefined) {
    clauses.push("partner_id = $partner")
    params.partner = filter.partnerId
  }
  return { sql: clauses.length === 0 ? "" : `WHERE ${clauses.join(" AND ")}`, params }
}

const iso = (value: unknown) => value instanceof Date ? value.toISOString() : value === null ? null : String(value)
const money = (value: unknown) => value === null || value === undefined ? "0.0000" : String(value)

export const makeConversionQueries = (db: Pick<Database["Service"], "query">): ConversionQueriesShape => ({
  list: (filter, page) =>
    Effect.gen(function*() {
      const { sql, params } = where(filter)
      const [{ total }] = yield* db.query<{ total: number }>(`SELECT count(*)::INTEGER AS total FROM conversions ${sql}`, params)
      const rows = yield* db.query<Record<string, unknown>>(
        `SELECT id, network_id, network_tx_id, click_ref, tracking_id, partner_id, tag, status, currency,
                order_amount::VARCHAR AS order_amount, commission::VARCHAR AS commission, reporting_currency,
                commission_reporting::VARCHAR AS commission_reporting, order_amount_reporting::VARCHAR AS order_amount_reporting,
                revenue_share::VARCHAR AS revenue_share, partner_share::VARCHAR AS partner_share,
                platform_share::VARCHAR AS platform_share, event_at, network_updated_at, source, updated_at
         FROM conversions ${sql} ORDER BY event_at DESC, id LIMIT ${page.limit} OFFSET ${page.offset}`,
        params
      )
      const items = rows.map((row) => ({
        ...row,
        event_at: iso(row.event_at),
        network_updated_at: iso(row.network_updated_at),
        updated_at: iso(row.updated_at)
      }) as unknown as ConversionItem)
      return { items, total }
    }),
  summary: (reportingCurrency) =>
    Effect.gen(function*() {
      const byStatus = yield* db.query<Record<string, unknown>>(
        `SELECT status, count(*)::INTEGER AS conversions, sum(commission_reporting)::VARCHAR AS commission,
                sum(partner_share)::VARCHAR AS partner_share, sum(platform_share)::VARCHAR AS platform_share
         FROM conversions WHERE reporting_currency = $1 GROUP BY status ORDER BY status`,
        [reportingCurrency]
      )
      const [unattributed] = yield* db.query<Record<string, unknown>>(
        `SELECT count(*)::INTEGER AS conversions, coalesce(sum(commission_reporting), 0)::VARCHAR AS commission
         FROM conversions WHERE tracking_id IS NULL AND status IN ('pending', 'approved') AND reporting_currency = $1`,
        [reportingCurrency]
      )
      const [revenue] = yield* db.query<Record<string, unknown>>(
        `SELECT coalesce(sum(platform_share) FILTER (WHERE status = 'pending'), 0)::VARCHAR AS platform_pending,
                coalesce(sum(platform_share) FILTER (WHERE status = 'approved'), 0)::VARCHAR AS platform_approved,
                coalesce(sum(platform_share) FILTER (WHERE status IN ('pending', 'approved')), 0)::VARCHAR AS platform_total,
                coalesce(sum(partner_share) FILTER (WHERE status = 'pending'), 0)::VARCHAR AS partner_pending,
                coalesce(sum(partner_share) FILTER (WHERE status = 'approved'), 0)::VARCHAR AS partner_approved,
                coalesce(sum(partner_share) FILTER (WHERE status IN ('pending', 'approved')), 0)::VARCHAR AS partner_total
         FROM conversions WHERE reporting_currency = $1`,
        [reportingCurrency]
      )
      return {
        reporting_currency: reportingCurrency,
        by_status: byStatus.map((row) => ({
          status: String(row.status),
          conversions: Number(row.conversions),
          commission: money(row.commission),
          partner_share: money(row.partner_share),
          platform_share: money(row.platform_share)
        })),
        unattributed: { conversions: Number(unattributed.conversions), commission: money(unattributed.commission) },
        platform_revenue: {
          pending: money(revenue.platform_pending),
          approved: money(revenue.platform_approved),
          total: money(revenue.platform_total)
        },
        partner_revenue: {
          pending: money(revenue.partner_pending),
          approved: money(revenue.partner_approved),
          total: money(revenue.partner_total)
        }
      }
    })
})

export class ConversionQueries extends Context.Service<ConversionQueries, ConversionQueriesShape>()("app/conversions/ConversionQueries") {
  static readonly layer = Layer.effect(ConversionQueries, Effect.gen(function*() {
    return makeConversionQueries(yield* Database)
  }))
}
