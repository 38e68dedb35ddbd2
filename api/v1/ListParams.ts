import { Schema } from "effect"

// One pagination convention for every /api/v1 list endpoint:
//   query   ?limit=1..100 (default 20) &offset=>=0 (default 0)
//   answer  { data: [...], pagination: { limit, offset, total, next_offset } }
// `next_offset` is null on the last page, so a client loops until it is null.
// Offsets (not cursors) because every list here is a small, stably ordered
// table read where COUNT(*) is cheap, and offsets let a dashboard jump to a page.
export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 100
export const MAX_OFFSET = 1_000_000

const IntFromString = (minimum: number, maximum: number) =>
  Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum, maximum }))

/** Spread into an endpoint's `query` next to its own filters. */
export const ListQuery = {
  limit: Schema.optional(IntFromString(1, MAX_LIMIT)).annotate({
    description: `Page size, 1..${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`
  }),
  offset: Schema.optional(IntFromString(0, MAX_OFFSET)).annotate({
    description: "Number of items to skip (default 0). Use `pagination.next_offset` of the previous page."
  })
}

export const Pagination = Schema.Struct({
  limit: Schema.Number,
  offset: Schema.Number,
  total: Schema.Number.annotate({ description: "Items matching the filters, over all pages." }),
  next_offset: Schema.NullOr(Schema.Number).annotate({
    description: "Offset of the next page, or null on the last page."
  })
})

/** `{ data: [item], pagination }` for an item schema. */
export const Page = <S extends Schema.Top>(item: S) =>
  Schema.Struct({ data: Schema.Array(item), pagination: Pagination })

export interface PageRequest {
  readonly limit: number
  readonly offset: number
}

export const pageRequest = (query: {
  readonly limit?: number | undefined
  readonly offset?: number | undefined
}): PageRequest => ({
  limit: query.limit ?? DEFAULT_LIMIT,
  offset: query.offset ?? 0
})

export const pageOf = <A>(data: ReadonlyArray<A>, request: PageRequest, total: number) => ({
  data,
  pagination: {
    limit: request.limit,
    offset: request.offset,
    total,
    next_offset: request.offset + data.length < total ? request.offset + data.length : null
  }
})
