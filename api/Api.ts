import { HttpApi, OpenApi } from "effect/http-api"
import { AdminConversionsApi } from "./admin/conversions/Api.ts"
import { addPostbackToOpenApi } from "./v1/conversions/PostbackDocs.ts"
import { PACKAGE_VERSION } from "../infra/PackageVersion.ts"
import { addRedirectToOpenApi } from "./redirect/RedirectDocs.ts"
import { AdminPartnersApi } from "./admin/partners/Api.ts"
import { addEdgeResponsesToOpenApi } from "./edge/EdgeResponsesDocs.ts"
import { AdminPipelinesApi } from "./admin/pipelines/Api.ts"
import { DiscoveryApi } from "./discovery/Api.ts"
import { AiContentApi } from "./v1/ai/content/Api.ts"
import { AiDealsApi } from "./v1/ai/deals/Api.ts"
import { AiMatchLinkApi } from "./v1/ai/matchLink/Api.ts"
import { ProductsApi } from "./products/Api.ts"
import { SystemApi } from "./system/Api.ts"
import { CatalogApi } from "./v1/catalog/Api.ts"
import { LinksApi } from "./v1/links/Api.ts"
import { PartnersApi } from "./v1/partners/Api.ts"
import { RequestValidation, StorableText } from "./RequestChecksApi.ts"

// The whole HTTP contract. Each feature folder declares its group in its own
// Api.ts; this file only lists them. `/openapi.json` and `/docs` are derived
// from it, so the docs cannot drift from the handlers.
export class Api extends HttpApi.make("affiliate-commerce")
  .add(SystemApi)
  .add(PartnersApi)
  .add(LinksApi)
  .add(CatalogApi)
  .add(AiMatchLinkApi)
  .add(AiContentApi)
  .add(AiDealsApi)
  .add(AdminConversionsApi)
  .add(AdminPipelinesApi)
  .add(AdminPartnersApi)
  .add(DiscoveryApi)
  .add(ProductsApi)
  .middleware(RequestValidation)
  .middleware(StorableText)
  // JSON bodies are strict: the document says additionalProperties: false, and a
  // misspelt optional field silently ignored would do the wrong thing quietly.
  // Only bodies: query strings carry tracking parameters we do not control, and
  // header codecs see every transport header.
  .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error" })
  .annotateMerge(
    OpenApi.annotations({
      title: "Affiliate commerce API",
      version: PACKAGE_VERSION,
      description:
        "Product discovery feed (/api/deals, /api/search), affiliate link service (/api/v1) and the tracking redirect (/t/{trackingId}). " +
        "Every error answers with a JSON body { error: { code, message, details? } }."
    })
  )
  // The conversion postback (its HMAC covers the raw body) and the redirect (the hot path) are raw routes; document them here.
  // The HTTP edge's own answers (431, 413, 415, 429) are added to every operation that can receive them.
  .annotateMerge(
    OpenApi.annotations({
      transform: (spec) => addEdgeResponsesToOpenApi(addRedirectToOpenApi(addPostbackToOpenApi(spec)))
    })
  ) {}
