import { Context, Effect, Layer, Schema } from "effect"
import { CountRow, Integer, NullableNumber, NullableText, Text } from "../infra/columns.ts"
import { conversionWithStatusSql, countedConversionSql, earningSql } from "../infra/conversionCounting.ts"
import { Database, type DatabaseError, type DatabaseShape } from "../infra/Database.ts"
import { PublicUrl } from "../infra/PublicUrl.ts"
import { partnerAdjustments } from "./PartnerAdjustments.ts"
import type { Partner } from "./Partners.ts"
import type { PartnerStats } from "./StatsSchema.ts"

// The statistics behind GET /api/v1/partners/me, straight from the clicks and
// conversions tables (conversions are written by the conversions feature; we
// only read them). Three grouped queries: totals, per link, per day.
const DAYS = 30
const MAX_LINKS = 100
const RECENT_LATE = 20

// Per-group click and conversion aggregates; `key` is the grouping expression.
const clickAgg = `count(*) FILTER (WHERE NOT is_bot) AS clicks,
  count(*) FILTER (WHERE NOT is_bot AND is_unique) AS unique_clicks,
  count(*) FILTER (WHERE is_bot) AS bot_clicks`
// Counted by the one rule every reader shares (infra/conversionCounting.ts):
// a negative-commission row nets its money but is not a conversion.
const conversionAgg = `count(*) FILTER (WHERE ${conversionWithStatusSql("pending")}) AS pending,
  count(*) FILTER (WHERE ${conversionWithStatusSql("approved")}) AS approved,
  count(*) FILTER (WHERE ${conversionWithStatusSql("declined")}) AS declined,
  count(*) FILTER (WHERE ${conversionWithStatusSql("reversed")}) AS reversed,
  coalesce(sum(partner_share) FILTER (WHERE status = 'pending'), 0)::DECIMAL(18,4) AS rev_pending,
  coalesce(sum(partner_share) FILTER (WHERE status = 'approved'), 0)::DECIMAL(18,4) AS rev_approved`
// Final columns, computed in SQL so money stays DECIMAL until it is a string.
const figures = `coalesce(c.clicks, 0)::INTEGER AS clicks, coalesce(c.unique_clicks, 0)::INTEGER AS unique_clicks,
  coalesce(c.bot_clicks, 0)::INTEGER AS bot_clicks,
  coalesce(v.pending, 0)::INTEGER AS pending, coalesce(v.approved, 0)::INTEGER AS approved,
  coalesce(v.declined, 0)::INTEGER AS declined, coalesce(v.reversed, 0)::INTEGER AS reversed,
  coalesce(v.rev_pending, 0)::DECIMAL(18,4)::VARCHAR AS rev_pending,
  coalesce(v.rev_approved, 0)::DECIMAL(18,4)::VARCHAR AS rev_approved,
  (coalesce(v.rev_pending, 0) + coalesce(v.rev_approved, 0))::DECIMAL(18,4)::VARCHAR AS rev_total,
  CASE WHEN coalesce(c.clicks, 0) = 0 THEN '0.0000'
       ELSE round((coalesce(v.rev_pending, 0) + coalesce(v.rev_approved, 0)) * 100 / c.clicks, 4)::DECIMAL(18,4)::VARCHAR END AS epc,
  CASE WHEN coalesce(c.clicks, 0) = 0 THEN 0.0
       ELSE CAST(CAST(CAST(coalesce(v.pending, 0) + coalesce(v.approved, 0) AS DOUBLE PRECISION) / c.clicks AS DECIMAL(18,6))
                 AS DOUBLE PRECISION) END AS conversion_rate`

// The `figures` columns (never NULL: each is coalesced in SQL).
const figureColumns = {
  clicks: Integer,
  unique_clicks: Integer,
  bot_clicks: Integer,
  pending: Integer,
  approved: Integer,
  declined: Integer,
  reversed: Integer,
  rev_pending: Text,
  rev_approved: Text,
  rev_total: Text,
  epc: Text,
  conversion_rate: Schema.Number
}
const FigureRow = Schema.Struct(figureColumns)
type FigureRow = typeof FigureRow.Type

const LinkRow = Schema.Struct({
  ...figureColumns,
  id: Text,
  name: NullableText,
  state: Schema.Literals(["active", "disabled", "deleted"]),
  destination_url: Text,
  program_id: NullableText,
  program_number: NullableNumber,
  network_id: NullableText,
  created_at: Text
})

const DayRow = Schema.Struct({ ...figureColumns, date: Text })

const CurrencyRow = Schema.Struct({ currency: NullableText })

const LateRow = Schema.Struct({
  conversions: Integer,
  pending: Text,
  approved: Text,
  total: Text,
  last_attributed_at: NullableText
})

const RecentLateRow = Schema.Struct({
  id: Text,
  tracking_id: Text,
  status: Text,
  partner_share: Text,
  event_at: Text,
  first_seen_at: Text,
  attributed_at: Text
})

const toFigures = (row: FigureRow | undefined) => ({
  clicks: row?.clicks ?? 0,
  unique_clicks: row?.unique_clicks ?? 0,
  bot_clicks: row?.bot_clicks ?? 0,
  conversions: {
    total: (row?.pending ?? 0) + (row?.approved ?? 0) + (row?.declined ?? 0) + (row?.reversed ?? 0),
    pending: row?.pending ?? 0,
    approved: row?.approved ?? 0,
    declined: row?.declined ?? 0,
    reversed: row?.reversed ?? 0
  },
  revenue: {
    pending: row?.rev_pending ?? "0.0000",
    approved: row?.rev_approved ?? "0.0000",
    total: row?.rev_total ?? "0.0000"
  },
  epc: row?.epc ?? "0.0000",
  conversion_rate: row?.conversion_rate ?? 0
})

export class PartnerStatsQuery extends Context.Service<
  PartnerStatsQuery,
  {
    forPartner(partner: Partner): Effect.Effect<PartnerStats, DatabaseError>
  }
>()("app/partners/PartnerStatsQuery") {
  static readonly layer = Layer.effect(
    PartnerStatsQuery,
    Effect.gen(function* () {
      const db = yield* Database
      const publicUrl = yield* PublicUrl
      // A UTC timestamp as ISO 8601 text, second precision (spelled by the store).
      const iso = (column: string) => db.sql.utcIsoSecond(column)
      const forPartner = (partner: Partner) =>
        Effect.gen(function* () {
          const id = partner.id
          const [totals, links, linkCount, days, currency, late, recentLate, adjustments] = yield* Effect.all(
            [
              db.queryAs(
                FigureRow,
                `WITH c AS (SELECT ${clickAgg} FROM clicks WHERE partner_id = $1),
                    v AS (SELECT ${conversionAgg} FROM conversions WHERE partner_id = $1)
               SELECT ${figures} FROM c, v`,
                [id]
              ),
              db.queryAs(
                LinkRow,
                `WITH c AS (SELECT tracking_id, ${clickAgg} FROM clicks WHERE partner_id = $1 GROUP BY tracking_id),
                    v AS (SELECT tracking_id, ${conversionAgg} FROM conversions WHERE partner_id = $1 GROUP BY tracking_id)
               SELECT l.id, s.name, CASE WHEN s.deleted_at IS NOT NULL THEN 'deleted'
                        WHEN s.disabled_at IS NOT NULL THEN 'disabled' ELSE 'active' END AS state,
                      l.destination_url, l.program_id,
                      (SELECT n.number FROM program_numbers n WHERE n.program_id = l.program_id) AS program_number,
                      l.network_id, ${iso("l.created_at")} AS created_at, ${figures}
               FROM tracking_links l LEFT JOIN c ON c.tracking_id = l.id LEFT JOIN v ON v.tracking_id = l.id
               LEFT JOIN link_settings s ON s.tracking_id = l.id
               WHERE l.partner_id = $1
               ORDER BY clicks DESC, l.created_at DESC, l.id LIMIT ${MAX_LINKS}`,
                [id]
              ),
              db.queryAs(CountRow, "SELECT count(*)::INTEGER AS n FROM tracking_links WHERE partner_id = $1", [id]),
              db.queryAs(
                DayRow,
                `WITH d AS (SELECT CAST(current_date - CAST(i AS INTEGER) AS DATE) AS day FROM generate_series(0, ${DAYS - 1}) AS t(i)),
                    c AS (SELECT CAST(clicked_at AT TIME ZONE 'UTC' AS DATE) AS day, ${clickAgg} FROM clicks
                          WHERE partner_id = $1 AND clicked_at >= current_date - ${DAYS} GROUP BY 1),
                    v AS (SELECT CAST(event_at AT TIME ZONE 'UTC' AS DATE) AS day, ${conversionAgg} FROM conversions
                          WHERE partner_id = $1 AND event_at >= current_date - ${DAYS} GROUP BY 1)
               SELECT CAST(d.day AS VARCHAR) AS date, ${figures}
               FROM d LEFT JOIN c ON c.day = d.day LEFT JOIN v ON v.day = d.day ORDER BY d.day DESC`,
                [id]
              ),
              db.queryAs(
                CurrencyRow,
                "SELECT reporting_currency AS currency FROM conversions WHERE partner_id = $1 LIMIT 1",
                [id]
              ),
              db.queryAs(
                LateRow,
                `SELECT count(*) FILTER (WHERE ${countedConversionSql()})::INTEGER AS conversions,
                      coalesce(sum(partner_share) FILTER (WHERE status = 'pending'), 0)::DECIMAL(18,4)::VARCHAR AS pending,
                      coalesce(sum(partner_share) FILTER (WHERE status = 'approved'), 0)::DECIMAL(18,4)::VARCHAR AS approved,
                      coalesce(sum(partner_share) FILTER (WHERE ${earningSql()}), 0)::DECIMAL(18,4)::VARCHAR AS total,
                      ${iso("max(attributed_at)")} AS last_attributed_at
               FROM conversions WHERE partner_id = $1 AND attributed_at > created_at`,
                [id]
              ),
              db.queryAs(
                RecentLateRow,
                `SELECT id, tracking_id, status, partner_share::VARCHAR AS partner_share, ${iso("event_at")} AS event_at,
                      ${iso("created_at")} AS first_seen_at, ${iso("attributed_at")} AS attributed_at
               FROM conversions WHERE partner_id = $1 AND attributed_at > created_at
               ORDER BY attributed_at DESC, id LIMIT ${RECENT_LATE}`,
                [id]
              ),
              partnerAdjustments(db, id, iso, DAYS)
            ],
            { concurrency: 4 }
          )
          return {
            partner: {
              id,
              name: partner.name,
              tag: partner.tag,
              email: partner.email,
              app_url: partner.appUrl,
              revenue_share: partner.revenueShare,
              created_at: partner.createdAt.toISOString()
            },
            reporting_currency: currency[0]?.currency ?? null,
            totals: toFigures(totals[0]),
            links: links.map((row) => ({
              tracking_id: row.id,
              name: row.name,
              state: row.state,
              tracking_url: publicUrl.to(`/t/${row.id}`),
              destination_url: row.destination_url,
              program_id: row.program_id,
              program_number: row.program_number,
              network_id: row.network_id,
              created_at: row.created_at,
              ...toFigures(row)
            })),
            links_total: linkCount[0]?.n ?? 0,
            late_revenue: {
              conversions: late[0]?.conversions ?? 0,
              revenue: {
                pending: late[0]?.pending ?? "0.0000",
                approved: late[0]?.approved ?? "0.0000",
                total: late[0]?.total ?? "0.0000"
              },
              last_attributed_at: late[0]?.last_attributed_at ?? null,
              recent: recentLate.map((row) => ({
                conversion_id: row.id,
                tracking_id: row.tracking_id,
                status: row.status,
                partner_share: row.partner_share,
                event_at: row.event_at,
                first_seen_at: row.first_seen_at,
                attributed_at: row.attributed_at
              }))
            },
            adjustments: adjustments.summary,
            days: days.map((row) => ({
              date: row.date,
              ...toFigures(row),
              adjustments: adjustments.byDay.get(row.date) ?? "0.0000"
            }))
          } satisfies PartnerStats
        })
      return PartnerStatsQuery.of({ forPartner })
    })
  )
}
