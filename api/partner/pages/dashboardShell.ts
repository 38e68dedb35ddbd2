import { createHash } from "node:crypto"
import { escapeHtml, htmlDocument, PAGE_SECURITY_HEADERS } from "../../../discovery/pageShell.ts"
import { DASHBOARD_PATH } from "../formRequest.ts"

// The document around every dashboard page: the site header (back to the
// start page), the page's own style, and the one script the dashboard runs
// (the copy buttons). Everything works without it: the buttons stay hidden
// and the tracking URL is a read-only field to select and copy by hand.

const COPY_SCRIPT =
  'document.querySelectorAll("button[data-copy]").forEach(function(b){b.hidden=false;' +
  'b.addEventListener("click",function(){navigator.clipboard.writeText(b.getAttribute("data-copy")).then(' +
  'function(){b.textContent="Copied"},function(){b.textContent="Select the link to copy it"})})})'

const COPY_SCRIPT_HASH = createHash("sha256").update(COPY_SCRIPT).digest("base64")

/** The page policy plus exactly the copy script (by its hash): no other script runs. */
export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  ...PAGE_SECURITY_HEADERS,
  "content-security-policy": `${PAGE_SECURITY_HEADERS["content-security-policy"]}; script-src 'sha256-${COPY_SCRIPT_HASH}'`,
  "cache-control": "no-store",
  "referrer-policy": "same-origin"
}

const STYLE = `
  main{max-width:60rem}
  [hidden]{display:none!important}
  .site{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;padding:.75rem 1rem;border-bottom:1px solid #d0d0d0}
  .site a{color:#0b5394}
  .brand{font-weight:700;text-decoration:none}
  .inline{display:inline}
  button,.button{font:inherit;padding:.35rem .8rem;border-radius:.3rem;border:1px solid #0b5394;background:#0b5394;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
  button.secondary{background:#fff;color:#0b5394}
  button.danger{background:#fff;color:#a30000;border-color:#a30000}
  input[type=text],input[type=password],input[type=url]{font:inherit;padding:.35rem;border:1px solid #595959;border-radius:.3rem;max-width:100%}
  .cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:.75rem;margin:0 0 1.5rem;padding:0;list-style:none}
  .cards li{border:1px solid #d0d0d0;border-radius:.4rem;padding:.6rem .8rem}
  .cards strong{display:block;font-size:1.4rem}
  .charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:1rem}
  figure{margin:0;border:1px solid #d0d0d0;border-radius:.4rem;padding:.6rem}
  figcaption{font-weight:600;margin-bottom:.3rem}
  table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}
  th,td{text-align:left;padding:.35rem .4rem;border-bottom:1px solid #e0e0e0;vertical-align:top}
  td.n,th.n{text-align:right}
  .table-wrap{overflow-x:auto}
  .link{border:1px solid #d0d0d0;border-radius:.4rem;padding:.75rem;margin:0 0 1rem;display:grid;grid-template-columns:1fr 8rem;gap:.75rem}
  .link h3{margin:0;font-size:1.1rem}
  .link .qr svg{width:8rem;height:8rem}
  .state{font-size:.9rem;padding:.05rem .4rem;border-radius:.3rem;border:1px solid #595959}
  .actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.5rem}
  .error{border:1px solid #a30000;color:#a30000;padding:.5rem .75rem;border-radius:.3rem}
  .muted{color:#595959}
`

/** A dashboard page: the site header, `body` in <main>, and the copy script. */
export const dashboardDocument = (title: string, body: string, signedInAs?: string, signOut?: string) =>
  htmlDocument({
    title,
    style: STYLE,
    body:
      `<header class="site"><a class="brand" href="/">Affiliate Commerce</a>` +
      `<nav aria-label="Site"><a href="/">Search products</a> · <a href="${DASHBOARD_PATH}">Partner dashboard</a> · <a href="/docs">API</a></nav>` +
      (signedInAs === undefined
        ? ""
        : `<div>Signed in as <strong>${escapeHtml(signedInAs)}</strong> ${signOut ?? ""}</div>`) +
      `</header><main id="main">${body}</main><script>${COPY_SCRIPT}</script>`
  })
