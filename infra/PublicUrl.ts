import { Context, Effect, Layer, Option } from "effect"
import { HttpServer } from "effect/http"
import { AppConfig } from "./AppConfig.ts"

/**
 * The base for every absolute link we hand out (tracking URLs, landing
 * pages): PUBLIC_BASE_URL when set, else the address the server is bound to.
 */
export class PublicUrl extends Context.Service<
  PublicUrl,
  {
    readonly base: string
    /** `path` must start with "/". */
    to(path: string): string
  }
>()("app/infra/PublicUrl") {
  static readonly make = (base: string) => {
    const trimmed = base.replace(/\/+$/, "")
    return PublicUrl.of({ base: trimmed, to: (path) => `${trimmed}${path}` })
  }

  static readonly layer = Layer.effect(
    PublicUrl,
    Effect.gen(function* () {
      const config = yield* AppConfig
      if (Option.isSome(config.publicBaseUrl)) return PublicUrl.make(config.publicBaseUrl.value)
      const server = yield* HttpServer.HttpServer
      const port = server.address._tag === "UnixPathAddress" ? config.port : server.address.port
      const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host
      return PublicUrl.make(`http://${host.includes(":") ? `[${host}]` : host}:${port}`)
    })
  )
}
