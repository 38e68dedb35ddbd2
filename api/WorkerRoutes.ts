import type { IncomingMessage, ServerResponse } from "node:http"

// ROLE=worker serves its operations surface only: health, readiness, metrics
// and the admin endpoints (feed runs, manual ingest). Every other path (the
// API, pages, the redirect) belongs to the ROLE=api replicas behind the load
// balancer; the worker answers it with our JSON 404 before the router, so a
// misrouted request never creates links or records clicks here.
const SERVED = new Set(["/health", "/ready", "/metrics", "/admin"])

const servedByWorker = (path: string) => SERVED.has(path) || path.startsWith("/admin/")

const notServedBody = Buffer.from(
  JSON.stringify({
    error: {
      code: "not_found",
      message:
        "this process runs ROLE=worker and serves only /health, /ready, /metrics and /admin; the API is served by the ROLE=api processes"
    }
  })
)

/** Answers every path the worker does not serve with a JSON 404; false for the ones it serves (the router's). */
export const workerOnlyPaths = (req: IncomingMessage, res: ServerResponse): boolean => {
  const path = (req.url ?? "/").split("?", 1)[0]!
  if (servedByWorker(path)) return false
  res.writeHead(404, { "content-type": "application/json", "content-length": String(notServedBody.length) })
  res.end(req.method === "HEAD" ? undefined : notServedBody)
  return true
}
