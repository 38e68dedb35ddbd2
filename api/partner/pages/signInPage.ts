import { escapeHtml } from "../../../discovery/pageShell.ts"
import { DASHBOARD_PATH } from "../formRequest.ts"
import { dashboardDocument } from "./dashboardShell.ts"

/** The sign-in form: the API key from registration, exchanged for a session cookie. */
export const signInPage = (csrfToken: string, problem?: string) =>
  dashboardDocument(
    "Partner sign-in",
    `<h1>Partner dashboard</h1>` +
      `<p>Sign in with the API key you received when you registered (it starts with <code>ak_</code>). ` +
      `The key is checked once; your browser then keeps a session cookie for a few hours.</p>` +
      (problem === undefined ? "" : `<p class="error" role="alert">${escapeHtml(problem)}</p>`) +
      `<form method="post" action="${DASHBOARD_PATH}/sign-in">` +
      `<input type="hidden" name="csrf" value="${escapeHtml(csrfToken)}">` +
      `<p><label for="api_key">API key</label><br>` +
      `<input type="password" id="api_key" name="api_key" autocomplete="current-password" required size="50"></p>` +
      `<p><button type="submit">Sign in</button></p></form>` +
      `<p class="muted">No key yet? Register with <code>POST /api/v1/partners/register</code> or <code>aff init</code>.</p>`
  )

/** A refused form post, for people: what happened and the way back. */
export const refusedPage = (status: number, message: string) =>
  dashboardDocument(
    status === 429 ? "Too many attempts" : "Request refused",
    `<h1>${status === 429 ? "Too many attempts" : "This request was refused"}</h1>` +
      `<p class="error" role="alert">${escapeHtml(message)}</p><p><a href="${DASHBOARD_PATH}">Back to the dashboard</a></p>`
  )
