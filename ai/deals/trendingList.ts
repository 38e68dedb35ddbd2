import { Effect, Schema } from "effect"
import { clickGrowth } from "../../domain/deals/trending.ts"
import { trendingSql } from "./dealQueries.ts"
import { Numeric, Text } from "../../infra/columns.ts"
import { type ListReader, type ListsQuery } from "./ListReader.ts"

// Trending: products gaining visitors (domain/deals/trending.ts), ranked in SQL.

export interface TrendingRanking {
  readonly score: number
  readonly clicks24h: number
  readonly clicksPrev24h: number
  readonly clicksWindow: number
  readonly growth: number | null
}

const TrendingRow = Schema.Struct({
  id: Text,
  score: Numeric,
  clicks_24h: Numeric,
  clicks_prev_24h: Numeric,
  clicks_window: Numeric
})

export const trendingList = (reader: ListReader) => (request: ListsQuery) =>
  reader
    .keepDiscounted(
      (offset, size) =>
        reader.query(TrendingRow, trendingSql(reader.db, request), { ...reader.common(request), offset, limit: size }),
      request.limit,
      request.minDiscount
    )
    .pipe(
      Effect.map((rows) =>
        rows.map((row) => ({
          id: row.id,
          ranking: {
            score: row.score,
            clicks24h: row.clicks_24h,
            clicksPrev24h: row.clicks_prev_24h,
            clicksWindow: row.clicks_window,
            growth: clickGrowth(row.clicks_24h, row.clicks_prev_24h)
          } satisfies TrendingRanking
        }))
      )
    )
