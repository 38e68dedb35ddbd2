import { NodeHttpServer } from "@effect/platform-node"
import { Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { createServer } from "node:http"
import { PublicUrl } from "../infra/PublicUrl.ts"
import { Api } from "./Api.ts"
import { AdminConversionsHandlers } from "./admin/conversions/Http.ts"
import { AdminPipelinesHandlers } from "./admin/pipelines/Http.ts"
import { DiscoveryHandlers } from "./discovery/Http.ts"
import { LandingPageRoute } from "./discovery/LandingPage.ts"
import { McpRoutes } from "./mcp/McpRoute.ts"
import { NotFoundRoute, withErrorResponses } from "./ErrorResponses.ts"
import { ProductsHandlers } from "./products/Http.ts"
import { RedirectRoute } from "./redirect/Redirect.ts"
import { SystemHandlers } from "./system/Http.ts"
import { AiHandlers } from "./v1/ai/AiTools.ts"
import { V1AuthLayers } from "./v1/auth/PartnerAuth.ts"
import { CatalogHandlers } from "./v1/catalog/Http.ts"
import { PostbackRoute } from "./v1/conversions/Postback.ts"
import { LinksHandlers } from "./v1/links/Http.ts"
import { PartnersHandlers } from "./v1/partners/Http.ts"
import { RequestValidationLayer } from "./Validation.ts"

// Handler layers of every HttpApi group; each feature adds its own here.
const ApiHandlers = Layer.mergeAll(SystemHandlers, DiscoveryHandlers, ProductsHandlers, PartnersHandlers, LinksHandlers, CatalogHandlers, AiHandlers, AdminConversionsHandlers, AdminPipelinesHandlers).pipe(
  Layer.provide(V1AuthLayers)
)

const ApiRoutes = HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(
  Layer.provide(ApiHandlers),
  Layer.provide(RequestValidationLayer)
)

const DocsRoute = HttpApiScalar.layer(Api, { path: "/docs" })

// Routes outside the HttpApi contract (HTML pages, the redirect): plain
// HttpRouter routes, because the redirect is the hottest path we serve and
// HttpApi's per-request machinery costs ~35% of its throughput.
// The redirect answers its own errors and skips the shared error middleware:
// every microsecond there is a cost on each click.
const RawRoutes = Layer.mergeAll(withErrorResponses(Layer.mergeAll(LandingPageRoute, PostbackRoute)), RedirectRoute)

// MCP (/mcp) answers its own JSON-RPC errors; /.well-known/ucp advertises it.
export const AllRoutes = Layer.mergeAll(withErrorResponses(Layer.mergeAll(ApiRoutes, DocsRoute)), RawRoutes, McpRoutes, NotFoundRoute)

/** The HTTP server on `port`/`host`; per-request logging is off (no log line per hot request). */
export const serveOn = (port: number, host: string) =>
  HttpRouter.serve(AllRoutes.pipe(Layer.provide(PublicUrl.layer)), { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port, host }))
  )
