import { Effect, Layer, Option } from "effect"
import { createServer } from "node:http"
import { AppConfig } from "../../infra/AppConfig.ts"
import { Metrics } from "../../infra/Metrics.ts"

// METRICS_PORT: /metrics without the admin token, for a Prometheus scraper
// on the same host. It listens on the loopback interface only (127.0.0.1),
// whatever HOST says: the port is reachable from this machine, never from
// the network, so it needs no token. Any other path is a JSON 404.

const LOOPBACK = "127.0.0.1"
const notFound = JSON.stringify({ error: { code: "not_found", message: "this port serves GET /metrics only" } })

export const MetricsPort = {
  layer: Layer.effectDiscard(
    Effect.gen(function* () {
      const { httpEdge } = yield* AppConfig
      const port = Option.getOrUndefined(httpEdge.metricsPort)
      if (port === undefined) return
      const metrics = yield* Metrics
      const server = createServer({ headersTimeout: 5_000, requestTimeout: 10_000 }, (req, res) => {
        const path = (req.url ?? "/").split("?", 1)[0]
        if ((req.method === "GET" || req.method === "HEAD") && path === "/metrics") {
          const text = metrics.render()
          res.writeHead(200, {
            "content-type": "text/plain; version=0.0.4",
            "content-length": String(Buffer.byteLength(text))
          })
          res.end(req.method === "HEAD" ? undefined : text)
          return
        }
        res.writeHead(404, { "content-type": "application/json", "content-length": String(notFound.length) })
        res.end(notFound)
      })
      yield* Effect.acquireRelease(
        Effect.callback<void, Error>((resume) => {
          server.once("error", (error) => resume(Effect.fail(error)))
          server.listen(port, LOOPBACK, () => resume(Effect.void))
        }),
        () =>
          Effect.callback<void>((resume) => {
            server.closeAllConnections()
            server.close(() => resume(Effect.void))
          })
      ).pipe(Effect.orDie)
      yield* Effect.logInfo(`metrics on http://${LOOPBACK}:${port}/metrics (loopback only)`)
    })
  )
}
