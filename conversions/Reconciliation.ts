import { Effect, Schema } from "effect"
import { formatDecimal, parseDecimal, type Scaled } from "../domain/money/Decimal.ts"
import { Integer, NullableText, Text } from "../infra/columns.ts"
import { earningSql, isConversionSql } from "../infra/conversionCounting.ts"
import type { DatabaseError, DatabaseShape } from "../infra/Database.ts"
import { STATUSES } from "./ConversionRecord.ts"
import {
  flagsOf,
  type Flag,
  type MonthFigures,
  monthBounds,
  type ReconciliationRow,
  stateOf
} from "./reconciliationRules.ts"

// The operator's reconciliation: per network and month of the sale (UTC),
// the conversions and commission by status as the network reports them (each
// transaction's latest status and amounts, its corrections applied), next to
// what the ledger credited (partner and platform shares), what the revenue
// split says it should have credited (each conversion's partner share, 70/30
// by default; the platform keeps unattributed commission), and the
// difference. Money is in the reporting currency, exact decimal text. Which
// differences timing explains and which are flagged: reconciliationRules.ts.

export interface ReconciliationQuery {
  readonly network?: string | undefined
  /** "YYYY-MM"; every month with conversions when absent. */
  readonly month?: string | undefined
}

const StatusRow = Schema.Struct({
  network_id: Text,
  month: Text,
  status: Schema.Literals(STATUSES),
  conversions: Integer,
  commission: Text,
  partner_share: Text,
  platform_share: Text,
  expected_partner: Text,
  unattributed: Integer,
  unattributed_commission: Text,
  attributed: Integer,
  split_mismatch: Integer,
  credited_not_earning: Integer
})

const CorrectionRow = Schema.Struct({
  network_id: Text,
  month: Text,
  problem: Schema.Literals(["without_original", "other_currency"]),
  currency: Text,
  corrections: Integer,
  commission: Text,
  example: NullableText
})

type Spelling = DatabaseShape["sql"]

const decimal = (text: string) => parseDecimal(text) ?? 0n
const zero = "0::DECIMAL(18,4)"

/** WHERE clauses and parameters for the network and month filters, on `time` (a timestamp column). */
const filterSql = (query: ReconciliationQuery, network: string, time: string, first: number) => {
  const clauses: Array<string> = []
  const params: Array<string> = []
  if (query.network !== undefined) {
    params.push(query.network)
    clauses.push(`${network} = $${first + params.length - 1}`)
  }
  if (query.month !== undefined) {
    const { start, end } = monthBounds(query.month)
    params.push(start.toISOString(), end.toISOString())
    clauses.push(
      `${time} >= $${first + params.length - 2}::TIMESTAMPTZ AND ${time} < $${first + params.length - 1}::TIMESTAMPTZ`
    )
  }
  return { sql: clauses.map((clause) => ` AND ${clause}`).join(""), params }
}

const statusSql = (sql: Spelling, filter: string) => `
  SELECT network_id, ${sql.utcMonth("event_at")} AS month, status,
    count(*) FILTER (WHERE ${isConversionSql()})::INTEGER AS conversions,
    coalesce(sum(commission_reporting), ${zero})::VARCHAR AS commission,
    coalesce(sum(partner_share), ${zero})::VARCHAR AS partner_share,
    coalesce(sum(platform_share), ${zero})::VARCHAR AS platform_share,
    coalesce(sum(commission_reporting * revenue_share) FILTER (WHERE ${earningSql()} AND tracking_id IS NOT NULL), ${zero})
      ::DECIMAL(18,4)::VARCHAR AS expected_partner,
    count(*) FILTER (WHERE tracking_id IS NULL AND ${isConversionSql()})::INTEGER AS unattributed,
    coalesce(sum(commission_reporting) FILTER (WHERE tracking_id IS NULL), ${zero})::VARCHAR AS unattributed_commission,
    count(*) FILTER (WHERE tracking_id IS NOT NULL)::INTEGER AS attributed,
    count(*) FILTER (WHERE ${earningSql()} AND partner_share + platform_share <> commission_reporting)::INTEGER AS split_mismatch,
    count(*) FILTER (WHERE NOT ${earningSql()} AND (partner_share <> 0 OR platform_share <> 0))::INTEGER AS credited_not_earning
  FROM conversions WHERE reporting_currency = $1 ${filter}
  GROUP BY 1, 2, 3`

// Corrections the network reported that have not moved a conversion: their
// original is not in the ledger, or is in another currency (ConversionCorrections).
const correctionsSql = (sql: Spelling, filter: string) => `
  SELECT split_part(c.conversion_id, ':', 1) AS network_id,
    ${sql.utcMonth("coalesce(v.event_at, c.event_at)")} AS month,
    CASE WHEN v.id IS NULL THEN 'without_original' ELSE 'other_currency' END AS problem,
    c.currency, count(*)::INTEGER AS corrections, sum(c.commission)::VARCHAR AS commission,
    min(c.conversion_id) AS example
  FROM conversion_corrections c LEFT JOIN conversions v ON v.id = c.conversion_id
  WHERE (v.id IS NULL OR v.currency <> c.currency) ${filter}
  GROUP BY 1, 2, 3, 4`

const emptyFigures = (network: string, month: string): MonthFigures => ({
  network,
  month,
  byStatus: new Map(),
  expectedPartner: 0n,
  attributedEarning: 0,
  unattributed: { conversions: 0, commission: 0n },
  splitMismatch: 0,
  creditedNotEarning: 0,
  corrections: []
})

export const makeReconciliation = (db: Pick<DatabaseShape, "queryAs" | "sql">) => ({
  reconcile: (
    query: ReconciliationQuery,
    reportingCurrency: string,
    now: Date
  ): Effect.Effect<ReadonlyArray<ReconciliationRow>, DatabaseError> =>
    Effect.gen(function* () {
      const conversions = filterSql(query, "network_id", "event_at", 2)
      const corrections = filterSql(query, "split_part(c.conversion_id, ':', 1)", "coalesce(v.event_at, c.event_at)", 1)
      const [statusRows, correctionRows] = yield* Effect.all(
        [
          db.queryAs(StatusRow, statusSql(db.sql, conversions.sql), [reportingCurrency, ...conversions.params]),
          db.queryAs(CorrectionRow, correctionsSql(db.sql, corrections.sql), corrections.params)
        ],
        { concurrency: 2 }
      )
      const months = new Map<string, MonthFigures>()
      const figuresOf = (network: string, month: string) => {
        const key = `${network}|${month}`
        const found = months.get(key) ?? emptyFigures(network, month)
        months.set(key, found)
        return found
      }
      for (const row of statusRows) {
        const figures = figuresOf(row.network_id, row.month)
        const earning = row.status === "pending" || row.status === "approved"
        figures.byStatus.set(row.status, {
          conversions: row.conversions,
          commission: decimal(row.commission),
          partner: decimal(row.partner_share),
          platform: decimal(row.platform_share)
        })
        figures.expectedPartner += decimal(row.expected_partner)
        figures.splitMismatch += row.split_mismatch
        figures.creditedNotEarning += row.credited_not_earning
        if (earning) {
          figures.attributedEarning += row.attributed
          figures.unattributed.conversions += row.unattributed
          figures.unattributed.commission += decimal(row.unattributed_commission)
        }
      }
      for (const row of correctionRows) {
        const figures = figuresOf(row.network_id, row.month)
        figures.corrections.push({
          problem: row.problem,
          currency: row.currency,
          corrections: row.corrections,
          commission: decimal(row.commission),
          example: row.example
        })
      }
      return [...months.values()]
        .sort((a, b) => (a.month === b.month ? a.network.localeCompare(b.network) : b.month.localeCompare(a.month)))
        .map((figures) => present(figures, reportingCurrency, now))
    })
})

const sumOf = (figures: MonthFigures, pick: (s: { commission: Scaled; partner: Scaled; platform: Scaled }) => Scaled) =>
  (["pending", "approved"] as const).reduce((sum, status) => {
    const row = figures.byStatus.get(status)
    return sum + (row === undefined ? 0n : pick(row))
  }, 0n)

const present = (figures: MonthFigures, reportingCurrency: string, now: Date): ReconciliationRow => {
  const money = formatDecimal
  const byStatus = (status: (typeof STATUSES)[number]) => figures.byStatus.get(status)
  const credited = (status: "pending" | "approved", side: "partner" | "platform") => byStatus(status)?.[side] ?? 0n
  const earningCommission = sumOf(figures, (s) => s.commission)
  const creditedPartner = sumOf(figures, (s) => s.partner)
  const creditedPlatform = sumOf(figures, (s) => s.platform)
  const expectedPlatform = earningCommission - figures.expectedPartner
  const flags: ReadonlyArray<Flag> = flagsOf(
    figures,
    now,
    {
      partner: creditedPartner - figures.expectedPartner,
      platform: creditedPlatform - expectedPlatform,
      commission: creditedPartner + creditedPlatform - earningCommission
    },
    reportingCurrency
  )
  return {
    network: figures.network,
    month: figures.month,
    reporting_currency: reportingCurrency,
    network_reports: {
      by_status: STATUSES.map((status) => ({
        status,
        conversions: byStatus(status)?.conversions ?? 0,
        commission: money(byStatus(status)?.commission ?? 0n)
      })),
      earning_commission: money(earningCommission),
      unattributed: {
        conversions: figures.unattributed.conversions,
        commission: money(figures.unattributed.commission)
      }
    },
    credited: {
      partner: {
        pending: money(credited("pending", "partner")),
        approved: money(credited("approved", "partner")),
        total: money(creditedPartner)
      },
      platform: {
        pending: money(credited("pending", "platform")),
        approved: money(credited("approved", "platform")),
        total: money(creditedPlatform)
      }
    },
    expected: { partner: money(figures.expectedPartner), platform: money(expectedPlatform) },
    difference: {
      commission: money(creditedPartner + creditedPlatform - earningCommission),
      partner: money(creditedPartner - figures.expectedPartner),
      platform: money(creditedPlatform - expectedPlatform)
    },
    ...stateOf(figures, now, flags),
    flags
  }
}
