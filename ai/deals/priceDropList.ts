import { Effect, Schema } from "effect"
import { dropPercent } from "../../domain/deals/priceDrop.ts"
import { priceDropsSql } from "./dealQueries.ts"
import { Numeric, Text, Timestamp } from "../../infra/columns.ts"
import { type ListReader, type ListsQuery } from "./ListReader.ts"

// Price drops against the previous 30-day low and 90-day median (domain/deals/priceDrop.ts), ranked in SQL.

export interface PriceDropRanking {
  readonly current: number
  readonly low30d: number
  readonly median90d: number | null
  readonly dropVsMedianPercent: number | null
  readonly discountVsLow30dPercent: number
  readonly below30dLow: boolean
  readonly referenceKind: "full" | "partial"
  readonly observations30d: number
  readonly observations90d: number
  readonly historyDays: number
  readonly priceSince: Date
}

const PriceDropRow = Schema.Struct({
  id: Text,
  current: Numeric,
  median_90d: Schema.NullOr(Numeric),
  low_30d: Numeric,
  discount: Numeric,
  reference_kind: Schema.Literals(["full", "partial"]),
  observations_30d: Numeric,
  observations_90d: Numeric,
  history_days: Numeric,
  since: Timestamp
})

export const priceDropList = (reader: ListReader) => (request: ListsQuery) =>
  reader.query(PriceDropRow, priceDropsSql(reader.db, request), reader.common(request)).pipe(
    Effect.map((rows) =>
      rows.map((row) => {
        const current = row.current
        const median = row.median_90d
        const low = row.low_30d
        return {
          id: row.id,
          ranking: {
            current,
            low30d: low,
            median90d: median,
            dropVsMedianPercent: dropPercent(current, median),
            discountVsLow30dPercent: row.discount,
            below30dLow: current < low,
            referenceKind: row.reference_kind,
            observations30d: row.observations_30d,
            observations90d: row.observations_90d,
            historyDays: Math.round(row.history_days * 10) / 10,
            priceSince: row.since
          } satisfies PriceDropRanking
        }
      })
    )
  )
