import { Effect, Schema } from "effect"
import { Command } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { resolveConnection } from "../Connection.ts"
import * as flags from "../flags.ts"
import { field, Item } from "../responses.ts"
import { cell, formatFields, formatTable } from "../Table.ts"

// GET /api/v1/partners/me rendered for a person: the totals first, then one
// row per link. Money is shown as the server sends it (exact decimal strings
// stay strings), never re-computed here.

const Stats = Schema.Record(Schema.String, Schema.Unknown)

export const stats = Command.make(
  "stats",
  { url: flags.url, json: flags.json },
  Effect.fn("partner.stats")(function*({ json, url }) {
    const connection = yield* resolveConnection(url)
    const { data, raw } = yield* callApi(connection, {
      method: "GET",
      path: "/api/v1/partners/me",
      auth: "required"
    }, Stats)
    yield* flags.printResult(json, raw, () => renderStats(data))
  })
).pipe(
  Command.withDescription("Your clicks (total, unique, bots), conversions and revenue, overall and per link"),
  Command.withExamples([{ command: "partner stats", description: "Totals and the per-link table" }])
)

const money = (value: unknown, currency: unknown) => {
  if (value === undefined) return ""
  const text = typeof value === "number" ? value.toFixed(2) : cell(value)
  return typeof currency === "string" ? `${text} ${currency}` : text
}

const renderStats = (me: Item): string => {
  const totals = field(me, "totals", "summary", "overall") ?? me
  const currency = field(totals, "currency", "revenue.currency") ?? field(me, "currency", "reporting_currency")
  const partner = field(me, "partner")
  const summary = formatFields([
    ["Partner", `${cell(field(partner, "name"))} (tag ${cell(field(partner, "tag"))}, id ${cell(field(partner, "id"))})`],
    ["Clicks", cell(field(totals, "clicks.total", "clicks", "total_clicks"))],
    ["Unique clicks", cell(field(totals, "clicks.unique", "unique_clicks"))],
    ["Bot clicks", cell(field(totals, "clicks.bots", "clicks.bot", "bot_clicks"))],
    ["Conversions", cell(field(totals, "conversions.total", "conversions.count", "conversions"))],
    ["Revenue", money(field(totals, "revenue.total", "revenue.partner", "revenue"), currency)],
    ...(field(totals, "revenue.pending") !== undefined
      ? [
        ["Revenue pending", money(field(totals, "revenue.pending"), currency)],
        ["Revenue approved", money(field(totals, "revenue.approved"), currency)]
      ] as const
      : [])
  ])
  const perLink = field(me, "links", "per_link", "by_link")
  const rows = Array.isArray(perLink) ? perLink : []
  const table = formatTable(
    [
      { header: "TRACKING ID" },
      { header: "PROGRAMME", maxWidth: 28 },
      { header: "CLICKS", align: "right" },
      { header: "UNIQUE", align: "right" },
      { header: "BOTS", align: "right" },
      { header: "CONV.", align: "right" },
      { header: "REVENUE", align: "right" },
      { header: "ORIGINAL URL", maxWidth: 50 }
    ],
    rows.map((link) => [
      cell(field(link, "tracking_id")),
      cell(field(link, "program.name", "program_name", "program")),
      cell(field(link, "clicks.total", "clicks", "total_clicks")),
      cell(field(link, "clicks.unique", "unique_clicks")),
      cell(field(link, "clicks.bots", "clicks.bot", "bot_clicks")),
      cell(field(link, "conversions.total", "conversions.count", "conversions")),
      money(field(link, "revenue.total", "revenue.partner", "revenue"), currency),
      cell(field(link, "original_url"))
    ])
  )
  return `${summary}\n\nPer link:\n${table}`
}
