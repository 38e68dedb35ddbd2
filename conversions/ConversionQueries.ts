import { Context, Effect, Layer, Schema } from "effect"
import { Integer, IsoTimestamp, NullableIsoTimestamp, NullableText, Text } from "../infra/columns.ts"
import { earningSql, isConversionSql } from "../infra/conversionCounting.ts"
import { Database, type DatabaseError, filters } from "../infra/Database.ts"
import { attributionColumns, moneyColumns } from "./conversionColumns.ts"
import { type ConversionStatus, STATUSES, UNATTRIBUTED_REASONS, type UnattributedReason } from "./ConversionRecord.ts"

// Operator read models over the conversions table (admin endpoints and the
// CLI). Money leaves the store as text (::VARCHAR) so it stays exact; totals
// are summed by its DECIMAL arithmetic (an empty sum is 0::DECIMAL(18,4), so
// both stores print "0.0000"). Conversions are counted by the rule every
// reader shares (infra/conversionCounting.ts): a negative-commission row nets
// its money but is not a conversion; declined/reversed carry zero shares.
export interface ConversionFilter {
  readonly status?: ConversionStatus | undefined
  /** true: only unattributed; false: only attributed; undefined: both. */
  readonly unattributed?: boolean | undefined
  /** Only unattributed conversions with this reason (e.g. network_mismatch). */
  readonly unattributedReason?: UnattributedReason | undefined
  readonly network?: string | undefined
  readonly partnerId?: number | undefined
}

const ConversionItem = Schema.Struct({
  id: Text,
  network_id: Text,
  network_tx_id: Text,
  ...attributionColumns,
  status: Schema.Literals(STATUSES),
  ...moneyColumns,
  event_at: IsoTimestamp,
  network_updated_at: NullableIsoTimestamp,
  unattributed_reason: Schema.NullOr(Schema.Literals(UNATTRIBUTED_REASONS)),
  source: Text,
  updated_at: IsoTimestamp
})
export type ConversionItem = typeof ConversionItem.Type

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
  list(
    filter: ConversionFilter,
    page: { readonly limit: number; readonly offset: number }
  ): Effect.Effect<{ readonly items: ReadonlyArray<ConversionItem>; readonly total: number }, DatabaseError>
  summary(reportingCurrency: string): Effect.Effect<RevenueSummary, DatabaseError>
}

const where = (filter: ConversionFilter) => {
  const { add, raw, params, where } = filters()
  if (filter.status !== undefined) add((p) => `status = ${p}`, filter.status)
  if (filter.unattributed === true) raw("tracking_id IS NULL")
  if (filter.unattributed === false) raw("tracking_id IS NOT NULL")
  if (filter.unattributedReason !== undefined) add((p) => `unattributed_reason = ${p}`, filter.unattributedReason)
  if (filter.network !== undefined) add((p) => `network_id = ${p}`, filter.network)
  if (filter.partnerId !== undefined) add((p) => `partner_id = ${p}`, filter.partnerId)
  return { sql: where(), params }
}

const money = (value: unknown) => (value === null || value === undefined ? "0.0000" : String(value))

const Total = Schema.Struct({ total: Integer })
const StatusRow = Schema.Struct({
  status: Text,
  conversions: Integer,
  commission: NullableText,
  partner_share: NullableText,
  platform_share: NullableText
})
const UnattributedRow = Schema.Struct({ conversions: Integer, commission: NullableText })
const RevenueRow = Schema.Struct({
  platform_pending: NullableText,
  platform_approved: NullableText,
  platform_total: NullableText,
  partner_pending: NullableText,
  partner_approved: NullableText,
  partner_total: NullableText
})

export const makeConversionQueries = (db: Pick<Database["Service"], "queryAs">): ConversionQueriesShape => ({
  list: (filter, page) =>
    Effect.gen(function* () {
      const { sql, params } = where(filter)
      const [{ total }] = yield* db.queryAs(Total, `SELECT count(*)::INTEGER AS total FROM conversions ${sql}`, params)
      const items = yield* db.queryAs(
        ConversionItem,
        `SELECT id, network_id, network_tx_id, click_ref, tracking_id, partner_id, tag, status, currency,
                order_amount::VARCHAR AS order_amount, commission::VARCHAR AS commission, reporting_currency,
                commission_reporting::VARCHAR AS commission_reporting, order_amount_reporting::VARCHAR AS order_amount_reporting,
                revenue_share::VARCHAR AS revenue_share, partner_share::VARCHAR AS partner_share,
                platform_share::VARCHAR AS platform_share, event_at, network_updated_at, unattributed_reason, source, updated_at
         FROM conversions ${sql} ORDER BY event_at DESC, id LIMIT ${page.limit} OFFSET ${page.offset}`,
        params
      )
      return { items, total }
    }),
  summary: (reportingCurrency) =>
    Effect.gen(function* () {
      const byStatus = yield* db.queryAs(
        StatusRow,
        `SELECT status, count(*) FILTER (WHERE ${isConversionSql()})::INTEGER AS conversions, sum(commission_reporting)::VARCHAR AS commission,
                sum(partner_share)::VARCHAR AS partner_share, sum(platform_share)::VARCHAR AS platform_share
         FROM conversions WHERE reporting_currency = $1 GROUP BY status ORDER BY status`,
        [reportingCurrency]
      )
      const [unattributed] = yield* db.queryAs(
        UnattributedRow,
        `SELECT count(*) FILTER (WHERE ${isConversionSql()})::INTEGER AS conversions,
                coalesce(sum(commission_reporting), 0::DECIMAL(18,4))::VARCHAR AS commission
         FROM conversions WHERE tracking_id IS NULL AND ${earningSql()} AND reporting_currency = $1`,
        [reportingCurrency]
      )
      const [revenue] = yield* db.queryAs(
        RevenueRow,
        `SELECT coalesce(sum(platform_share) FILTER (WHERE status = 'pending'), 0::DECIMAL(18,4))::VARCHAR AS platform_pending,
                coalesce(sum(platform_share) FILTER (WHERE status = 'approved'), 0::DECIMAL(18,4))::VARCHAR AS platform_approved,
                coalesce(sum(platform_share) FILTER (WHERE ${earningSql()}), 0::DECIMAL(18,4))::VARCHAR AS platform_total,
                coalesce(sum(partner_share) FILTER (WHERE status = 'pending'), 0::DECIMAL(18,4))::VARCHAR AS partner_pending,
                coalesce(sum(partner_share) FILTER (WHERE status = 'approved'), 0::DECIMAL(18,4))::VARCHAR AS partner_approved,
                coalesce(sum(partner_share) FILTER (WHERE ${earningSql()}), 0::DECIMAL(18,4))::VARCHAR AS partner_total
         FROM conversions WHERE reporting_currency = $1`,
        [reportingCurrency]
      )
      return {
        reporting_currency: reportingCurrency,
        by_status: byStatus.map((row) => ({
          status: row.status,
          conversions: row.conversions,
          commission: money(row.commission),
          partner_share: money(row.partner_share),
          platform_share: money(row.platform_share)
        })),
        unattributed: { conversions: unattributed.conversions, commission: money(unattributed.commission) },
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

export class ConversionQueries extends Context.Service<ConversionQueries, ConversionQueriesShape>()(
  "app/conversions/ConversionQueries"
) {
  static readonly layer = Layer.effect(
    ConversionQueries,
    Effect.gen(function* () {
      return makeConversionQueries(yield* Database)
    })
  )
}
