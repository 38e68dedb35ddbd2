import { Context, Effect, Layer, Schema } from "effect"
import { csvDocument, type CsvValue } from "../domain/csv/csv.ts"
import { Integer, NullableText, Text } from "../infra/columns.ts"
import { isConversionSql } from "../infra/conversionCounting.ts"
import { Database, type DatabaseError } from "../infra/Database.ts"
import { EXPORT_HEADER } from "./exportColumns.ts"

// GET /api/v1/partners/me/export?format=csv (and the dashboard's download):
// a partner's whole history as one CSV a spreadsheet opens. Two kinds of
// rows in one table, told apart by `record`:
//   clicks      one per UTC day and link: human clicks, unique, bot clicks
//   conversion  one per conversion row: status, partner share, currency
// Summing it gives partners/me's totals: clicks over `clicks` rows; the
// conversions total is the `conversion` rows of kind `sale` that are pending,
// approved, declined or reversed; revenue is the partner_share of pending
// and approved rows (a `correction` row nets its money, as in the stats).

const ClickDayRow = Schema.Struct({
  date: Text,
  tracking_id: Text,
  name: NullableText,
  clicks: Integer,
  unique_clicks: Integer,
  bot_clicks: Integer
})

const ConversionRow = Schema.Struct({
  id: Text,
  date: Text,
  tracking_id: NullableText,
  name: NullableText,
  sale: Schema.Boolean,
  status: Text,
  event_at: Text,
  partner_share: Text,
  currency: Text
})

export class PartnerExport extends Context.Service<
  PartnerExport,
  { csv(partnerId: number): Effect.Effect<string, DatabaseError> }
>()("app/partners/PartnerExport") {
  static readonly layer = Layer.effect(
    PartnerExport,
    Effect.gen(function* () {
      const db = yield* Database
      const csv = (partnerId: number) =>
        Effect.gen(function* () {
          const [days, conversions] = yield* Effect.all(
            [
              db.queryAs(
                ClickDayRow,
                `SELECT CAST(CAST(c.clicked_at AT TIME ZONE 'UTC' AS DATE) AS VARCHAR) AS date, c.tracking_id, s.name,
                   count(*) FILTER (WHERE NOT c.is_bot)::INTEGER AS clicks,
                   count(*) FILTER (WHERE NOT c.is_bot AND c.is_unique)::INTEGER AS unique_clicks,
                   count(*) FILTER (WHERE c.is_bot)::INTEGER AS bot_clicks
                 FROM clicks c LEFT JOIN link_settings s ON s.tracking_id = c.tracking_id
                 WHERE c.partner_id = $1
                 GROUP BY 1, 2, 3 ORDER BY 1, 2`,
                [partnerId]
              ),
              db.queryAs(
                ConversionRow,
                `SELECT v.id, CAST(CAST(v.event_at AT TIME ZONE 'UTC' AS DATE) AS VARCHAR) AS date, v.tracking_id, s.name,
                   ${isConversionSql("v.")} AS sale, v.status, ${db.sql.utcIsoSecond("v.event_at")} AS event_at,
                   v.partner_share::DECIMAL(18,4)::VARCHAR AS partner_share, v.reporting_currency AS currency
                 FROM conversions v LEFT JOIN link_settings s ON s.tracking_id = v.tracking_id
                 WHERE v.partner_id = $1
                 ORDER BY v.event_at, v.id`,
                [partnerId]
              )
            ],
            { concurrency: 2 }
          )
          const rows: Array<ReadonlyArray<CsvValue>> = [
            ...days.map((day) => [
              "clicks",
              day.date,
              day.tracking_id,
              day.name,
              day.clicks,
              day.unique_clicks,
              day.bot_clicks,
              null,
              null,
              null,
              null,
              null,
              null
            ]),
            ...conversions.map((row) => [
              "conversion",
              row.date,
              row.tracking_id,
              row.name,
              null,
              null,
              null,
              row.id,
              row.sale ? "sale" : "correction",
              row.status,
              row.event_at,
              row.partner_share,
              row.currency
            ])
          ]
          return csvDocument(EXPORT_HEADER, rows)
        })
      return PartnerExport.of({ csv })
    })
  )
}
