import type { IncomingMessage, ServerResponse } from "node:http"
import { escapeHtml, PAGE_SECURITY_HEADERS } from "../../discovery/pageShell.ts"
import type { CachedRedirect } from "../../links/RedirectLinks.ts"
import { REDIRECT_HEADERS } from "../../links/RedirectLinks.ts"

// What /t/{id} answers for a link its partner disabled or deleted: 410 Gone,
// not a redirect. A shopper following an old post still gets somewhere (the
// page names the merchant's page, as a plain untracked link they may follow
// themselves), the partner's wish holds (no commission-bearing redirect, no
// click counted), and crawlers learn the link is gone for good. Rare by
// nature, so the body is built per answer.

type Gone = NonNullable<CachedRedirect["gone"]>

const MESSAGES: Record<Gone["state"], string> = {
  disabled: "The publisher of this link has switched it off.",
  deleted: "The publisher of this link has removed it."
}

const page = (gone: Gone) => {
  const merchant =
    gone.destination === ""
      ? ""
      : `<p>The page it pointed to is still there: <a href="${escapeHtml(gone.destination)}" rel="nofollow noreferrer">${escapeHtml(gone.destination)}</a></p>`
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>Link no longer available</title></head>` +
    `<body style="font-family:system-ui;max-width:40rem;margin:3rem auto;padding:0 1rem"><main>` +
    `<h1>This link is no longer available</h1><p>${MESSAGES[gone.state]}</p>${merchant}` +
    `<p><a href="/">Go to the start page</a></p></main></body></html>`
  )
}

const json = (gone: Gone) =>
  JSON.stringify({
    error: {
      code: gone.state === "disabled" ? "link_disabled" : "link_deleted",
      message: MESSAGES[gone.state],
      details: { destination_url: gone.destination === "" ? null : gone.destination }
    }
  })

/** 410 Gone for a disabled or deleted link: an HTML page for browsers, the JSON error otherwise. */
export const answerGone = (req: IncomingMessage, res: ServerResponse, gone: Gone) => {
  const html = (req.headers["accept"] ?? "").includes("text/html")
  const body = Buffer.from(html ? page(gone) : json(gone))
  res
    .writeHead(410, [
      "content-type",
      html ? "text/html; charset=utf-8" : "application/json",
      "content-length",
      String(body.length),
      ...REDIRECT_HEADERS,
      ...(html ? Object.entries(PAGE_SECURITY_HEADERS).flat() : [])
    ])
    .end(req.method === "HEAD" ? undefined : body)
}
