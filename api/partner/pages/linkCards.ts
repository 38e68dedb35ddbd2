import { escapeHtml } from "../../../discovery/pageShell.ts"
import type { PartnerStats } from "../../../partners/StatsSchema.ts"
import { DASHBOARD_PATH } from "../formRequest.ts"
import { moneyText } from "./money.ts"

// The links list: one card per link with its name (a form to change it),
// the tracking URL to copy, its QR code, its figures, and disable/enable and
// delete. Every form carries the session's CSRF token.

type StatsLink = PartnerStats["links"][number]

export interface LinkCardsView {
  readonly links: ReadonlyArray<StatsLink>
  readonly total: number
  readonly csrfToken: string
  readonly currency: string
  readonly programmeNames: ReadonlyMap<string, string>
  /** Inline SVG QR code of each link's tracking URL. */
  readonly qrCodes: ReadonlyMap<string, string>
}

const hidden = (csrfToken: string, action: string) =>
  `<input type="hidden" name="csrf" value="${escapeHtml(csrfToken)}"><input type="hidden" name="action" value="${action}">`

const button = (csrfToken: string, id: string, action: string, label: string, style: string, accessible: string) =>
  `<form class="inline" method="post" action="${DASHBOARD_PATH}/links/${encodeURIComponent(id)}">${hidden(csrfToken, action)}` +
  `<button type="submit" class="${style}" aria-label="${escapeHtml(accessible)}">${label}</button></form>`

const card = (view: LinkCardsView, link: StatsLink, index: number) => {
  const id = link.tracking_id
  const title = link.name ?? link.destination_url
  const programme =
    link.program_id === null
      ? "No programme (unaffiliated)"
      : (view.programmeNames.get(link.program_id) ?? link.program_id)
  const disabled = link.state === "disabled"
  const field = `link-${index}`
  return (
    `<article class="link" data-tracking-id="${escapeHtml(id)}" aria-labelledby="${field}-title">` +
    `<div><h3 id="${field}-title">${escapeHtml(title)} ` +
    `<span class="state">${disabled ? "Disabled" : "Active"}</span></h3>` +
    `<p class="muted">${escapeHtml(link.destination_url)}<br>Programme: ${escapeHtml(programme)}</p>` +
    `<p><label for="${field}-url">Tracking link</label><br>` +
    `<input type="text" id="${field}-url" readonly value="${escapeHtml(link.tracking_url)}" size="40"> ` +
    `<button type="button" class="secondary" hidden data-copy="${escapeHtml(link.tracking_url)}" ` +
    `aria-label="Copy the tracking link of ${escapeHtml(title)}">Copy</button></p>` +
    `<p>${link.clicks} clicks (${link.unique_clicks} unique) · ${link.conversions.total} conversions · ` +
    `${moneyText(link.revenue.total, view.currency)} earned</p>` +
    `<form method="post" action="${DASHBOARD_PATH}/links/${encodeURIComponent(id)}">${hidden(view.csrfToken, "rename")}` +
    `<label for="${field}-name">Name</label> ` +
    `<input type="text" id="${field}-name" name="name" maxlength="100" value="${escapeHtml(link.name ?? "")}"> ` +
    `<button type="submit" class="secondary">Save name</button></form>` +
    `<div class="actions">` +
    (disabled
      ? button(view.csrfToken, id, "enable", "Enable", "secondary", `Enable ${title}`)
      : button(view.csrfToken, id, "disable", "Disable", "secondary", `Disable ${title}`)) +
    button(view.csrfToken, id, "delete", "Delete", "danger", `Delete ${title}`) +
    `</div></div>` +
    `<div class="qr">${view.qrCodes.get(id) ?? ""}` +
    `<a href="${DASHBOARD_PATH}/links/${encodeURIComponent(id)}/qr.png" download>QR code as PNG<span class="muted"> for ${escapeHtml(title)}</span></a></div>` +
    `</article>`
  )
}

export const linkCards = (view: LinkCardsView) => {
  const shown = view.links.filter((link) => link.state !== "deleted")
  if (shown.length === 0)
    return `<p>No links yet. Make one with <code>POST /api/v1/links/match</code> or <code>aff match &lt;url&gt;</code>.</p>`
  const note =
    view.total > view.links.length
      ? `<p class="muted">The ${view.links.length} most clicked of your ${view.total} links; all of them are in the CSV export and <code>GET /api/v1/links</code>.</p>`
      : ""
  return note + shown.map((link, index) => card(view, link, index)).join("")
}
