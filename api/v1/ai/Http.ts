import { Layer } from "effect"
import { AiContentHandlers } from "./content/Http.ts"
import { AiDealsHandlers } from "./deals/Http.ts"
import { AiMatchLinkHandlers } from "./matchLink/Http.ts"

// The AI-assisted partner tools under /api/v1/ai: one folder per endpoint;
// their services are ai/layer.ts.
export const AiHandlers = Layer.mergeAll(AiMatchLinkHandlers, AiContentHandlers, AiDealsHandlers)
