import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../Api.ts"
import { unavailable } from "../../../errors.ts"

// Work in progress (issue 6): answers 503 until the matcher is built.
export const AiMatchLinkHandlers = HttpApiBuilder.group(
  Api,
  "aiMatchLink",
  Effect.fn(function*(handlers) {
    return handlers.handle("matchLink", () => Effect.fail(unavailable("not_built", "fuzzy link matching is being built")))
  })
)
