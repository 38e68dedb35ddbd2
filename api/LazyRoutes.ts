import { Context, Effect, Layer, Scope } from "effect"
import { HttpRouter, type HttpServerRequest, type HttpServerResponse } from "effect/http"

// Routes whose code is loaded on their first request, not at start-up: the
// MCP face (effect/ai and its RPC server) and the partner dashboard (page
// renderers, QR codes) are a good part of the modules the service would
// otherwise load before it can answer /health, and many processes (replicas,
// workers, test services) never serve them. The module holding this helper
// stays cheap to import: the real routes come in through `load`'s dynamic import.

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS"

// No error in its type: the loaded routes answer their own errors (withErrorResponses), as they
// did when registered directly; anything left is the server's, as before.
type Handler = Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  never,
  HttpServerRequest.HttpServerRequest | Scope.Scope
>

/**
 * Registers `routes` (method and path, as the loaded layer registers them) on
 * the router. The first request to any of them imports `load`'s module and
 * builds its routes on a router of their own, in the service's scope and with
 * the services the service was built with (`R`); every request is handed to
 * that router. Two first requests at once load it once.
 */
export const lazyRoutes = <R>(
  routes: ReadonlyArray<readonly [Method, HttpRouter.PathInput]>,
  load: () => Promise<Layer.Layer<never, unknown, R | HttpRouter.HttpRouter>>
): Layer.Layer<never, never, Exclude<R, HttpRouter.HttpRouter> | HttpRouter.HttpRouter> =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const router = yield* HttpRouter.HttpRouter
      const services = yield* Effect.context<Exclude<R, HttpRouter.HttpRouter> | Scope.Scope>()
      // A router of their own: the layer value HttpRouter.layer is already built (it is the
      // outer router) in the memo map the loaded routes' build starts from.
      const ownRouter = Layer.effect(HttpRouter.HttpRouter)(HttpRouter.make)
      const build = (routes: Layer.Layer<never, unknown, R | HttpRouter.HttpRouter>) =>
        Layer.buildWithMemoMap(
          Layer.provideMerge(routes, ownRouter) as Layer.Layer<HttpRouter.HttpRouter, unknown>,
          Layer.CurrentMemoMap.forkOrCreate(services),
          Context.get(services, Scope.Scope)
        ).pipe(Effect.map((built) => Context.get(built, HttpRouter.HttpRouter).asHttpEffect() as Handler))
      const loaded = yield* Effect.cached(
        Effect.promise(load).pipe(
          Effect.flatMap(build),
          Effect.orDie,
          // the outer router matched the request (and bounded its path parameters) already: this one only finds it again
          Effect.provideService(HttpRouter.RouterConfig, { maxParamLength: Number.POSITIVE_INFINITY }),
          Effect.provideContext(services as Context.Context<never>)
        )
      )
      const handler = Effect.flatten(loaded)
      for (const [method, path] of routes) yield* router.add(method, path, handler)
    })
  )
