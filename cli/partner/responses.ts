import { Schema } from "effect"

// The parts of each /api/v1 response this CLI reads. Structs ignore fields
// they do not name, so the server can add fields without breaking the CLI;
// --json always prints the body exactly as the server sent it.

export const RegisterResponse = Schema.Struct({
  partner: Schema.Struct({ id: Schema.Number, name: Schema.String, tag: Schema.String }),
  api_key: Schema.String,
  message: Schema.String
})

export const MatchResponse = Schema.Struct({
  matched: Schema.Boolean,
  reason: Schema.optional(Schema.NullOr(Schema.String)),
  program: Schema.optional(Schema.NullOr(Schema.Struct({
    name: Schema.String,
    network: Schema.String,
    domain: Schema.String,
    commission_type: Schema.String
  }))),
  link: Schema.optional(Schema.NullOr(Schema.Struct({
    tracking_id: Schema.String,
    tracking_url: Schema.String,
    affiliate_url: Schema.String,
    original_url: Schema.String
  })))
})

/** A list item whose fields the table picks by name (see `field`). */
export const Item = Schema.Record(Schema.String, Schema.Unknown)
export type Item = typeof Item.Type

/** The /api/v1 list convention: `{ data, pagination: { limit, offset, total, next_offset } }`. */
export const Page = Schema.Struct({
  data: Schema.Array(Item),
  pagination: Schema.Struct({
    limit: Schema.Number,
    offset: Schema.Number,
    total: Schema.optional(Schema.NullOr(Schema.Number)),
    next_offset: Schema.optional(Schema.NullOr(Schema.Number))
  })
})
export type Page = typeof Page.Type

/** The first of `paths` (dotted, e.g. "program.name") that holds a value. */
export const field = (item: unknown, ...paths: ReadonlyArray<string>): unknown => {
  for (const path of paths) {
    let current: unknown = item
    for (const key of path.split(".")) {
      current = current !== null && typeof current === "object" ? (current as Record<string, unknown>)[key] : undefined
    }
    if (current !== undefined && current !== null) return current
  }
  return undefined
}

/** "Showing 21-40 of 143. Next page: --offset 40" under a list table. */
export const pageFooter = (page: Page): string => {
  const { limit, offset, total, next_offset } = page.pagination
  if (page.data.length === 0) return offset > 0 ? `Nothing at offset ${offset}.` : ""
  const range = `${offset + 1}-${offset + page.data.length}`
  const of = typeof total === "number" ? ` of ${total.toLocaleString("en-US")}` : ""
  const next = typeof next_offset === "number" ? ` Next page: --offset ${next_offset} --limit ${limit}` : ""
  return `Showing ${range}${of}.${next}`
}
