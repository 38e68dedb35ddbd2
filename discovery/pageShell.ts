import { HttpServerResponse } from "effect/http"
import { withoutControlCharacters } from "../domain/text/controlCharacters.ts"

// What every server-rendered page shares: escaping, the document around the
// body, the base style, and the response headers. No page carries a script.

/** `value` as HTML text or attribute value: markup characters escaped, control characters removed. */
export const escapeHtml = (value: string) =>
  withoutControlCharacters(value).replace(
    /[&<>"'`]/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;" })[char] ?? char
  )

// Readable on a phone (fluid layout, 16px+ text), WCAG AA contrast (text
// #1a1a1a on #fff, white on #0b5394 for buttons).
export const BASE_STYLE = `
  *{box-sizing:border-box}
  body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff}
  main{max-width:44rem;margin:0 auto;padding:1rem}
  h1{font-size:1.5rem;line-height:1.25;margin:.5rem 0 1rem}
  ul{padding-left:1.25rem}
`

/**
 * Drawn behind every product picture: a picture that fails to load (the
 * store moved it, a blocked host) shows it instead (with its alt text, if
 * any), with no script.
 */
export const IMAGE_PLACEHOLDER =
  "data:image/svg+xml," +
  encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 90"><rect width="120" height="90" fill="#eef1f4"/>` +
      `<path d="M30 66l20-24 14 16 10-10 16 18z" fill="#9aa5b1"/><circle cx="82" cy="30" r="8" fill="#9aa5b1"/></svg>`
  )

export interface HtmlDocument {
  readonly title: string
  readonly body: string
  /** Page-specific CSS after the base style. */
  readonly style?: string
  /** Search engines may list the page (the start page); everything else is noindex. */
  readonly indexable?: boolean
}

export const htmlDocument = ({ title, body, style = "", indexable = false }: HtmlDocument) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${indexable ? "" : `<meta name="robots" content="noindex">\n`}<title>${escapeHtml(title)}</title>
<style>${BASE_STYLE}${style}</style>
</head>
<body>
${body}
</body>
</html>`

/**
 * The headers of every HTML page we write (these pages, the 404 pages, the
 * redirect's unknown-link page): no script runs, nothing loads but images
 * and inline style, and no other site may frame the page (clickjacking).
 */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "content-security-policy":
    "default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
}

/** An HTML response; pages never run scripts, and the policy says so to the browser. */
export const htmlResponse = (body: string, status: number, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(body, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: { ...PAGE_SECURITY_HEADERS, ...headers }
  })
