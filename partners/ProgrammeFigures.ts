import { Context, Effect, Layer, Schema } from "effect"
import { Integer, NullableText, Text } from "../infra/columns.ts"
import { earningSql, isConversionSql } from "../infra/conversionCounting.ts"
import { Database, type DatabaseError } from "../infra/Database.ts"

// A partner's business per programme, with the programmes' names, for the
// dashboard: clicks and conversions grouped by the programme each link earns
// through now (a link moved to another programme takes its history along;
// an unaffiliated link's is under no programme). Counted by the same rules as
// partners/me (infra/conversionCounting.ts).

export interface ProgrammeFigures {
  /** null: links without a programme (unaffiliated). */
  readonly programId: string | null
  /** The programme's name; null when it is no longer in the catalog (or for no programme). */
  readonly name: string | null
  readonly clicks: number
  readonly uniqueClicks: number
  readonly conversions: number
  /** Partner share of pending and approved conversions, exact decimal text. */
  readonly revenue: string
}

const FiguresRow = Schema.Struct({
  program_id: NullableText,
  name: NullableText,
  clicks: Integer,
  unique_clicks: Integer,
  conversions: Integer,
  revenue: Text
})

const NameRow = Schema.Struct({ id: Text, name: Text })

export class ProgrammeFiguresQuery extends Context.Service<
  ProgrammeFiguresQuery,
  {
    forPartner(partnerId: number): Effect.Effect<ReadonlyArray<ProgrammeFigures>, DatabaseError>
    /** Programme names by id (ids no longer in the catalog are absent). */
    names(programIds: ReadonlyArray<string>): Effect.Effect<ReadonlyMap<string, string>, DatabaseError>
  }
>()("app/partners/ProgrammeFiguresQuery") {
  static readonly layer = Layer.effect(
    ProgrammeFiguresQuery,
    Effect.gen(function* () {
      const db = yield* Database
      const forPartner = (partnerId: number) =>
        Effect.map(
          db.queryAs(
            FiguresRow,
            // One row per programme from each table, summed (a FULL JOIN on a nullable
            // programme id is not one PostgreSQL can run).
            `WITH u AS (SELECT l.program_id, count(*) FILTER (WHERE NOT k.is_bot) AS clicks,
                          count(*) FILTER (WHERE NOT k.is_bot AND k.is_unique) AS unique_clicks,
                          0 AS conversions, CAST(0 AS DECIMAL(18,4)) AS revenue
                        FROM clicks k JOIN tracking_links l ON l.id = k.tracking_id
                        WHERE k.partner_id = $1 GROUP BY l.program_id
                        UNION ALL
                        SELECT l.program_id, 0, 0, count(*) FILTER (WHERE ${isConversionSql("x.")}),
                          coalesce(sum(x.partner_share) FILTER (WHERE ${earningSql("x.")}), 0)
                        FROM conversions x JOIN tracking_links l ON l.id = x.tracking_id
                        WHERE x.partner_id = $1 GROUP BY l.program_id),
                  g AS (SELECT program_id, sum(clicks) AS clicks, sum(unique_clicks) AS unique_clicks,
                          sum(conversions) AS conversions, sum(revenue) AS revenue FROM u GROUP BY program_id)
             SELECT g.program_id, (SELECT min(p.name) FROM programs p WHERE p.id = g.program_id) AS name,
               g.clicks::INTEGER AS clicks, g.unique_clicks::INTEGER AS unique_clicks,
               g.conversions::INTEGER AS conversions, g.revenue::DECIMAL(18,4)::VARCHAR AS revenue
             FROM g ORDER BY g.clicks DESC, g.program_id`,
            [partnerId]
          ),
          (rows) =>
            rows.map((row) => ({
              programId: row.program_id,
              name: row.name,
              clicks: row.clicks,
              uniqueClicks: row.unique_clicks,
              conversions: row.conversions,
              revenue: row.revenue
            }))
        )

      const names = (programIds: ReadonlyArray<string>) =>
        programIds.length === 0
          ? Effect.succeed(new Map<string, string>())
          : Effect.map(
              db.queryAs(
                NameRow,
                `SELECT id, min(name) AS name FROM programs WHERE id IN ${db.jsonList("$1")} GROUP BY id`,
                [JSON.stringify([...new Set(programIds)])]
              ),
              (rows) => new Map(rows.map((row) => [row.id, row.name]))
            )

      return ProgrammeFiguresQuery.of({ forPartner, names })
    })
  )
}
