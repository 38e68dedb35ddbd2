import { Effect } from "effect"
import { dropPercent } from "../../domain/deals/priceDrop.ts"
import { priceDropsSql } from "./dealQueries.ts"
import { type ListReader, type ListsQuery, num } from "./ListReader.ts"

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

export const priceDropList = (reader: ListReader) => (request: ListsQuery) =>
  reader.query<Record<string, unknown>>(priceDropsSql(request), reader.common(request)).pipe(
    Effect.map((rows) =>
      rows.map((row) => {
        const current = num(row.current)
        const median = row.median_90d === null ? null : num(row.median_90d)
        const low = num(row.low_30d)
        return {
          id: String(row.id),
          ranking: {
            current,
            low30d: low,
            median90d: median,
            dropVsMedianPercent: dropPercent(current, median),
            discountVsLow30dPercent: num(row.discount),
            below30dLow: current < low,
            referenceKind: row.reference_kind as "full" | "partial",
            observations30d: num(row.observations_30d),
            observations90d: num(row.observations_90d),
            historyDays: Math.round(num(row.history_days) * 10) / 10,
            priceSince: row.since as Date
          } satisfies PriceDropRanking
        }
      })
    )
  )
