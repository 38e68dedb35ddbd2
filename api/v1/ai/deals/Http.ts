import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../../Api.ts"
import { unavailable } from "../../../errors.ts"

// Work in progress (issue 6): answers 503 until deal discovery is built.
export const AiDealsHandlers = HttpApiBuilder.group(
  Api,
  "aiDeals",
  Effect.fn(function*(handlers) {
    return handlers.handle("deals", () => Effect.fail(unavailable("not_built", "deal discovery is being built")))
  })
)
