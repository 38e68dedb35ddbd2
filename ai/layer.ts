import { Layer } from "effect"
import { CopyLlm } from "./content/CopyLlm.ts"
import { ProgramFacts } from "./content/ProgramFacts.ts"
import { PromoCopy } from "./content/PromoCopy.ts"
import { DealDiscovery } from "./deals/DealDiscovery.ts"
import { FuzzyMatcher } from "./matchLink/FuzzyMatcher.ts"

/**
 * The AI-assisted partner tools' services: fuzzy link matching, promotional
 * copy, deal lists. Over the link services, discovery search and infrastructure.
 */
export const layer = Layer.mergeAll(
  FuzzyMatcher.layer,
  PromoCopy.layer.pipe(Layer.provideMerge(Layer.mergeAll(ProgramFacts.layer, CopyLlm.layer))),
  DealDiscovery.layer
)
