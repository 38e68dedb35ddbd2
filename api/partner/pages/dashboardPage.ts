import { escapeHtml } from "../../../discovery/pageShell.ts"
import { barChart, type ChartPoint } from "../../../discovery/svgChart.ts"
import type { ProgrammeFigures } from "../../../partners/ProgrammeFigures.ts"
import type { PartnerStats } from "../../../partners/StatsSchema.ts"
import { DASHBOARD_PATH } from "../formRequest.ts"
import { dashboardDocument } from "./dashboardShell.ts"
import { linkCards } from "./linkCards.ts"
import { moneyNumber, moneyText, sumMoney } from "./money.ts"

// The signed-in dashboard: totals, four charts over the last 30 days (clicks,
// unique clicks, conversions, earnings), the figures per programme by name,
// and the links list. Money always as "12.34 USD".

export interface DashboardView {
  readonly stats: PartnerStats
  readonly currency: string
  readonly csrfToken: string
  readonly programmes: ReadonlyArray<ProgrammeFigures>
  readonly programmeNames: ReadonlyMap<string, string>
  readonly qrCodes: ReadonlyMap<string, string>
  /** A notice after a form post (e.g. "Link disabled."). */
  readonly notice?: string
}

type Day = PartnerStats["days"][number]

const chart = (
  id: string,
  title: string,
  days: ReadonlyArray<Day>,
  value: (day: Day) => number,
  shown: string,
  format?: (n: number) => string
) => {
  const points: Array<ChartPoint> = days.map((day) => ({ label: day.date, value: value(day) }))
  return (
    `<figure data-chart="${id}" data-total="${escapeHtml(shown)}"><figcaption>${escapeHtml(title)}: ${escapeHtml(shown)}</figcaption>` +
    barChart({ id, title: `${title} per day, last 30 days`, format, totalLabel: "Total" }, points) +
    `</figure>`
  )
}

const programmesTable = (view: DashboardView) =>
  view.programmes.length === 0
    ? `<p>No clicks or conversions yet.</p>`
    : `<div class="table-wrap"><table><caption class="muted">All time, by the programme each link earns through</caption>` +
      `<thead><tr><th scope="col">Programme</th><th scope="col" class="n">Clicks</th><th scope="col" class="n">Unique clicks</th>` +
      `<th scope="col" class="n">Conversions</th><th scope="col" class="n">Earnings</th></tr></thead><tbody>` +
      view.programmes
        .map(
          (row) =>
            `<tr><th scope="row">${escapeHtml(row.programId === null ? "No programme (unaffiliated)" : (row.name ?? row.programId))}</th>` +
            `<td class="n">${row.clicks}</td><td class="n">${row.uniqueClicks}</td><td class="n">${row.conversions}</td>` +
            `<td class="n">${moneyText(row.revenue, view.currency)}</td></tr>`
        )
        .join("") +
      `</tbody></table></div>`

export const dashboardPage = (view: DashboardView) => {
  const { stats, currency } = view
  const days = [...stats.days].reverse() // oldest first, as a chart reads
  const sum = (value: (day: Day) => number) => days.reduce((total, day) => total + value(day), 0)
  const earned = moneyText(sumMoney(days.map((day) => day.revenue.total)), currency)
  // chart labels only (a day's bar, the scale): the figures shown are exact
  const money = (n: number) => `${n.toFixed(2)} ${currency}`
  const signOut =
    `<form class="inline" method="post" action="${DASHBOARD_PATH}/sign-out">` +
    `<input type="hidden" name="csrf" value="${escapeHtml(view.csrfToken)}"><button type="submit" class="secondary">Sign out</button></form>`
  const body =
    `<h1>Your business</h1>` +
    (view.notice === undefined ? "" : `<p role="status">${escapeHtml(view.notice)}</p>`) +
    `<h2>All time</h2><ul class="cards" data-totals>` +
    `<li>Clicks<strong data-total="clicks">${stats.totals.clicks}</strong></li>` +
    `<li>Unique clicks<strong data-total="unique_clicks">${stats.totals.unique_clicks}</strong></li>` +
    `<li>Conversions<strong data-total="conversions">${stats.totals.conversions.total}</strong></li>` +
    `<li>Earnings<strong data-total="earnings">${moneyText(stats.totals.revenue.total, currency)}</strong></li></ul>` +
    `<p><a class="button" href="${DASHBOARD_PATH}/export.csv" download>Download CSV (clicks per day and conversions)</a></p>` +
    `<h2>Last 30 days</h2><div class="charts">` +
    chart("clicks", "Clicks", days, (day) => day.clicks, String(sum((day) => day.clicks))) +
    chart("unique-clicks", "Unique clicks", days, (day) => day.unique_clicks, String(sum((day) => day.unique_clicks))) +
    chart(
      "conversions",
      "Conversions",
      days,
      (day) => day.conversions.total,
      String(sum((day) => day.conversions.total))
    ) +
    chart("earnings", "Earnings", days, (day) => moneyNumber(day.revenue.total), earned, money) +
    `</div><h2>By programme</h2>${programmesTable(view)}` +
    `<h2 id="links">Your links</h2>` +
    linkCards({
      links: stats.links,
      total: stats.links_total,
      csrfToken: view.csrfToken,
      currency,
      programmeNames: view.programmeNames,
      qrCodes: view.qrCodes
    })
  return dashboardDocument(`Partner dashboard – ${stats.partner.name}`, body, stats.partner.name, signOut)
}
