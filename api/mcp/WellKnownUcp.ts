import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { PublicUrl } from "../../infra/PublicUrl.ts"
import { discoveryProfile } from "./ucp/profile.ts"

// GET /.well-known/ucp: the business profile that advertises /mcp. Served from
// start-up (it is small), while /mcp itself loads on its first request (api/Server.ts).
export const WellKnownUcpRoute = Layer.unwrap(
  Effect.gen(function* () {
    const profile = discoveryProfile((yield* PublicUrl).base)
    return HttpRouter.add("GET", "/.well-known/ucp", Effect.succeed(HttpServerResponse.jsonUnsafe(profile)))
  })
)
