import { Schema } from "effect"

// The client's view of each /api/v1 response: only the fields this CLI reads.
// Structs ignore fields they do not name, so the server can add fields
// without breaking the CLI; --json always prints the body exactly as the
// server sent it. Money arrives as exact decimal strings and stays a string.

export const RegisterResponse = Schema.Struct({
  partner: Schema.Struct({ id: Schema.Number, name: Schema.String, tag: Schema.String }),
  api_key: Schema.String,
  message: Schema.String
})

export const MatchResponse = Schema.Union([
  Schema.Struct({
    matched: Schema.Literal(true),
    created: Schema.optional(Schema.Boolean),
    program: Schema.Struct({
      id: Schema.String,
      name: Schema.String,
      network: Schema.String,
      domain: Schema.String,
      commission_type: Schema.String
    }),
    link: Schema.Struct({
      tracking_id: Schema.String,
      tracking_url: Schema.String,
      affiliate_url: Schema.String,
      original_url: Schema.String
    })
  }),
  Schema.Struct({
    matched: Schema.Literal(false),
    reason: Schema.String,
    message: Schema.optional(Schema.String),
    destination_url: Schema.optional(Schema.String)
  })
])

const Pagination = Schema.Struct({
  limit: Schema.Number,
  offset: Schema.Number,
  total: Schema.Number,
  next_offset: Schema.NullOr(Schema.Number)
})

/** The /api/v1 list convention: `{ data, pagination: { limit, offset, total, next_offset } }`. */
export const Page = <S extends Schema.Top>(item: S) =>
  Schema.Struct({ data: Schema.Array(item), pagination: Pagination })

export interface PageView {
  readonly data: ReadonlyArray<unknown>
  readonly pagination: typeof Pagination.Type
}

export const LinkItem = Schema.Struct({
  tracking_id: Schema.String,
  // optional: servers before link names and states do not send them
  name: Schema.optional(Schema.NullOr(Schema.String)),
  state: Schema.optional(Schema.String),
  tracking_url: Schema.String,
  original_url: Schema.String,
  program_id: Schema.NullOr(Schema.String),
  network_id: Schema.NullOr(Schema.String),
  source: Schema.String,
  created_at: Schema.String,
  // optional: servers before links followed the catalog do not send it
  status: Schema.optional(Schema.String)
})

export const NetworkItem = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  status: Schema.String,
  website: Schema.NullOr(Schema.String),
  regions: Schema.Array(Schema.String),
  programs: Schema.Number
})

export const ProgramItem = Schema.Struct({
  id: Schema.String,
  network_id: Schema.String,
  name: Schema.String,
  domains: Schema.Array(Schema.String),
  country: Schema.NullOr(Schema.String),
  commission_type: Schema.String,
  commission_rate: Schema.String,
  commission_currency: Schema.NullOr(Schema.String),
  status: Schema.String
})

/** "CPS 4%" for a percentage, "CPA 12.50 EUR" for a fixed amount per action. */
export const commissionText = (program: typeof ProgramItem.Type) => {
  const rate = program.commission_rate.replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "")
  return program.commission_type === "CPS"
    ? `${program.commission_type} ${rate}%`
    : `${program.commission_type} ${rate}${program.commission_currency ? ` ${program.commission_currency}` : ""}`
}

/** GET /api/search: intent search whose results carry tracked links (/t/...) with the caller's tag. */
export const SearchFeed = Schema.Struct({
  guidance: Schema.String,
  count: Schema.Number,
  results: Schema.Array(
    Schema.Struct({
      title: Schema.String,
      store: Schema.String,
      availability: Schema.String,
      price: Schema.Struct({
        amount: Schema.Number,
        currency: Schema.String,
        originalPrice: Schema.optional(Schema.Number),
        discountPercent: Schema.optional(Schema.Number)
      }),
      links: Schema.Struct({ tracked: Schema.String })
    })
  )
})
export type SearchFeed = typeof SearchFeed.Type

const Figures = {
  clicks: Schema.Number,
  unique_clicks: Schema.Number,
  bot_clicks: Schema.Number,
  conversions: Schema.Struct({
    total: Schema.Number,
    pending: Schema.Number,
    approved: Schema.Number,
    declined: Schema.Number,
    reversed: Schema.Number
  }),
  revenue: Schema.Struct({ pending: Schema.String, approved: Schema.String, total: Schema.String }),
  epc: Schema.String,
  conversion_rate: Schema.Number
}

export const PartnerStats = Schema.Struct({
  partner: Schema.Struct({ id: Schema.Number, name: Schema.String, tag: Schema.String }),
  reporting_currency: Schema.NullOr(Schema.String),
  totals: Schema.Struct(Figures),
  links: Schema.Array(
    Schema.Struct({
      tracking_id: Schema.String,
      destination_url: Schema.String,
      program_id: Schema.NullOr(Schema.String),
      ...Figures
    })
  ),
  links_total: Schema.Number,
  days: Schema.Array(Schema.Struct({ date: Schema.String, ...Figures }))
})
export type PartnerStats = typeof PartnerStats.Type

/** "Showing 21-40 of 143. Next page: --offset 40 --limit 20" under a list table. */
export const pageFooter = (page: PageView): string => {
  const { limit, next_offset, offset, total } = page.pagination
  if (page.data.length === 0) return offset > 0 ? `Nothing at offset ${offset}.` : ""
  const range = `${offset + 1}-${offset + page.data.length} of ${total.toLocaleString("en-US")}.`
  return next_offset === null
    ? `Showing ${range}`
    : `Showing ${range} Next page: --offset ${next_offset} --limit ${limit}`
}

/** A list table with its page footer underneath (no footer for an empty first page). */
export const withPageFooter = (table: string, page: PageView): string => {
  const footer = pageFooter(page)
  return footer.length > 0 ? `${table}\n${footer}` : table
}
