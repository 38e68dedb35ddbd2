import { Effect } from "effect"
import { Command } from "effect/cli"
import { callApi } from "../ApiClient.ts"
import { resolveConnection } from "../Connection.ts"
import * as flags from "../flags.ts"
import { CLI_NAME } from "../name.ts"
import type { PartnerStats } from "../../../partners/StatsSchema.ts"
import { barChart } from "../BarChart.ts"
import { cell, formatFields, formatTable } from "../Table.ts"

// GET /api/v1/partners/me rendered for a person: totals first, then one row
// per link, then a per-day bar chart. Money is printed as the server's exact decimal strings, never
// re-computed here; clicks are human clicks (bots are counted apart).

export const stats = Command.make(
  "stats",
  { server: flags.server, json: flags.json },
  Effect.fn("partner.stats")(function* ({ json, server }) {
    const connection = yield* resolveConnection(server)
    const { data, raw } = yield* callApi(connection, {
      auth: "required",
      send: (api) => api.partners.me({ responseMode: "response-only" }),
      answer: (answers) => answers.stats
    })
    yield* flags.printResult(json, raw, () => renderStats(data))
  })
).pipe(
  Command.withDescription(
    "Your clicks (total, unique, bots), conversions and revenue: totals, per link, and a per-day chart"
  ),
  Command.withExamples([
    { command: `${CLI_NAME} stats`, description: "Totals, the per-link table and the per-day chart" }
  ])
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
    [
      "  by status",
      `pending ${totals.conversions.pending}, approved ${totals.conversions.approved}, ` +
        `declined ${totals.conversions.declined}, reversed ${totals.conversions.reversed}`
    ],
    [
      "Revenue",
      `${totals.revenue.total}${currency} (pending ${totals.revenue.pending}, approved ${totals.revenue.approved})`
    ],
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
  const more =
    me.links_total > me.links.length
      ? `\n(${me.links.length} of ${me.links_total} links shown, most clicked first)`
      : ""
  return `${summary}\n\nPer link:\n${table}${more}\n\n${dailyChart(me)}`
}

/** Days before the first active one say nothing, but a week of context always shows. */
const MIN_DAYS = 7

/**
 * Human clicks per day as bars scaled to the busiest day, with the day's
 * figures beside each bar, oldest day first. The server sends every day of
 * its window, zeros included (newest first today; sorted here so the order
 * is ours to choose).
 */
const dailyChart = (me: PartnerStats): string => {
  const days = [...me.days].sort((a, b) => a.date.localeCompare(b.date))
  const firstActive = days.findIndex((day) => day.clicks + day.bot_clicks + day.conversions.total > 0)
  if (firstActive < 0) return `Clicks per day: none in the last ${days.length} days.`
  const shown = days.slice(Math.min(firstActive, Math.max(0, days.length - MIN_DAYS)))
  const columns = (pick: (day: PartnerStats["days"][number]) => string) => {
    const width = Math.max(...shown.map((day) => pick(day).length))
    return (day: PartnerStats["days"][number]) => pick(day).padStart(width)
  }
  const clicks = columns((day) => cell(day.clicks))
  const unique = columns((day) => cell(day.unique_clicks))
  const conversions = columns((day) => cell(day.conversions.total))
  const revenue = columns((day) => day.revenue.total)
  const busiest = Math.max(...shown.map((day) => day.clicks))
  return (
    `Clicks per day (a full bar is the busiest day: ${cell(busiest)} ${busiest === 1 ? "click" : "clicks"}):\n` +
    barChart(
      shown.map((day) => ({
        label: day.date,
        value: day.clicks,
        note: `${clicks(day)} clicks  ${unique(day)} unique  ${conversions(day)} conv.  ${revenue(day)} revenue`
      }))
    )
  )
}
