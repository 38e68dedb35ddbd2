import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../Api.ts"
import { unavailable } from "../../../errors.ts"

// Work in progress (issue 6): answers 503 until the generators are built.
export const AiContentHandlers = HttpApiBuilder.group(
  Api,
  "aiContent",
  Effect.fn(function*(handlers) {
    return handlers.handle("generateContent", () => Effect.fail(unavailable("not_built", "content generation is being built")))
  })
)
