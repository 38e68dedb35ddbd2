import { Layer } from "effect"
import { CopyLlm } from "../../../../ai/content/CopyLlm.ts"
import { ProgramFacts } from "../../../../ai/content/ProgramFacts.ts"
import { PromoCopy } from "../../../../ai/content/PromoCopy.ts"

// The services behind POST /api/v1/ai/generate-content, over the link services and the database.
export const Services = PromoCopy.layer.pipe(Layer.provideMerge(Layer.mergeAll(ProgramFacts.layer, CopyLlm.layer)))
