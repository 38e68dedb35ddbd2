import { CatalogQueries } from "../../catalog/CatalogQueries.ts"
import { type Cause, Effect, Layer } from "effect"
import { McpServer, Toolkit } from "effect/ai"
import type { HttpRouter } from "effect/http"
import type { AppConfig } from "../../infra/AppConfig.ts"
import type { Database } from "../../infra/Database.ts"
import type { PublicUrl } from "../../infra/PublicUrl.ts"
import type { DiscoverySearch } from "../../discovery/DiscoverySearch.ts"
import type { LinkMatching } from "../../links/LinkMatching.ts"
import type { Partners } from "../../partners/Partners.ts"
import { withErrorResponses } from "../ErrorResponses.ts"
import { PartnerStatsQuery } from "../../partners/PartnerStatsQuery.ts"
import { makeAffiliateTools } from "./AffiliateTools.ts"
import { makeCatalogTools } from "./CatalogTools.ts"
import { McpHttpGuard } from "./McpHttpGuard.ts"
import { BatchLimits, ToolEnvelopes } from "./toolEnvelopes.ts"
import { CallerFromAuthorization, McpCaller } from "./McpCaller.ts"
import { PROTOCOLS, SERVER_INFO } from "./serverInfo.ts"
import {
  FindPrograms,
  GetProduct,
  ListDeals,
  LookupCatalog,
  MatchLink,
  PartnerStats,
  SearchCatalog
} from "./toolDefinitions.ts"

// POST /mcp: the shopping tools over MCP's Streamable HTTP transport, on the
// same server as the JSON API (GET answers 405: we send no server-initiated
// messages; DELETE ends a session). /.well-known/ucp advertises it.

/** The tools with the request's caller (partner or anonymous) as a dependency of each handler. */
const ServerTools = Toolkit.make(
  SearchCatalog.addDependency(McpCaller),
  LookupCatalog.addDependency(McpCaller),
  GetProduct.addDependency(McpCaller),
  ListDeals.addDependency(McpCaller),
  MatchLink.addDependency(McpCaller),
  FindPrograms.addDependency(McpCaller),
  PartnerStats.addDependency(McpCaller)
)

const Handlers = ServerTools.toLayer(
  Effect.gen(function* () {
    const catalog = yield* makeCatalogTools
    const affiliate = yield* makeAffiliateTools
    return {
      search_catalog: catalog.searchCatalog,
      lookup_catalog: catalog.lookupCatalog,
      get_product: catalog.getProduct,
      list_deals: affiliate.listDeals,
      match_link: affiliate.matchLink,
      find_programs: affiliate.findPrograms,
      partner_stats: affiliate.partnerStats
    }
  })
).pipe(Layer.provide(PartnerStatsQuery.layer))

/** The toolkit's tools, then their titles, output schemas and envelope rules (toolEnvelopes.ts). */
const Registrations = ToolEnvelopes.pipe(
  Layer.provide(
    McpServer.toolkit(ServerTools).pipe(
      Layer.provide(CallerFromAuthorization.layer),
      Layer.provide(BatchLimits.layer),
      Layer.provide(Handlers)
    )
  )
)

/** The services the tool handlers and the caller middleware read. */
type ToolServices = DiscoverySearch | LinkMatching | Database | Partners | PublicUrl | CatalogQueries | AppConfig

// layerHttp's inferred requirements degrade to `any` for dynamic (JSON Schema)
// tools; this states them, so a missing service is still a type error upstream.
export const McpHttpRoute: Layer.Layer<
  McpServer.McpServer,
  Cause.IllegalArgumentError,
  HttpRouter.HttpRouter | ToolServices
> = McpServer.layerHttp({
  ...SERVER_INFO,
  path: "/mcp",
  protocols: PROTOCOLS,
  // a client may end its session (DELETE with Mcp-Session-Id) instead of leaving it to the process
  allowSessionTermination: true,
  registrations: Registrations
})

/** The rate limits and body bound of /api/v1; a defect is a logged JSON 500 as on /api. */
export const McpRoutes = withErrorResponses(McpHttpRoute.pipe(Layer.provide(McpHttpGuard)))
