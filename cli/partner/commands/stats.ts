import { Effect } from "effect"
import { Command } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { resolveConnection } from "../Connection.ts"
import * as flags from "../flags.ts"
import { PartnerStats } from "../responses.ts"
import { cell, formatFields, formatTable } from "../Table.ts"

// GET /api/v1/partners/me rendered for a person: totals first, then one row
// per link. Money is printed as the server's exact decimal strings, never
// re-computed here; clicks are human clicks (bots are counted apart).

export const stats = Command.make(
  "stats",
  { url: flags.url, json: flags.json },
  Effect.fn("partner.stats")(function*({ json, url }) {
    const connection = yield* resolveConnection(url)
    const { data, raw } = yield* callApi(connection, {
      method: "GET",
      path: "/api/v1/partners/me",
      auth: "required"
    }, PartnerStats)
    yield* flags.printResult(json, raw, () => renderStats(data))
  })
).pipe(
  Command.withDescription("Your clicks (total, unique, bots), conversions and revenue, overall and per link"),
  Command.withExamples([{ command: "partner stats", description: "Totals and the per-link table" }])
)

const percent = (rate: number) => `${(rate * 100).toFixed(2)}%`

const renderStats = (me: PartnerStats): string => {
  const { partner, totals } = me
  const currency = me.reporting_currency === null ? "" : ` ${me.reporting_currency}`
  const summary = formatFields([
    ["Partner", `${partner.name} (tag ${partner.tag}, id ${partner.id})`],
    ["Clicks", cell(totals.clicks)],
    ["Unique clicks", cell(totals.unique_clicks)],
    ["Bot clicks", cell(totals.bot_clicks)],
    ["Conversions", cell(totals.conversions.total)],
    ["  by status", `pending ${totals.conversions.pending}, approved ${totals.conversions.approved}, ` +
      `declined ${totals.conversions.declined}, reversed ${totals.conversions.reversed}`],
    ["Revenue", `${totals.revenue.total}${currency} (pending ${totals.revenue.pending}, approved ${totals.revenue.approved})`],
    ["EPC", `${totals.epc}${currency} per 100 clicks`],
    ["Conversion rate", percent(totals.conversion_rate)]
  ])
  const table = formatTable(
    [
      { header: "TRACKING ID" },
      { header: "PROGRAMME", maxWidth: 28 },
      { header: "CLICKS", align: "right" },
      { header: "UNIQUE", align: "right" },
      { header: "BOTS", align: "right" },
      { header: "CONV.", align: "right" },
      { header: "REVENUE", align: "right" },
      { header: "DESTINATION", maxWidth: 50 }
    ],
    me.links.map((link) => [
      link.tracking_id,
      link.program_id ?? "",
      cell(link.clicks),
      cell(link.unique_clicks),
      cell(link.bot_clicks),
      cell(link.conversions.total),
      link.revenue.total,
      link.destination_url
    ])
  )
  const more = me.links_total > me.links.length ? `\n(${me.links.length} of ${me.links_total} links shown, most clicked first)` : ""
  // The server sends every day of the window, zeros included; a person wants the active ones.
  const active = me.days.filter((day) => day.clicks + day.bot_clicks + day.conversions.total > 0)
  const days = formatTable(
    [
      { header: "DATE" },
      { header: "CLICKS", align: "right" },
      { header: "UNIQUE", align: "right" },
      { header: "BOTS", align: "right" },
      { header: "CONV.", align: "right" },
      { header: "REVENUE", align: "right" }
    ],
    active.map((day) => [
      day.date,
      cell(day.clicks),
      cell(day.unique_clicks),
      cell(day.bot_clicks),
      cell(day.conversions.total),
      day.revenue.total
    ])
  )
  return `${summary}\n\nPer link:\n${table}${more}\n\nPer day (days with activity, last ${me.days.length}):\n${days}`
}
