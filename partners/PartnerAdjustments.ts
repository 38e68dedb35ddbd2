import { Effect, Schema } from "effect"
import { Integer, NullableText, Text } from "../infra/columns.ts"
import type { DatabaseError, DatabaseShape } from "../infra/Database.ts"

// The partner's adjustments (table conversion_adjustments, written by the
// conversions ledger): what a correction, an amended amount, a reversal or a
// reinstatement did to a conversion already credited, on the day it arrived.
// The revenue figures of partners/me stay per sale day and already net of
// them; the adjustments say when and why those figures moved.
const RECENT = 20

const SummaryRow = Schema.Struct({ adjustments: Integer, revenue: Text })
const DayRow = Schema.Struct({ date: Text, revenue: Text })
const RecentRow = Schema.Struct({
  conversion_id: Text,
  tracking_id: NullableText,
  kind: Schema.Literals(["correction", "amendment", "reversal", "reinstatement"]),
  reason: NullableText,
  previous_status: Text,
  status: Text,
  partner_share_change: Text,
  event_at: Text,
  arrived_at: Text
})

export interface PartnerAdjustments {
  readonly summary: {
    readonly adjustments: number
    readonly revenue: string
    readonly recent: ReadonlyArray<typeof RecentRow.Type>
  }
  /** Net partner-share change per UTC day of arrival, over the last `days` days. */
  readonly byDay: ReadonlyMap<string, string>
}

export const partnerAdjustments = (
  db: Pick<DatabaseShape, "queryAs">,
  partnerId: number,
  iso: (column: string) => string,
  days: number
): Effect.Effect<PartnerAdjustments, DatabaseError> =>
  Effect.gen(function* () {
    const [summary, byDay, recent] = yield* Effect.all(
      [
        db.queryAs(
          SummaryRow,
          `SELECT count(*)::INTEGER AS adjustments,
                  coalesce(sum(partner_share_change), 0)::DECIMAL(18,4)::VARCHAR AS revenue
           FROM conversion_adjustments WHERE partner_id = $1`,
          [partnerId]
        ),
        db.queryAs(
          DayRow,
          `SELECT CAST(CAST(arrived_at AT TIME ZONE 'UTC' AS DATE) AS VARCHAR) AS date,
                  sum(partner_share_change)::DECIMAL(18,4)::VARCHAR AS revenue
           FROM conversion_adjustments WHERE partner_id = $1 AND arrived_at >= current_date - ${days} GROUP BY 1`,
          [partnerId]
        ),
        db.queryAs(
          RecentRow,
          `SELECT conversion_id, tracking_id, kind, reason, previous_status, status,
                  partner_share_change::VARCHAR AS partner_share_change, ${iso("event_at")} AS event_at,
                  ${iso("arrived_at")} AS arrived_at
           FROM conversion_adjustments WHERE partner_id = $1
           ORDER BY arrived_at DESC, conversion_id LIMIT ${RECENT}`,
          [partnerId]
        )
      ],
      { concurrency: 3 }
    )
    return {
      summary: {
        adjustments: summary[0]?.adjustments ?? 0,
        revenue: summary[0]?.revenue ?? "0.0000",
        recent
      },
      byDay: new Map(byDay.map((row) => [row.date, row.revenue]))
    }
  })
