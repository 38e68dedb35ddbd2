import { Effect, Schema } from "effect"
import { Text } from "../../infra/columns.ts"
import type { Database, DatabaseError, RowSchema } from "../../infra/Database.ts"
import { marketOf } from "../../domain/markets/markets.ts"
import { bind, discountAtLeastSql, type Filters } from "./dealQueries.ts"

// What every list needs to run its SQL: named parameters bound, the request's
// common values, and the batch-and-confirm walk of a discount-filtered list.

/** What the lists are computed against: the request's filters, one instant, the list size. */
export interface ListsQuery extends Filters {
  readonly now: Date
  readonly limit: number
}

export type ListReader = ReturnType<typeof makeListReader>

const IdRow = Schema.Struct({ id: Text })

export const makeListReader = (db: Database["Service"]) => {
  const query = <S extends RowSchema>(row: S, sql: string, values: Parameters<typeof bind>[1]) => {
    const bound = bind(sql, values)
    return db.queryAs(row, bound.sql, bound.params)
  }
  // Raw rows, for the read model's ProductRow: its shape is readModel's to
  // declare (a row schema there would let this decode too).
  const rows = <T>(sql: string, values: Parameters<typeof bind>[1]) => {
    const bound = bind(sql, values)
    return db.query<T>(bound.sql, bound.params)
  }

  const common = (request: ListsQuery) => ({
    now: request.now.toISOString(),
    category: request.category?.trim().toLowerCase() ?? "",
    min_discount: request.minDiscount,
    currency: request.currency ?? "",
    country: request.country ?? "",
    country_currency: request.country === undefined ? "" : (marketOf(request.country)?.currency ?? ""),
    limit: request.limit
  })

  const discountAtLeast = (ids: ReadonlyArray<string>, minDiscount: number) =>
    query(IdRow, discountAtLeastSql(db), { ids: JSON.stringify(ids), min_discount: minDiscount }).pipe(
      Effect.map((rows) => new Set(rows.map((row) => row.id)))
    )

  // A list filtered by discount ranks the products that may have it
  // (a cheap necessary condition in SQL), then confirms a batch at a time
  // with the exact rule, growing the batch, until it has `want` rows.
  const keepDiscounted = <T extends { readonly id: string }>(
    page: (offset: number, size: number) => Effect.Effect<ReadonlyArray<T>, DatabaseError>,
    want: number,
    minDiscount: number
  ) =>
    Effect.gen(function* () {
      if (minDiscount <= 0) return yield* page(0, want)
      const kept: Array<T> = []
      let offset = 0
      let size = Math.max(want * 4, 40)
      while (kept.length < want) {
        const rows = yield* page(offset, size)
        if (rows.length === 0) break
        const passing = yield* discountAtLeast(
          rows.map((row) => row.id),
          minDiscount
        )
        kept.push(...rows.filter((row) => passing.has(row.id)))
        if (rows.length < size) break
        offset += size
        size *= 4
      }
      return kept.slice(0, want)
    })

  return { db, query, rows, common, keepDiscounted }
}
