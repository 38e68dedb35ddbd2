import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import type { Role } from "../infra/AppConfig.ts"
import { PublicUrl } from "../infra/PublicUrl.ts"
import type { DiscoverySearch } from "../discovery/DiscoverySearch.ts"
import { Api } from "./Api.ts"
import { AdminConversionsHandlers } from "./admin/conversions/Http.ts"
import { AdminPartnersHandlers } from "./admin/partners/Http.ts"
import { AdminPipelinesHandlers } from "./admin/pipelines/Http.ts"
import { DiscoveryHandlers } from "./discovery/Http.ts"
import { searchHotPath } from "./discovery/SearchHotPath.ts"
import { type HotPathHandler, type LateHotPath, lateHotPath } from "./lateHotPath.ts"
import { LandingPageRoute } from "./discovery/LandingPage.ts"
import { StartPageRoutes } from "./discovery/StartPage.ts"
import { WellKnownUcpRoute } from "./mcp/WellKnownUcp.ts"
import { lazyRoutes } from "./LazyRoutes.ts"
import { NotFoundRoute, UnroutablePathFallback, withErrorResponses } from "./ErrorResponses.ts"
import { ProductsHandlers } from "./products/Http.ts"
import { RedirectHotPath } from "./redirect/Redirect.ts"
import { edgeServer } from "./edge/EdgeServer.ts"
import { DocsPagePolicy } from "./edge/DocsPagePolicy.ts"
import { makePublicReadLimits } from "./edge/PublicReadLimits.ts"
import { MetricsPort } from "./edge/MetricsPort.ts"
import { AppConfig } from "../infra/AppConfig.ts"
import { SystemHandlers } from "./system/Http.ts"
import { AiHandlers } from "./v1/ai/Http.ts"
import { V1AuthLayers } from "./v1/auth/PartnerAuth.ts"
import { CatalogHandlers } from "./v1/catalog/Http.ts"
import { PostbackRoute } from "./v1/conversions/Postback.ts"
import { DASHBOARD_PATH } from "./partner/formRequest.ts"
import { LinksHandlers } from "./v1/links/Http.ts"
import { PartnersHandlers } from "./v1/partners/Http.ts"
import { StorableTextLayer } from "./StorableText.ts"
import { RequestValidationLayer } from "./Validation.ts"
import { workerOnlyPaths } from "./WorkerRoutes.ts"

// Handler layers of every HttpApi group; each feature adds its own here.
const ApiHandlers = Layer.mergeAll(
  SystemHandlers,
  DiscoveryHandlers,
  ProductsHandlers,
  PartnersHandlers,
  LinksHandlers,
  CatalogHandlers,
  AiHandlers,
  AdminConversionsHandlers,
  AdminPipelinesHandlers,
  AdminPartnersHandlers
).pipe(Layer.provide(V1AuthLayers))

const ApiRoutes = HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(
  Layer.provide(ApiHandlers),
  Layer.provide(RequestValidationLayer),
  Layer.provide(StorableTextLayer)
)

const DocsRoute = HttpApiScalar.layer(Api, { path: "/docs" }).pipe(Layer.provide(DocsPagePolicy))

// Routes outside the HttpApi contract (HTML pages, postbacks): plain
// HttpRouter routes. The redirect (/t/*) is not a route at all: a plain
// node:http listener answers it before the router (api/redirect/Redirect.ts).
const RawRoutes = withErrorResponses(Layer.mergeAll(LandingPageRoute, StartPageRoutes, PostbackRoute))

// The partner dashboard's pages and QR codes load on its first request (api/LazyRoutes.ts).
const DashboardRoutes = lazyRoutes(
  [
    ["GET", DASHBOARD_PATH],
    ["POST", `${DASHBOARD_PATH}/sign-in`],
    ["POST", `${DASHBOARD_PATH}/sign-out`],
    ["POST", `${DASHBOARD_PATH}/links/:id`],
    ["GET", `${DASHBOARD_PATH}/links/:id/qr.png`],
    ["GET", `${DASHBOARD_PATH}/export.csv`]
  ],
  () => import("./partner/DashboardRoutes.ts").then((module) => withErrorResponses(module.DashboardRoutes))
)

// MCP (POST /mcp, Streamable HTTP) answers its own JSON-RPC errors; /.well-known/ucp advertises it.
// The MCP server (effect/ai, its RPC server, the tools) loads on the first request to /mcp, every
// method the transport answers (it answers 405 to all but POST and DELETE).
const McpRoutes = lazyRoutes(
  (["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const).map((method) => [method, "/mcp"] as const),
  () => import("./mcp/McpRoute.ts").then((module) => module.McpRoutes)
)

export const AllRoutes = Layer.mergeAll(
  withErrorResponses(Layer.mergeAll(ApiRoutes, DocsRoute)),
  RawRoutes,
  DashboardRoutes,
  McpRoutes,
  WellKnownUcpRoute,
  NotFoundRoute,
  UnroutablePathFallback
)

/**
 * The routes behind the edge server (api/edge/EdgeServer.ts): its timeouts
 * and connection caps, then the public-read limits, then the hot paths, see
 * every request first (and may answer it): `before`, set now, and a late hot
 * path that `lateLayer` (built beside the routes, once the server runs) may set.
 */
const serveWith = (
  before: HotPathHandler,
  port: number,
  host: string,
  lateLayer: (slot: LateHotPath) => Layer.Layer<never, never, DiscoverySearch | PublicUrl | AppConfig> = () =>
    Layer.empty
) => {
  const late = lateHotPath()
  return Layer.unwrap(
    Effect.gen(function* () {
      const { httpEdge } = yield* AppConfig
      const guards = yield* makePublicReadLimits
      return HttpRouter.serve(Layer.mergeAll(AllRoutes, lateLayer(late)).pipe(Layer.provide(PublicUrl.layer)), {
        disableLogger: true,
        disableListenLog: true,
        // long enough that an over-long id reaches its route and is answered 400 naming the parameter
        routerConfig: { maxParamLength: MAX_PARAM_LENGTH }
      }).pipe(
        Layer.provideMerge(
          NodeHttpServer.layer(
            () => edgeServer(httpEdge, guards, (req, res) => before(req, res) || late.handle(req, res)),
            { port, host }
          )
        ),
        Layer.merge(MetricsPort.layer)
      )
    })
  )
}

/** Node's request line and headers fit in 16 KB: no path parameter is longer. */
const MAX_PARAM_LENGTH = 16 * 1024

/**
 * The HTTP server on `port`/`host`; per-request logging is off (no log line
 * per hot request). ROLE=worker serves /health, /ready, /metrics and /admin
 * only (api/WorkerRoutes.ts), without the redirect and the search hot paths.
 */
export const serveOn = (port: number, host: string, role: Role = "all") =>
  role === "worker"
    ? serveWith(workerOnlyPaths, port, host)
    : Layer.unwrap(
        Effect.map(RedirectHotPath, (redirect) => serveWith(redirect.handle, port, host, searchHotPath))
      ).pipe(Layer.provide(RedirectHotPath.layer))
