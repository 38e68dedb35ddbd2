import { Effect } from "effect"
import { clickGrowth } from "../../domain/deals/trending.ts"
import { trendingSql } from "./dealQueries.ts"
import { type ListReader, type ListsQuery, num } from "./ListReader.ts"

// Trending: products gaining human clicks (domain/deals/trending.ts), ranked in SQL.

export interface TrendingRanking {
  readonly score: number
  readonly clicks24h: number
  readonly clicksPrev24h: number
  readonly clicksWindow: number
  readonly growth: number | null
}

interface TrendingRow {
  readonly id: string
  readonly score: number
  readonly clicks_24h: number
  readonly clicks_prev_24h: number
  readonly clicks_window: number
}

export const trendingList = (reader: ListReader) => (request: ListsQuery) =>
  reader.keepDiscounted(
    (offset, size) =>
      reader.query<TrendingRow>(trendingSql(request), { ...reader.common(request), offset, limit: size }),
    request.limit,
    request.minDiscount
  ).pipe(
    Effect.map((rows) =>
      rows.map((row) => ({
        id: String(row.id),
        ranking: {
          score: num(row.score),
          clicks24h: num(row.clicks_24h),
          clicksPrev24h: num(row.clicks_prev_24h),
          clicksWindow: num(row.clicks_window),
          growth: clickGrowth(num(row.clicks_24h), num(row.clicks_prev_24h))
        } satisfies TrendingRanking
      }))
    )
  )
