import { Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { createHash } from "node:crypto"

// /docs is the one page of ours that runs scripts: the API reference's
// bundle and its start-up call, both inline in the page. Its policy allows
// exactly those two scripts (by their SHA-256), nothing from another origin,
// and, like every page, no framing by another site.

const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g

const policyFor = (html: string) => {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(
    ([, script]) => `'sha256-${createHash("sha256").update(script!, "utf8").digest("base64")}'`
  )
  return (
    `default-src 'none'; script-src ${hashes.join(" ")}; style-src 'self' 'unsafe-inline'; ` +
    `img-src 'self' data: https:; font-src 'self' data: https:; connect-src 'self'; ` +
    `form-action 'none'; base-uri 'none'; frame-ancestors 'none'`
  )
}

// The page is rendered once per process: its policy is computed once too.
let known: { readonly html: string; readonly policy: string } | undefined

const withPolicy = (response: HttpServerResponse.HttpServerResponse) => {
  const body = response.body
  if (body._tag !== "Uint8Array" || body.text === undefined || !body.contentType.startsWith("text/html")) {
    return response
  }
  if (known?.html !== body.text) known = { html: body.text, policy: policyFor(body.text) }
  return HttpServerResponse.setHeaders(response, {
    "content-security-policy": known.policy,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff"
  })
}

/** The /docs page's security headers, for its route. */
export const DocsPagePolicy = HttpRouter.middleware((httpEffect) => Effect.map(httpEffect, withPolicy)).layer
