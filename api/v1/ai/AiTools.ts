import { Layer } from "effect"
import { AiContentHandlers } from "./content/Http.ts"
import { Services as ContentServices } from "./content/layer.ts"
import { AiDealsHandlers } from "./deals/Http.ts"
import { Services as DealsServices } from "./deals/layer.ts"
import { AiMatchLinkHandlers } from "./matchLink/Http.ts"
import { Services as MatchLinkServices } from "./matchLink/layer.ts"

// The AI-assisted partner tools under /api/v1/ai: one folder per endpoint.

/** Their services, over the link services, discovery search and infrastructure. */
export const AiServices = Layer.mergeAll(MatchLinkServices, ContentServices, DealsServices)

export const AiHandlers = Layer.mergeAll(AiMatchLinkHandlers, AiContentHandlers, AiDealsHandlers)
